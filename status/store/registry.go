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

// HomeDir is the folder, beside the manifests, where SMILE keeps what it
// knows about a folder's runs: the applied manifests, logs, the default
// state file.
const HomeDir = ".smile"

// Record says a run was applied in a folder and where its status is.
type Record struct {
	Name      string    `json:"name"`
	Manifest  string    `json:"manifest"`
	StateFile string    `json:"stateFile"`
	AppliedAt time.Time `json:"appliedAt"`
}

// Registry lists the runs applied in one folder (its .smile/applied/).
type Registry struct {
	Dir string // the folder holding .smile
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
