package session

import (
	"os"
	"path/filepath"
	"testing"
)

func TestShellChange(t *testing.T) {
	dir := t.TempDir()
	shell := filepath.Join(dir, "bash")
	if err := os.WriteFile(shell, []byte("real"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := shellPrint(shell)
	if got := shellChange(before, shellPrint(shell)); got != "" {
		t.Errorf("nothing changed, yet: %q", got)
	}
	tmp := filepath.Join(dir, "fake")
	if err := os.WriteFile(tmp, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, shell); err != nil {
		t.Fatal(err)
	}
	if got, want := shellChange(before, shellPrint(shell)), shell+" was replaced or changed"; got != want {
		t.Errorf("after a swap: %q, want %q", got, want)
	}
	after := map[string]string{shell: before[shell], preloadList: "1:2:3:100644:4.5"}
	if got, want := shellChange(before, after), preloadList+" was written or removed"; got != want {
		t.Errorf("after a preload list appeared: %q, want %q", got, want)
	}
}
