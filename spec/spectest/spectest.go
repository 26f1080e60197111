// Package spectest holds what tests of several packages need from spec.
package spectest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/spec"
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
