package store

import (
	"os"
	"path/filepath"
)

// InternalDir is where a run keeps what only SMILE reads (its inbox, each
// generation's work and logs folders): in the run's own folder
// (.smile/runs/NAME/, where the default state file is) under internal/, else
// under runs/NAME/ beside a state file the user placed, so one folder's runs
// never mix with another's. A run whose folder an earlier SMILE made at
// runs/NAME beside its state file (even the default one) goes on using it, so
// a run in progress across an upgrade resumes.
func InternalDir(name, stateFile string) string {
	dir := filepath.Dir(stateFile)
	beside := filepath.Join(dir, "runs", name)
	if !ownRunFolder(name, dir) {
		return beside
	}
	if _, err := os.Lstat(filepath.Join(beside, OwnerMarker)); err == nil {
		return beside
	}
	return filepath.Join(dir, "internal")
}

// ownRunFolder reports whether dir is a run's own folder in a workspace,
// .smile/runs/NAME, where nothing but that run's files live.
func ownRunFolder(name, dir string) bool {
	runs := filepath.Dir(dir)
	return filepath.Base(dir) == name && filepath.Base(runs) == "runs" && filepath.Base(filepath.Dir(runs)) == HomeDir
}
