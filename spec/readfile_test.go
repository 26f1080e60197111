package spec

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLoadersRefuseANamedPipe: a tutorial or smile.json path that is a FIFO
// with no writer is refused at once, never read forever.
func TestLoadersRefuseANamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "tutorial.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for name, load := range map[string]func() error{
		"ReadRegularFile": func() error { _, err := ReadRegularFile(fifo); return err },
		"LoadTutorial":    func() error { _, err := LoadTutorial(fifo); return err },
		"LoadConfig":      func() error { _, err := LoadConfig(fifo); return err },
	} {
		done := make(chan error, 1)
		go func() { done <- load() }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a named pipe") {
				t.Errorf("%s(fifo) = %v, want ErrNotRegular naming a named pipe", name, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s(fifo) blocked: a pipe with no writer hangs the loader", name)
		}
	}
}

func TestReadRegularFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.md")
	if err := os.WriteFile(p, []byte("# hi\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if data, err := ReadRegularFile(p); err != nil || string(data) != "# hi\n" {
		t.Errorf("ReadRegularFile(file) = %q, %v", data, err)
	}
	if _, err := ReadRegularFile(filepath.Join(dir, "none.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadRegularFile(missing) = %v, want fs.ErrNotExist", err)
	}
	if _, err := ReadRegularFile(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("ReadRegularFile(dir) = %v, want ErrNotRegular", err)
	}
}
