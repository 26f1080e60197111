package mentor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
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
