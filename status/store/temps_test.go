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

// Both ways of replacing a file leave the new content, the permissions
// asked for and no temporary file; a reader never sees a part.
func TestReplaceFile(t *testing.T) {
	for name, write := range map[string]func(string, []byte, os.FileMode) error{"WriteFileAtomic": WriteFileAtomic, "ReplaceFile": ReplaceFile} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sub", "progress.json")
			for _, content := range []string{`{"step":"one"}`, `{"step":"two"}`} {
				if err := write(path, []byte(content), 0o600); err != nil {
					t.Fatal(err)
				}
				got, err := os.ReadFile(path)
				if err != nil || string(got) != content {
					t.Fatalf("read %q, %v; want %q", got, err, content)
				}
			}
			info, err := os.Stat(path)
			if err != nil || info.Mode().Perm() != 0o600 {
				t.Fatalf("mode %v, %v; want 0600", info.Mode(), err)
			}
			entries, _ := os.ReadDir(filepath.Dir(path))
			if len(entries) != 1 {
				t.Fatalf("the folder holds %d files, want only the replaced one", len(entries))
			}
		})
	}
}
