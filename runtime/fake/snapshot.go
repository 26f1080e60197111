package fake

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// SetSnapshotSize sets the SizeBytes every later snapshot reports.
func (r *Runtime) SetSnapshotSize(n int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.snapSize = n
}

// FailNextSnapshot makes the next Snapshot return err and keep nothing.
func (r *Runtime) FailNextSnapshot(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failSnap = err
}

// Snapshot is part of the runtime.Runtime interface: the snapshot becomes
// an image later containers can start from.
func (r *Runtime) Snapshot(_ context.Context, spec runtime.SnapshotSpec) (runtime.Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, err := r.findLocked(spec.Container); err != nil {
		return runtime.Snapshot{}, fmt.Errorf("snapshot: %w", err)
	}
	if err := r.failSnap; err != nil {
		r.failSnap = nil
		return runtime.Snapshot{}, err
	}
	if spec.Ref == "" {
		return runtime.Snapshot{}, fmt.Errorf("snapshot container %s: no name given", spec.Container)
	}
	if r.snapshots == nil {
		r.snapshots = map[string]runtime.Snapshot{}
	}
	r.nextID++
	s := runtime.Snapshot{Ref: spec.Ref, ID: fmt.Sprintf("sha256:fake%04d", r.nextID), Labels: maps.Clone(spec.Labels),
		SizeBytes: r.snapSize, CreatedAt: time.Now()}
	r.snapshots[spec.Ref] = s
	r.images[spec.Ref] = true
	return s, nil
}

// ListSnapshots is part of the runtime.Runtime interface, oldest first.
func (r *Runtime) ListSnapshots(_ context.Context, selector map[string]string) ([]runtime.Snapshot, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return nil, err
	}
	var out []runtime.Snapshot
	for _, ref := range slices.Sorted(maps.Keys(r.snapshots)) {
		if s := r.snapshots[ref]; matches(s.Labels, selector) {
			s.Labels = maps.Clone(s.Labels)
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b runtime.Snapshot) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out, nil
}

// RemoveSnapshot is part of the runtime.Runtime interface.
func (r *Runtime) RemoveSnapshot(_ context.Context, ref string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return err
	}
	if _, ok := r.snapshots[ref]; !ok {
		return nil
	}
	for _, e := range r.containers {
		if e.spec.Image == ref {
			return fmt.Errorf("remove snapshot %s: %w: container %s uses it", ref, runtime.ErrInUse, e.c.Name)
		}
	}
	delete(r.snapshots, ref)
	delete(r.images, ref)
	return nil
}
