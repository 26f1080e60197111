package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// HomeDir is the folder, at the root of a workspace (spec.FindWorkspace),
// where SMILE keeps what it knows about the workspace's runs: the applied
// manifests, the controller, logs, each run's default state and reports.
const HomeDir = ".smile"

// EnsureHome creates a workspace's .smile folder with a .gitignore that
// ignores all of it (as Python's venv does), so what runs leave there is never
// staged by a later `git add`, with or without `smile init`.
func EnsureHome(dir string) error {
	home := filepath.Join(dir, HomeDir)
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	ignore := filepath.Join(home, ".gitignore")
	if _, err := os.Lstat(ignore); err == nil {
		return nil
	}
	return os.WriteFile(ignore, []byte("# Written by SMILE: what runs leave here is never committed.\n*\n"), 0o644)
}

// Record says a run was applied in a workspace and where its status is.
type Record struct {
	Name      string    `json:"name"`
	Manifest  string    `json:"manifest"`
	StateFile string    `json:"stateFile"`
	OutputDir string    `json:"outputDir,omitempty"`
	AppliedAt time.Time `json:"appliedAt"`
}

// Registry lists the runs applied in one workspace (its .smile/applied/).
type Registry struct {
	Dir string // the workspace: the folder holding .smile
}

func (r Registry) path(name string) string {
	return filepath.Join(r.Dir, HomeDir, "applied", name+".json")
}

// Put records an applied run.
func (r Registry) Put(rec Record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(r.path(rec.Name), append(data, '\n'), 0o644)
}

// Get returns one record.
func (r Registry) Get(name string) (Record, error) {
	var rec Record
	data, err := os.ReadFile(r.path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return rec, fmt.Errorf("%w: smilerun %q", ErrNotFound, name)
	}
	if err != nil {
		return rec, err
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		return rec, fmt.Errorf("read %s: %w", r.path(name), err)
	}
	return rec, nil
}

// List returns every record, by name.
func (r Registry) List() ([]Record, error) {
	entries, err := os.ReadDir(filepath.Join(r.Dir, HomeDir, "applied"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Record
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() {
			continue
		}
		rec, err := r.Get(name)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Delete forgets a run.
func (r Registry) Delete(name string) error {
	if err := os.Remove(r.path(name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
