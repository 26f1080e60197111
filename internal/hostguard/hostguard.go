// Package hostguard keeps what a tutorial leaves in a host folder from being
// a way to privileges on the host. A Student's work folder is a bind mount:
// a tutorial running as root in its container can leave a setuid-root copy
// of a shell there (the owner may always set the bit, whatever capabilities
// it lacks), or a device node where MKNOD was not dropped. Defuse clears the
// setuid and setgid bits of every regular file under a folder and removes
// device nodes, never following a symbolic link out of it.
package hostguard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Finding is one thing Defuse made harmless.
type Finding struct {
	Path string // relative to the folder defused
	What string // "setuid bit cleared", "setgid bit cleared", "device node removed"
}

func (f Finding) String() string { return f.Path + ": " + f.What }

// Defuse walks root and makes every privileged file harmless. It goes on
// past a file it cannot change and returns every such error joined; a
// missing root is nothing to do.
func Defuse(root string) ([]Finding, error) {
	var out []Finding
	var errs []error
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			errs = append(errs, err)
			return nil
		}
		mode := d.Type()
		rel, _ := filepath.Rel(root, path)
		switch {
		case mode&fs.ModeSymlink != 0, d.IsDir():
			return nil // WalkDir never follows a link; directories' bits are harmless
		case mode&(fs.ModeDevice|fs.ModeCharDevice) != 0:
			if err := os.Remove(path); err != nil {
				errs = append(errs, err)
				return nil
			}
			out = append(out, Finding{rel, "device node removed"})
			return nil
		case !mode.IsRegular():
			return nil // pipes and sockets give no privileges
		}
		info, err := d.Info()
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		perm := info.Mode()
		if perm&(fs.ModeSetuid|fs.ModeSetgid) == 0 {
			return nil
		}
		// Chmod follows links; Lchmod is not on Linux. The entry was a regular
		// file when listed; a root-owned folder only SMILE writes to leaves no
		// one a window to swap it for a link (the containers are stopped).
		if err := os.Chmod(path, perm.Perm()|(perm&fs.ModeSticky)); err != nil {
			errs = append(errs, fmt.Errorf("clear the setuid/setgid bits of %s: %w", path, err))
			return nil
		}
		if perm&fs.ModeSetuid != 0 {
			out = append(out, Finding{rel, "setuid bit cleared"})
		}
		if perm&fs.ModeSetgid != 0 {
			out = append(out, Finding{rel, "setgid bit cleared"})
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	return out, errors.Join(errs...)
}
