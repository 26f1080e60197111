package docker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/image"

	"github.com/smile-loop/smile/runtime"
)

// Snapshot is part of the runtime.Runtime interface: a docker commit of
// the container, paused while it is written so the filesystem is one
// moment's. The engine writes the image whole or not at all.
func (r *Runtime) Snapshot(ctx context.Context, spec runtime.SnapshotSpec) (runtime.Snapshot, error) {
	if err := r.connect(ctx); err != nil {
		return runtime.Snapshot{}, err
	}
	if spec.Ref == "" {
		return runtime.Snapshot{}, fmt.Errorf("snapshot container %s: no name given", spec.Container)
	}
	resp, err := r.cli.ContainerCommit(ctx, spec.Container, container.CommitOptions{
		Reference: spec.Ref,
		Comment:   "SMILE checkpoint",
		Pause:     true,
		Config:    &container.Config{Labels: spec.Labels},
	})
	if cerrdefs.IsNotFound(err) {
		return runtime.Snapshot{}, fmt.Errorf("snapshot container %s: %w", spec.Container, runtime.ErrNotFound)
	}
	if err != nil {
		return runtime.Snapshot{}, r.fail("snapshot container "+spec.Container, err)
	}
	s, err := r.inspectSnapshot(ctx, resp.ID)
	if err != nil {
		return runtime.Snapshot{}, err
	}
	s.Ref = spec.Ref
	return s, nil
}

// inspectSnapshot reads one snapshot; its size is its own layer's.
func (r *Runtime) inspectSnapshot(ctx context.Context, id string) (runtime.Snapshot, error) {
	im, err := r.cli.ImageInspect(ctx, id)
	if cerrdefs.IsNotFound(err) {
		return runtime.Snapshot{}, fmt.Errorf("inspect snapshot %s: %w", id, runtime.ErrNotFound)
	}
	if err != nil {
		return runtime.Snapshot{}, r.fail("inspect snapshot "+id, err)
	}
	s := runtime.Snapshot{ID: im.ID, SizeBytes: im.Size}
	if len(im.RepoTags) > 0 {
		s.Ref = im.RepoTags[0]
	}
	if im.Config != nil {
		s.Labels = im.Config.Labels
	}
	if t, err := time.Parse(time.RFC3339Nano, im.Created); err == nil {
		s.CreatedAt = t
	}
	// The newest history entry is the layer the commit added.
	if hist, err := r.cli.ImageHistory(ctx, im.ID); err == nil && len(hist) > 0 {
		s.SizeBytes = hist[0].Size
	}
	return s, nil
}

// ListSnapshots is part of the runtime.Runtime interface. Only images that
// carry runtime.LabelKind=snapshot are snapshots, whatever the selector.
func (r *Runtime) ListSnapshots(ctx context.Context, selector map[string]string) ([]runtime.Snapshot, error) {
	if err := r.connect(ctx); err != nil {
		return nil, err
	}
	args := labelFilter(selector)
	args.Add("label", runtime.LabelKind+"="+runtime.KindSnapshot)
	list, err := r.cli.ImageList(ctx, image.ListOptions{Filters: args})
	if err != nil {
		return nil, r.fail("list snapshots", err)
	}
	out := make([]runtime.Snapshot, 0, len(list))
	for _, im := range list {
		s, err := r.inspectSnapshot(ctx, im.ID)
		if err != nil {
			if errors.Is(err, runtime.ErrNotFound) {
				continue // removed between the list and the inspect
			}
			return nil, err
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt.Before(out[j].CreatedAt) })
	return out, nil
}

// RemoveSnapshot is part of the runtime.Runtime interface. It removes the
// name only when the image has others, and never a layer a container uses.
func (r *Runtime) RemoveSnapshot(ctx context.Context, ref string) error {
	if err := r.connect(ctx); err != nil {
		return err
	}
	_, err := r.cli.ImageRemove(ctx, ref, image.RemoveOptions{PruneChildren: true})
	switch {
	case err == nil, cerrdefs.IsNotFound(err):
		return nil
	case cerrdefs.IsConflict(err):
		return fmt.Errorf("remove snapshot %s: %w: %v", ref, runtime.ErrInUse, err)
	}
	return r.fail("remove snapshot "+ref, err)
}
