package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/smile-loop/smile/status"
)

// ErrLoopRunning is returned when another process holds a state file's lock
// (seed E14/E18).
var ErrLoopRunning = errors.New("loop already running")

// ErrNotFound is returned when a state file does not exist.
var ErrNotFound = errors.New("no state")

// Load reads a run from its state file.
func Load(path string) (*status.Run, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read state %s: %w", path, err)
	}
	var run status.Run
	if err := json.Unmarshal(data, &run); err != nil {
		return nil, fmt.Errorf("state file %s is not valid JSON (%v): move it away to start over", path, err)
	}
	return &run, nil
}

// Save writes a run atomically: a temporary file in the same folder, fsync,
// rename over the old file, fsync of the folder. A crash leaves either the old
// or the new file, never a mix.
func Save(path string, run *status.Run) error {
	data, err := json.MarshalIndent(run, "", "  ")
	if err != nil {
		return fmt.Errorf("encode state: %w", err)
	}
	return WriteFileAtomic(path, append(data, '\n'), 0o600)
}

// WriteFileAtomic replaces path with data so readers and crashes see either the
// old content or the new, never part of it.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	return replaceFile(path, data, perm, true)
}

// ReplaceFile replaces path with data so readers see either the old content
// or the new, never part of it; unlike WriteFileAtomic it does not wait for
// the disk (two fsyncs, milliseconds each), so a power loss may lose the
// new content: for what is rewritten often and worthless after a crash,
// such as an attempt's heartbeat.
func ReplaceFile(path string, data []byte, perm os.FileMode) error {
	return replaceFile(path, data, perm, false)
}

func replaceFile(path string, data []byte, perm os.FileMode, durable bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if durable {
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return fmt.Errorf("sync %s: %w", path, err)
		}
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace %s: %w", path, err)
	}
	if !durable {
		return nil
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename itself durable
		d.Close()
	}
	return nil
}

// Lock is an exclusive hold on a state file: one loop per state file. The
// kernel releases it when the holder dies, so a lock left by a crashed process
// never blocks a rerun.
type Lock struct {
	f *os.File
}

// LockPath is the lock file beside a state file.
func LockPath(stateFile string) string { return stateFile + ".lock" }

// Acquire takes the lock of a state file without waiting. When another live
// process holds it, the error wraps ErrLoopRunning and names that process.
func Acquire(stateFile string) (*Lock, error) {
	path := LockPath(stateFile)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			if pid := strings.TrimSpace(string(holder)); pid != "" {
				return nil, fmt.Errorf("%w for %s (pid %s)", ErrLoopRunning, stateFile, pid)
			}
			return nil, fmt.Errorf("%w for %s", ErrLoopRunning, stateFile)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	// The lock holder is the file's only writer: a temp file left now is
	// from a writer that was killed mid-write.
	RemoveStaleTemps(stateFile)
	return &Lock{f: f}, nil
}

// RemoveStaleTemps removes the temporary files WriteFileAtomic leaves beside
// path when its process dies between creating and renaming one. Call it
// only while no other process may be writing path.
func RemoveStaleTemps(path string) {
	matches, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+globEscape(filepath.Base(path))+".tmp-*"))
	for _, m := range matches {
		_ = os.Remove(m)
	}
}

// globEscape quotes the characters filepath.Match treats specially.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(s)
}

// Held reports whether some live process holds the lock of a state file.
func Held(stateFile string) bool {
	l, err := Acquire(stateFile)
	if err != nil {
		return errors.Is(err, ErrLoopRunning)
	}
	l.Release()
	return false
}

// Release lets go of the lock.
func (l *Lock) Release() {
	if l == nil || l.f == nil {
		return
	}
	_ = l.f.Truncate(0)
	_ = syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
}
