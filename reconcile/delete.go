package reconcile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/runtime"
)

// DeleteRun forgets a run: its containers, its state file and working
// folders, and its record in the workspace's registry. The caller must hold the
// run's state-file lock (or know that nobody does).
func DeleteRun(ctx context.Context, rt runtime.Runtime, rec store.Record) error {
	lay := newLayout(rec.Name, rec.StateFile)
	cs, err := rt.List(ctx, lay.selector())
	if err != nil {
		return fmt.Errorf("list containers of %s: %w", rec.Name, err)
	}
	for _, c := range cs {
		if err := rt.Remove(ctx, c.Name); err != nil {
			return fmt.Errorf("remove container %s: %w", c.Name, err)
		}
	}
	if err := removeSnapshots(ctx, rt, lay, nil); err != nil {
		return err
	}
	// Another run may have reused the state file since: only remove ours.
	if run, err := store.Load(rec.StateFile); err == nil && run.Metadata.Name == rec.Name {
		if err := os.Remove(rec.StateFile); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := store.RemoveOwned(lay.root); err != nil {
		return err
	}
	// Runs are recorded in the workspace of their manifest.
	return store.Registry{Dir: spec.ProjectRoot(filepath.Dir(rec.Manifest))}.Delete(rec.Name)
}

// Delete stops and forgets an applied run.
func (m *Manager) Delete(ctx context.Context, name string) error {
	m.changing.Lock()
	defer m.changing.Unlock()
	m.mu.Lock()
	e, ok := m.runs[name]
	if ok {
		delete(m.runs, name)
	}
	m.mu.Unlock()
	if !ok {
		return status.UnknownRun(name)
	}
	defer e.lock.Release()
	defer m.rec.forget(name)
	defer m.rec.Slots.Release(name)
	defer m.refreshWatches()
	rec := store.Record{Name: name, Manifest: e.applied.Path, StateFile: e.stateFile}
	return DeleteRun(ctx, m.opts.Runtime, rec)
}
