package hostguard

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
)

func TestDefuse(t *testing.T) {
	root := t.TempDir()
	write := func(name string, mode fs.FileMode) string {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	suid := write("sb", 0o755|fs.ModeSetuid)
	sgid := write("deep/er/sg", 0o750|fs.ModeSetgid)
	plain := write("plain.sh", 0o755)
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(outside, 0o755|fs.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	dev := filepath.Join(root, "disk")
	hasDev := syscall.Mknod(dev, syscall.S_IFBLK|0o600, 8<<8) == nil // needs root

	got, err := Defuse(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"deep/er/sg: setgid bit cleared", "sb: setuid bit cleared"}
	if hasDev {
		want = append(want, "disk: device node removed")
	}
	var said []string
	for _, f := range got {
		said = append(said, f.String())
	}
	sort.Strings(said)
	sort.Strings(want)
	if len(said) != len(want) {
		t.Fatalf("Defuse = %q, want %q", said, want)
	}
	for i := range said {
		if said[i] != want[i] {
			t.Errorf("Defuse = %q, want %q", said, want)
		}
	}
	for p, mode := range map[string]fs.FileMode{suid: 0o755, sgid: 0o750, plain: 0o755, outside: 0o755 | fs.ModeSetuid} {
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if info.Mode()&(fs.ModePerm|fs.ModeSetuid|fs.ModeSetgid) != mode {
			t.Errorf("%s: mode %v, want %v (a link's target outside the folder is never touched)", p, info.Mode(), mode)
		}
	}
	if _, err := os.Lstat(dev); hasDev && err == nil {
		t.Errorf("the device node is still there")
	}
	if f, err := Defuse(filepath.Join(root, "missing")); err != nil || len(f) != 0 {
		t.Errorf("Defuse(missing) = %v, %v", f, err)
	}
}
