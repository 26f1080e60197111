package store

import (
	"os"
	"path/filepath"
	"testing"
)

// TestAcquireRemovesStaleTemps: the temp files of a writer killed mid-write
// are removed when the next process takes the lock; other files stay.
func TestAcquireRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	files := map[string]bool{ // name -> removed
		".state.json.tmp-123": true,
		".state.json.tmp-abc": true,
		"state.json":          false,
		".other.json.tmp-1":   false,
		"notes.txt":           false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Acquire(state)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release()
	for name, removed := range files {
		t.Run(name, func(t *testing.T) {
			_, err := os.Stat(filepath.Join(dir, name))
			if gone := os.IsNotExist(err); gone != removed {
				t.Fatalf("%s removed = %v, want %v", name, gone, removed)
			}
		})
	}
}
