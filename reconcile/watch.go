package reconcile

import (
	"context"
	"path/filepath"
	"sort"
	"time"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/fsnotify/fsnotify"

	"github.com/smile-loop/smile/spec"
)

// Debounce is how long a run's input files must have been quiet (no event)
// before the watcher reconciles it: editors write a file in several steps
// (truncate, write, rename a temporary file over it) and only the end state
// counts. Every event starts the wait again.
const Debounce = 100 * time.Millisecond

// watchInputs enqueues a run when one of its input files changes. It watches
// the folders holding the files, not the files, so an editor replacing a file
// by renaming a temporary one over it is seen too.
func (m *Manager) watchInputs(ctx context.Context) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		m.log.Error(err, "File watch unavailable: edits will not start new runs")
		return
	}
	defer w.Close()
	iw := &inputWatch{w: w, watched: map[string]bool{}}
	iw.refresh(m)
	for {
		select {
		case <-ctx.Done():
			return
		case <-m.watchRefresh:
			iw.refresh(m)
		case err, ok := <-w.Errors:
			if !ok {
				return
			}
			m.log.Info("File watch error", "error", err.Error())
		case ev, ok := <-w.Events:
			if !ok {
				return
			}
			path := filepath.Clean(ev.Name)
			names := iw.index[path]
			if len(names) == 0 {
				continue
			}
			m.inputChanged(ctx, path, ev.Op.String(), names)
			// The tutorial may now reference other images.
			iw.refresh(m)
		}
	}
}

// inputWatch is what the watcher watches: the folders, and which runs read
// each file.
type inputWatch struct {
	w       *fsnotify.Watcher
	watched map[string]bool
	index   map[string][]string // file -> runs
}

// refresh recomputes the index from the applied runs and watches exactly the
// folders holding their input files.
func (iw *inputWatch) refresh(m *Manager) {
	iw.index = map[string][]string{}
	dirs := map[string]bool{}
	for _, name := range m.Names() {
		app, ok := m.Applied(name)
		if !ok {
			continue
		}
		for _, f := range spec.InputFiles(app.Manifest, app.Path) {
			f = filepath.Clean(f)
			iw.index[f] = append(iw.index[f], name)
			dirs[filepath.Dir(f)] = true
		}
	}
	for d := range dirs {
		if !iw.watched[d] {
			if err := iw.w.Add(d); err == nil {
				iw.watched[d] = true
			}
		}
	}
	for d := range iw.watched {
		if !dirs[d] {
			_ = iw.w.Remove(d)
			delete(iw.watched, d)
		}
	}
}

// inputChanged enqueues the runs reading path once their files have been
// quiet for Debounce.
func (m *Manager) inputChanged(ctx context.Context, path, op string, names []string) {
	sort.Strings(names)
	for _, name := range names {
		m.log.V(1).Info("Input changed", "run", name, "file", path, "op", op)
		// An editor's save is several events (truncate, write, rename):
		// read the manifest once its writes have settled, never mid-save,
		// where a half-written file would end the run as invalid.
		app, ok := m.Applied(name)
		m.quiet.After(name, ok && app.Path == path, Debounce, func(manifest bool) {
			if ctx.Err() == nil {
				if manifest {
					m.reloadManifest(name)
				}
				m.queue.Add(name)
			}
		})
	}
}

// refreshWatches asks the watcher to recompute what it watches.
func (m *Manager) refreshWatches() {
	select {
	case m.watchRefresh <- struct{}{}:
	default: // a refresh is already pending
	}
}

// reloadManifest re-reads an applied manifest after it changed on disk. A
// manifest that no longer parses keeps the run's last good one and records
// the error, which the reconciler reports (InvalidSpec).
func (m *Manager) reloadManifest(name string) {
	m.mu.Lock()
	e, ok := m.runs[name]
	var app Applied
	if ok {
		app = *e.applied
	}
	m.mu.Unlock()
	if !ok {
		return
	}
	manifest, err := runfile.LoadNamed(app.Path, name) // read without the lock: handlers wait on it
	switch {
	case err != nil:
		app.Err = err
	case manifest.Metadata.Name != name:
		app.Err = errRenamed(name, manifest.Metadata.Name)
	default:
		app.Manifest, app.Err = manifest, nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.runs[name] == e && e.applied.Path == app.Path { // not deleted or re-applied meanwhile
		e.applied = &app
	}
}
