package reconcile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/status/store"
)

// The inbox is where the API puts what the containers and users post, before
// acknowledging it: a result survives a controller crash the moment it is
// acknowledged, and the reconciler reads it as one more observation.
type inbox string

func (b inbox) resultFile(attempt string) string {
	return filepath.Join(string(b), attempt+".result.json")
}

func (b inbox) progressFile(attempt string) string {
	return filepath.Join(string(b), attempt+".progress.json")
}

func (b inbox) stopFile() string { return filepath.Join(string(b), "stop.json") }

func (b inbox) putResult(r *Posted) error { return writeJSON(b.resultFile(r.Attempt), r) }

func (b inbox) putProgress(attempt string, p *Progress) error {
	return writeJSON(b.progressFile(attempt), p)
}

func (b inbox) putStop(s *StopRequest) error { return writeJSON(b.stopFile(), s) }

func (b inbox) result(attempt string) (*Posted, error) {
	var r Posted
	ok, err := readJSON(b.resultFile(attempt), &r)
	if !ok || err != nil {
		return nil, err
	}
	r.File = b.resultFile(attempt)
	return &r, nil
}

func (b inbox) progress(attempt string) (*Progress, error) {
	var p Progress
	ok, err := readJSON(b.progressFile(attempt), &p)
	if !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (b inbox) stop() (*StopRequest, error) {
	var s StopRequest
	ok, err := readJSON(b.stopFile(), &s)
	if !ok || err != nil {
		return nil, err
	}
	return &s, nil
}

func (b inbox) clearStop() error {
	if err := os.Remove(b.stopFile()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func writeJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, 0o600)
}

// readJSON reports false (and no error) when the file does not exist.
func readJSON(path string, v any) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	return true, nil
}
