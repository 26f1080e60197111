package mentor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// ShippedCause reads a missing file as one that comes with the page only
// when the page's folder holds it and no step of the page writes it.
func TestShippedCause(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "lab"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "lab", "data.csv"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := Failure{Category: status.CategoryMissingFile, Subject: "lab/data.csv", ErrorLine: "cat: lab/data.csv: No such file or directory"}
	ctx := context.Background()
	if f := ShippedCause(ctx, missing, session.Local{}, dir, "lab/data.csv", false); f.Category != status.CategoryEnvironment ||
		f.Subject != "the files that come with the page: `lab/data.csv` is in the page's own folder, which a reader who has the page's repository works in" ||
		StudentEvidence(f) == "" {
		t.Errorf("beside the page: %+v", f)
	}
	for name, c := range map[string]struct {
		rel     string
		written bool
	}{
		"not beside the page":           {"lab/other.csv", false},
		"written by a step of the page": {"lab/data.csv", true},
		"outside the work folder":       {"../lab/data.csv", false},
		"absolute":                      {"/etc/passwd", false},
	} {
		if f := ShippedCause(ctx, missing, session.Local{}, dir, c.rel, c.written); f.Category != status.CategoryMissingFile {
			t.Errorf("%s: %+v, want the missing file left as it is", name, f)
		}
	}
}

// A bare name one subfolder of the page's folder holds is the page's too:
// its reader works in that folder; a name two folders hold is not placed.
func TestShippedInOneFolder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/forks.c", "src/images/run.png", "a/common.h", "b/common.h"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	missing := Failure{Category: status.CategoryMissingFile, Subject: "forks.c", ErrorLine: "cc1: fatal error: forks.c: No such file or directory"}
	f := ShippedCause(ctx, missing, session.Local{}, dir, "forks.c", false)
	if f.Category != status.CategoryEnvironment || !strings.Contains(f.Subject, "`src/` holds `forks.c`") || StudentEvidence(f) == "" {
		t.Fatalf("in src/: %+v", f)
	}
	// The Mentor reads the Student's evidence back out of the output.
	got, ok := environmentFailure("gcc -o forks forks.c", StudentEvidence(f)+"\ncc1: fatal error: forks.c: No such file or directory")
	if !ok || got.Subject != f.Subject {
		t.Fatalf("the Mentor read %+v, %v", got, ok)
	}
	a := pageFolderAdvice(wire.MentorAdvice{Line: 10}, "/workspace/tutorial", "src", "forks.c", 10)
	if a.Workaround != "cp -R -n /workspace/tutorial/src/. ." || !strings.Contains(a.SuggestedFix, "cd src") {
		t.Errorf("advice: %+v", a.MentorAdvice)
	}
	for _, name := range []string{"common.h", "nothere.c"} {
		m := missing
		m.Subject = name
		if g := ShippedCause(ctx, m, session.Local{}, dir, name, false); g.Category != status.CategoryMissingFile {
			t.Errorf("%s: %+v, want the missing file left as it is", name, g)
		}
	}
}
