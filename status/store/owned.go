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
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := os.Lstat(filepath.Join(dir, OwnerMarker)); err != nil {
		return fmt.Errorf("run folder %s: %w", dir, ErrNotOwned)
	}
	return nil
}

// RemoveOwned removes dir if SMILE created it; a missing dir is fine.
func RemoveOwned(dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := CheckOwned(dir); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	return nil
}

// MakeOwned creates dir with the marker that lets RemoveOwned remove it.
func MakeOwned(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, OwnerMarker), []byte("created by smile; removed with the run\n"), 0o644); err != nil {
		return fmt.Errorf("mark %s: %w", dir, err)
	}
	return nil
}
