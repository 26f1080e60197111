// Package inbox keeps what is posted for a run (results, progress, a stop)
// on disk before it is acknowledged.
package inbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// The inbox is where the API puts what the containers and users post, before
// acknowledging it: a result survives a controller crash the moment it is
// acknowledged, and the reconciler reads it as one more observation.
type Inbox string

func (b Inbox) ResultFile(attempt string) string {
	return filepath.Join(string(b), attempt+".result.json")
}

func (b Inbox) ProgressFile(attempt string) string {
	return filepath.Join(string(b), attempt+".progress.json")
}

func (b Inbox) StopFile() string { return filepath.Join(string(b), "stop.json") }

// PutResult keeps a result, its credentials redacted first (status.RedactAll):
// what a tutorial printed is kept in the inbox, then in the state and the
// reports, and none of them may hold a CI job's token it found.
func (b Inbox) PutResult(r *planner.Posted) error {
	status.RedactAll(r)
	return WriteJSON(b.ResultFile(r.Attempt), r)
}

// PutProgress keeps an attempt's heartbeat: replaced atomically but not
// synced to disk, as it is rewritten at every step. A process crash loses
// nothing (the kernel holds the write); only a power loss could, and that
// ends the attempt's container too.
func (b Inbox) PutProgress(attempt string, p *planner.Progress) error {
	status.RedactAll(p)
	return ReplaceJSON(b.ProgressFile(attempt), p)
}

// ReplaceJSON is WriteJSON without the wait for the disk (store.ReplaceFile):
// for files a crash makes worthless or that are written again.
func ReplaceJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return store.ReplaceFile(path, data, 0o600)
}

func (b Inbox) PutStop(s *planner.StopRequest) error { return WriteJSON(b.StopFile(), s) }

func (b Inbox) Result(attempt string) (*planner.Posted, error) {
	var r planner.Posted
	ok, err := ReadJSON(b.ResultFile(attempt), &r)
	if !ok || err != nil {
		return nil, err
	}
	r.File = b.ResultFile(attempt)
	return &r, nil
}

func (b Inbox) Progress(attempt string) (*planner.Progress, error) {
	var p planner.Progress
	ok, err := ReadJSON(b.ProgressFile(attempt), &p)
	if !ok || err != nil {
		return nil, err
	}
	return &p, nil
}

func (b Inbox) Stop() (*planner.StopRequest, error) {
	var s planner.StopRequest
	ok, err := ReadJSON(b.StopFile(), &s)
	if !ok || err != nil {
		return nil, err
	}
	return &s, nil
}

func (b Inbox) ClearStop() error {
	if err := os.Remove(b.StopFile()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func WriteJSON(path string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, 0o600)
}

// readJSON reports false (and no error) when the file does not exist.
func ReadJSON(path string, v any) (bool, error) {
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
