package agent

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// maxWalked bounds the walk of ranTools: a folder with more entries counts
// as changed, as nothing proves it is not.
const maxWalked = 100000

// ranTools says whether a failed invocation had run tools: the commands and
// files its CLI reported, or any entry of the work folder changed after
// since (a CLI whose failure reports nothing, such as Gemini's error
// object, may still have run commands). A deleted entry changes its
// folder's time. A change outside the work folder (a package installed) is
// seen only in the commands the CLI reported.
func ranTools(rep Reply, workDir string, since time.Time) bool {
	if len(rep.Commands) > 0 || len(rep.Files) > 0 {
		return true
	}
	if workDir == "" {
		return false
	}
	walked := 0
	changed := errors.New("changed")
	err := filepath.WalkDir(workDir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if walked++; walked > maxWalked {
			return changed
		}
		if info, err := d.Info(); err == nil && info.ModTime().After(since) {
			return changed
		}
		return nil
	})
	return errors.Is(err, changed)
}

// fileClock is the time a file written now gets, for comparing with the
// times of the work folder's files: the kernel stamps files from a coarse
// clock that lags the wall clock by up to a tick, so a file changed just
// after time.Now() may look older than it. A file changed after this stamp
// has a later time; one changed in the same tick, before or after, has
// the same (and a CLI takes more than a tick to start).
func fileClock() time.Time {
	f, err := os.CreateTemp("", "smile-clock-")
	if err != nil {
		return time.Now()
	}
	defer os.Remove(f.Name())
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return time.Now()
	}
	return info.ModTime()
}
