// Package spectest holds what tests of several packages need from spec.
package spectest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
)

// Tutorial writes markdown as tutorial.md in a test's own folder and loads it
// as SMILE does; any failure ends the test.
func Tutorial(t testing.TB, markdown string) *spec.Tutorial {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(path, []byte(markdown), 0o644); err != nil {
		t.Fatal(err)
	}
	tut, err := spec.LoadTutorial(path)
	if err != nil {
		t.Fatal(err)
	}
	return tut
}

// Code numbers the lines of text from first, as a code block's content
// lines are numbered in a page.
func Code(first int, text string) []markdown.CodeLine {
	var out []markdown.CodeLine
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, markdown.CodeLine{Line: first + i, Text: l})
	}
	return out
}
