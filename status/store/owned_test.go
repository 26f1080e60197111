package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveOwned: SMILE removes a run's folder only when it created it; a
// folder that only has the right name keeps the user's files.
func TestRemoveOwned(t *testing.T) {
	tests := []struct {
		name        string
		setup       func(t *testing.T, dir string)
		wantErr     error
		wantRemains bool
	}{
		{"missing", func(*testing.T, string) {}, nil, false},
		{"created by smile", func(t *testing.T, dir string) {
			if err := MakeOwned(dir); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, "g1", "work", "x"), "x")
		}, nil, false},
		{"a user's folder", func(t *testing.T, dir string) {
			writeFile(t, filepath.Join(dir, "thesis.tex"), "years of work")
		}, ErrNotOwned, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "runs", "demo")
			tt.setup(t, dir)
			err := RemoveOwned(dir)
			if !errors.Is(err, tt.wantErr) && !(err == nil && tt.wantErr == nil) {
				t.Fatalf("RemoveOwned = %v, want %v", err, tt.wantErr)
			}
			if _, statErr := os.Stat(dir); (statErr == nil) != tt.wantRemains {
				t.Fatalf("folder remains = %v, want %v", statErr == nil, tt.wantRemains)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A run's folder is made again at each generation while the controller may
// check it for an apply: the check never sees it without its marker.
func TestMakeOwnedNeverShowsAnUnmarkedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "runs", "r")
	done := make(chan error, 1)
	go func() {
		for range 300 {
			if err := RemoveOwned(dir); err != nil {
				done <- err
				return
			}
			if err := MakeOwned(dir); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			return
		default:
			if err := CheckOwned(dir); err != nil {
				t.Errorf("a check during remaking: %v", err)
				if err := <-done; err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
}
