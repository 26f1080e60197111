package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// OwnerMarker is the file SMILE writes into every runs/<name>/ folder it
// creates. Only a folder holding it is ever removed: a folder that merely has
// the right name may hold a user's files.
const OwnerMarker = ".smile-owned"

// ErrNotOwned means a run's folder exists but SMILE did not create it.
var ErrNotOwned = errors.New("exists and was not created by SMILE (no " + OwnerMarker + " in it); move it away or choose another stateFile")

// CheckOwned fails when dir exists without SMILE's marker.
func CheckOwned(dir string) error {
	// A folder is made and removed by renames (MakeOwned, RemoveOwned), so
	// it never is there without its marker.
	marked := func() bool {
		_, err := os.Lstat(filepath.Join(dir, OwnerMarker))
		return err == nil
	}
	// Looked at a few times: a user's folder stays unmarked, one being
	// remade only looks so between two looks.
	for range 5 {
		if marked() {
			return nil
		}
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
	}
	return fmt.Errorf("run folder %s: %w", dir, ErrNotOwned)
}

// RemoveOwned removes dir if SMILE created it; a missing dir is fine.
func RemoveOwned(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := CheckOwned(dir); err != nil {
		return err
	}
	// Renamed aside first, so it vanishes at once: removing in place would
	// show a marker-less folder for a moment.
	gone, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".old-")
	if err != nil {
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	target := filepath.Join(gone, "d")
	if err := os.Rename(dir, target); err != nil {
		os.Remove(gone)
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	if err := os.RemoveAll(gone); err != nil {
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	return nil
}

// MakeOwned creates dir with the marker that lets RemoveOwned remove it. A
// new folder appears with its marker already in it (made aside, then
// renamed into place), so a CheckOwned running meanwhile never sees it
// unmarked.
func MakeOwned(dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(dir), err)
	}
	if _, err := os.Lstat(dir); err == nil {
		return mark(dir)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "."+filepath.Base(dir)+".new-")
	if err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := mark(tmp); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Lstat(filepath.Join(dir, OwnerMarker)); serr == nil {
			return nil // made meanwhile, marked
		}
		return fmt.Errorf("create %s: %w", dir, err)
	}
	return nil
}

func mark(dir string) error {
	if err := os.WriteFile(filepath.Join(dir, OwnerMarker), []byte("created by smile; removed with the run\n"), 0o644); err != nil {
		return fmt.Errorf("mark %s: %w", dir, err)
	}
	return nil
}
