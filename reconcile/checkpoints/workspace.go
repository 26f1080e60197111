package checkpoints

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// Held is one checkpoint snapshot of a workspace as the engine holds it,
// with what the run that took it knows of it.
type Held struct {
	Ref string
	// Run names the run that took it; StateFile is that run's state file.
	Run       string
	StateFile string
	SizeBytes int64
	// LastUsed is when an attempt last started from it (its run's status),
	// else when it was taken.
	LastUsed time.Time
	// Recorded: its run's status lists it (it can still be resumed from).
	Recorded bool
	// Gone: its run's state file no longer exists (the run was forgotten).
	Gone bool
	// Active: its run is not finished, so a checkpoint it took may not be
	// recorded yet (an attempt records its checkpoints with its result).
	Active bool
}

// Own is the run whose reconcile asks: its state file and its status, not
// yet saved, which stands in for what is on disk.
type Own struct {
	StateFile string
	Status    *status.Status
}

// Workspace lists the checkpoint snapshots this origin took for the runs of
// a workspace: those whose state file is one of stateFiles (its runs'), or
// lies in the workspace's folder dir (a run since forgotten), with what each
// run's status says of them.
func Workspace(ctx context.Context, rt runtime.Runtime, o Origin, dir string, stateFiles []string, own Own) ([]Held, error) {
	if o.Host == "" {
		return nil, nil
	}
	list, err := rt.ListSnapshots(ctx, o.selector())
	if err != nil {
		return nil, fmt.Errorf("list the workspace's snapshots: %w", err)
	}
	type known struct {
		st           *status.Status
		active, gone bool
	}
	runs := map[string]known{}
	load := func(f string) known {
		if k, ok := runs[f]; ok {
			return k
		}
		if f == own.StateFile && own.Status != nil {
			runs[f] = known{st: own.Status, active: true}
			return runs[f]
		}
		k := known{}
		switch run, err := store.Load(f); {
		case errors.Is(err, store.ErrNotFound):
			k.gone = true
		case err != nil:
			// Unreadable: nothing says it is finished.
			k.active = true
		default:
			k = known{st: &run.Status, active: !run.Status.Phase.Terminal()}
		}
		runs[f] = k
		return k
	}
	var out []Held
	for _, s := range list {
		f := s.Labels[runtime.LabelStateFile]
		if _, ok := orphanLabels(s, o); !ok || !slices.Contains(stateFiles, f) && !inside(dir, f) {
			continue
		}
		k := load(f)
		h := Held{Ref: s.Ref, Run: s.Labels[runtime.LabelRun], StateFile: f, SizeBytes: s.SizeBytes, LastUsed: s.CreatedAt, Active: k.active, Gone: k.gone}
		if k.st != nil {
			for _, c := range append(slices.Clone(k.st.CheckpointCache), k.st.Checkpoints...) {
				if c.Ref == s.Ref {
					h.Recorded, h.LastUsed = true, lastUsed(c)
				}
			}
		}
		out = append(out, h)
	}
	return out, nil
}

// inside says whether path lies in the folder dir.
func inside(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return dir != "" && err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Remove removes the snapshots held; one a container still uses stays. It
// returns those removed; err joins what failed.
func Remove(ctx context.Context, rt runtime.Runtime, held []Held) (removed []Held, err error) {
	var errs []error
	for _, h := range held {
		switch err := rt.RemoveSnapshot(ctx, h.Ref); {
		case errors.Is(err, runtime.ErrInUse):
		case err != nil:
			errs = append(errs, err)
		default:
			removed = append(removed, h)
		}
	}
	return removed, errors.Join(errs...)
}

// OverBudget picks the snapshots to remove so that the workspace's fit
// budget: the least recently used first, never one of keep.
func OverBudget(held []Held, budget int64, keep map[string]bool) []Held {
	var total int64
	for _, h := range held {
		total += h.SizeBytes
	}
	order := slices.Clone(held)
	slices.SortStableFunc(order, func(a, b Held) int { return a.LastUsed.Compare(b.LastUsed) })
	var out []Held
	for _, h := range order {
		if total <= budget {
			break
		}
		if keep[h.Ref] {
			continue
		}
		out = append(out, h)
		total -= h.SizeBytes
	}
	return out
}

// Unneeded picks the snapshots no run can start from: not recorded by a
// finished run (or by a run whose state is gone). An active run's are kept:
// it records its checkpoints only with its attempt's result.
func Unneeded(held []Held) []Held {
	var out []Held
	for _, h := range held {
		if !h.Recorded && !h.Active {
			out = append(out, h)
		}
	}
	return out
}

// FitWorkspace removes the least recently used checkpoints of the runs of
// the workspace (the folder holding .smile) until they fit budget, never
// one of keep, whichever run took them; own stands for the run that asks.
// It returns those removed: a run whose checkpoint went starts from
// another, or the top (the reconciler forgets a checkpoint it cannot start
// from).
func FitWorkspace(ctx context.Context, rt runtime.Runtime, workspace string, own Own, budget int64, keep map[string]bool) ([]Held, error) {
	recs, err := store.Registry{Dir: workspace}.List()
	if err != nil {
		return nil, err
	}
	files := []string{own.StateFile}
	for _, rec := range recs {
		files = append(files, rec.StateFile)
	}
	held, err := Workspace(ctx, rt, Here(), workspace, files, own)
	if err != nil {
		return nil, err
	}
	return Remove(ctx, rt, OverBudget(held, budget, keep))
}
