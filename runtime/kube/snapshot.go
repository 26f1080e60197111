package kube

import (
	"context"

	"github.com/smile-loop/smile/runtime"
)

// Snapshot is part of the runtime.Runtime interface. Pods have no commit:
// runtime.ErrUnsupported, and a run starts every attempt from the top.
func (r *Runtime) Snapshot(ctx context.Context, spec runtime.SnapshotSpec) (runtime.Snapshot, error) {
	return runtime.Snapshot{}, errUnsupported("snapshot of " + spec.Container)
}

// ListSnapshots is part of the runtime.Runtime interface: there are none.
func (r *Runtime) ListSnapshots(ctx context.Context, selector map[string]string) ([]runtime.Snapshot, error) {
	return nil, nil
}

// RemoveSnapshot is part of the runtime.Runtime interface: there is none to
// remove, which is no error.
func (r *Runtime) RemoveSnapshot(ctx context.Context, ref string) error { return nil }
