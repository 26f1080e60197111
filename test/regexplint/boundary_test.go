// Package regexplint checks the module's regular expressions for mistakes
// the compiler accepts. Go's \b is an ASCII word boundary: beside a letter
// outside ASCII (`\bпример`, `échoue\b`, `\b(?:à|a)`) it never matches
// where a reader expects, and the pattern silently misses words of the
// languages pages are written in.
package regexplint

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// boundaryBeside is \b right before a non-ASCII letter (or an alternation
// opening with one), or right after one (or after a group closing on one).
var boundaryBeside = regexp.MustCompile(`\\b(?:\(\?:)?[^\x00-\x7f]|[^\x00-\x7f]\)?\\b`)

func TestNoASCIIBoundaryBesideNonASCII(t *testing.T) {
	root := "../.."
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			if m := boundaryBeside.FindString(line); m != "" {
				found = append(found, p+":"+strconv.Itoa(i+1)+": "+m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s: \\b beside a letter outside ASCII never matches there; use (?:^|\\s) or drop it", f)
	}
}

func TestBoundaryBesideFinds(t *testing.T) {
	for text, want := range map[string]bool{
		"`\\bесли\\b`":          true,
		"`\\b(?:à|a) peu`":      true,
		"`\\b(?:é|e)chouera`":   true,
		"`\\bretry\\b|если`":    false,
		"`(?:^|\\s)(?:à|a) pe`": false,
	} {
		if got := boundaryBeside.MatchString(text); got != want {
			t.Errorf("boundaryBeside(%s) = %v, want %v", text, got, want)
		}
	}
}
