package checkpoints

import (
	"context"
	"errors"
	"path/filepath"
	"slices"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status/store"
)

// Pruned is a checkpoint snapshot `smile prune` removed (or, dry, would
// remove), and why no run needs it.
type Pruned struct {
	Ref       string
	Run       string
	SizeBytes int64
	Why       string
}

// Prune removes the checkpoint snapshots no run can start from: those of
// the workspace's runs that their finished run does not record (an attempt
// cut short, an eviction its status never heard of), those of runs the
// workspace forgot, and this origin's of folders deleted without `smile
// delete`. A run that is not finished keeps all of its own (it records its
// checkpoints with its attempt's result), and a snapshot a container uses
// stays. Dry, it only says what it would remove.
func Prune(ctx context.Context, rt runtime.Runtime, workspace string, dry bool) ([]Pruned, error) {
	o := Here()
	recs, err := store.Registry{Dir: workspace}.List()
	if err != nil {
		return nil, err
	}
	var files []string
	for _, rec := range recs {
		files = append(files, rec.StateFile)
	}
	held, err := Workspace(ctx, rt, o, workspace, files, Own{})
	if err != nil {
		return nil, err
	}
	var out []Pruned
	pick := Unneeded(held)
	if !dry {
		removed, err := Remove(ctx, rt, pick)
		if err != nil {
			return nil, err
		}
		pick = removed
	}
	for _, h := range pick {
		why := "its run does not record it, so no attempt starts from it"
		if h.Gone {
			why = "its run is no longer in the workspace"
		}
		out = append(out, Pruned{Ref: h.Ref, Run: h.Run, SizeBytes: h.SizeBytes, Why: why})
	}
	orphans, err := Orphans(ctx, rt, o)
	if err != nil {
		return out, err
	}
	var errs []error
	for _, s := range orphans {
		if slices.ContainsFunc(out, func(p Pruned) bool { return p.Ref == s.Ref }) {
			continue // a forgotten run's, listed already (a dry run removed nothing)
		}
		if !dry {
			if err := rt.RemoveSnapshot(ctx, s.Ref); errors.Is(err, runtime.ErrInUse) {
				continue
			} else if err != nil {
				errs = append(errs, err)
				continue
			}
		}
		out = append(out, Pruned{Ref: s.Ref, Run: s.Labels[runtime.LabelRun], SizeBytes: s.SizeBytes,
			Why: "the folder of its run (" + filepath.Dir(s.Labels[runtime.LabelStateFile]) + ") was deleted"})
	}
	return out, errors.Join(errs...)
}
