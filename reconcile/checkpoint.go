package reconcile

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// checkpointTarget names and labels the snapshots one attempt takes.
type checkpointTarget struct {
	lay       layout
	gen       int64
	iteration int
	image     string
	instance  string
	// clean: the attempt replays from a clean start (checkpoints.Clean).
	clean bool
}

func (c checkpointTarget) ref(line int) string {
	return fmt.Sprintf("%s:%s-%s-g%d-i%d-l%d", checkpoints.Repository, c.lay.name, c.lay.key, c.gen, c.iteration, line)
}

func (c checkpointTarget) labels(key string) map[string]string {
	l := c.lay.selector()
	maps.Copy(l, checkpoints.Here().Labels(c.lay.stateFile))
	l[runtime.LabelKind] = runtime.KindSnapshot
	l[runtime.LabelImage] = c.image
	l[runtime.LabelKey] = key
	l[runtime.LabelIteration] = strconv.Itoa(c.iteration)
	l[runtime.LabelInstance] = c.instance
	return l
}

// checkpointFunc takes the checkpoints of an in-process Student. Only a
// complete snapshot is kept, and only kept ones reach the status (with the
// attempt's result).
func (r *Reconciler) checkpointFunc(container string, tgt checkpointTarget, kept *checkpoints.Kept) func(context.Context, int, string, status.ShellState, *status.Learned) error {
	return func(ctx context.Context, line int, steps string, shell status.ShellState, learned *status.Learned) error {
		start := time.Now()
		key := checkpoints.Key(tgt.image, steps)
		snap, err := checkpoints.Keep(ctx, r.Runtime, container, tgt.ref(line), tgt.labels(key))
		if err != nil {
			return err
		}
		kept.Add(status.Checkpoint{Ref: tgt.ref(line), Iteration: tgt.iteration, Line: line, Image: tgt.image, Key: key, Clean: tgt.clean,
			Shell: shell, Learned: learned, SizeBytes: snap.SizeBytes, CreatedAt: snap.CreatedAt.UTC(), CostMs: time.Since(start).Milliseconds()})
		logr.FromContextOrDiscard(ctx).Info("Kept a checkpoint", "line", line, "snapshot", tgt.ref(line), "bytes", snap.SizeBytes)
		return nil
	}
}

// acceptedCheckpoints are the result's checkpoints this controller took
// for the attempt: an in-process learner's, named as this attempt names
// them. A result posted from a container cannot choose what a later
// iteration starts from.
func acceptedCheckpoints(in []status.Checkpoint, tgt checkpointTarget, inProcess bool) []status.Checkpoint {
	if !inProcess {
		return nil
	}
	var out []status.Checkpoint
	for _, c := range in {
		if c.Line > 0 && c.Ref == tgt.ref(c.Line) && c.Image == tgt.image && c.Iteration == tgt.iteration {
			out = append(out, c)
		}
	}
	return out
}

// removeSnapshots removes the run's snapshots but those keep holds. One a
// kept container still uses stays (it goes with that container's run).
func removeSnapshots(ctx context.Context, rt runtime.Runtime, lay layout, keep func(runtime.Snapshot) bool) error {
	list, err := rt.ListSnapshots(ctx, lay.selector())
	if err != nil {
		return fmt.Errorf("list snapshots of %s: %w", lay.name, err)
	}
	for _, s := range list {
		if keep != nil && keep(s) {
			continue
		}
		if err := rt.RemoveSnapshot(ctx, s.Ref); err != nil && !errors.Is(err, runtime.ErrInUse) {
			return err
		}
	}
	return nil
}

// removeOrphanSnapshots removes the snapshots another controller took for
// the run and never recorded (it died while taking them, or before the
// attempt's result).
func removeOrphanSnapshots(ctx context.Context, rt runtime.Runtime, lay layout, instance string) error {
	recorded := map[string]bool{}
	if run, err := store.Load(lay.stateFile); err == nil && run.Metadata.Name == lay.name {
		for _, c := range append(run.Status.Checkpoints, run.Status.CheckpointCache...) {
			recorded[c.Ref] = true
		}
	}
	return removeSnapshots(ctx, rt, lay, func(s runtime.Snapshot) bool {
		return s.Labels[runtime.LabelInstance] == instance || recorded[s.Ref]
	})
}

// checkpointTargetOf names the snapshots of the run's current attempt.
func (t *transition) checkpointTarget() checkpointTarget {
	st := &t.run.Status
	return checkpointTarget{lay: t.lay, gen: t.run.Metadata.Generation, iteration: st.Iteration,
		image: t.d.Config.ContainerImage, instance: t.r.Instance,
		clean: checkpoints.Verifying(st) || st.Attempt != nil && st.Attempt.ResumedFrom != nil && st.Attempt.ResumedFrom.Clean}
}

// recordResume notes where the attempt started, keeps the checkpoints it
// took (complete ones only: they came back with its result), and records
// the verdict of a verification replay.
func (t *transition) recordResume(ctx context.Context, rec *status.IterationRecord, res *planner.Posted) {
	st := &t.run.Status
	if st.Attempt != nil {
		rec.ResumedFrom = st.Attempt.ResumedFrom
	}
	if res != nil && res.Student != nil {
		st.Checkpoints = append(st.Checkpoints, acceptedCheckpoints(res.Student.Checkpoints, t.checkpointTarget(), t.r.inProcess(t.d.Config.LLMProvider))...)
		t.fitCheckpointDisk(ctx)
	}
	if v := st.Verification; checkpoints.Verifying(st) {
		out := rec.StudentOutput
		v.Done, v.Verified = true, out.Status == status.StudentCompleted
		if !v.Verified {
			v.Line, v.Step = out.Line, out.CurrentStep
		}
		t.event(st.Iteration, "Verified", v.Sentence())
	} else if r := rec.ResumedFrom; r != nil && r.Clean && rec.StudentOutput.Status == status.StudentCompleted {
		// It went on from a clean replay's checkpoint: itself a clean replay
		// (no replay of its own: Iteration 0).
		st.Verification = &status.Verification{Fixes: checkpoints.Fixes(st.MentorNotes), Done: true, Verified: true}
		t.event(st.Iteration, "Verified", st.Verification.Sentence())
	}
}

// fitCheckpointDisk keeps the workspace's checkpoints within checkpointDisk:
// the run's own least recently used go first, then, while the workspace's
// still hold more, the least recently used of any of its runs (a run whose
// checkpoint went starts from another, or the top: forgetCheckpoint). The
// run's newest checkpoint always stays.
func (t *transition) fitCheckpointDisk(ctx context.Context) {
	st := &t.run.Status
	budget, err := t.d.Config.CheckpointDisk.Bytes()
	if err != nil {
		return // validated at load
	}
	for _, ref := range checkpoints.Evict(st, budget) {
		if err := t.r.Runtime.RemoveSnapshot(ctx, ref); err != nil {
			t.event(st.Iteration, "SnapshotNotRemoved", err.Error())
			continue
		}
		t.event(st.Iteration, "CheckpointEvicted", fmt.Sprintf("%s: the run's checkpoints held more than checkpointDisk %s", ref, t.d.Config.CheckpointDisk))
	}
	if t.d.Workspace == "" || len(st.Checkpoints) == 0 {
		return
	}
	newest := slices.MaxFunc(st.Checkpoints, func(a, b status.Checkpoint) int { return a.CreatedAt.Compare(b.CreatedAt) })
	removed, err := checkpoints.FitWorkspace(ctx, t.r.Runtime, t.d.Workspace, checkpoints.Own{StateFile: t.lay.stateFile, Status: st}, budget, map[string]bool{newest.Ref: true})
	if err != nil {
		t.event(st.Iteration, "SnapshotNotRemoved", err.Error())
	}
	for _, h := range removed {
		drop := func(c status.Checkpoint) bool { return c.Ref == h.Ref }
		st.Checkpoints = slices.DeleteFunc(st.Checkpoints, drop)
		st.CheckpointCache = slices.DeleteFunc(st.CheckpointCache, drop)
		t.event(st.Iteration, "CheckpointEvicted", fmt.Sprintf("%s (%.1f MB): the workspace's checkpoints held more than checkpointDisk %s", h.Ref, float64(h.SizeBytes)/1e6, t.d.Config.CheckpointDisk))
	}
}

// forgetCheckpoint drops a checkpoint an attempt could not start from (its
// snapshot removed behind SMILE's back, its copy of the work folder
// unreadable): the next plan starts from another one, or the top.
func (t *transition) forgetCheckpoint(ctx context.Context, ref string, cause error) (Result, error) {
	st := &t.run.Status
	drop := func(c status.Checkpoint) bool { return c.Ref == ref }
	st.Checkpoints = slices.DeleteFunc(st.Checkpoints, drop)
	st.CheckpointCache = slices.DeleteFunc(st.CheckpointCache, drop)
	_ = t.r.Runtime.Remove(ctx, t.lay.container(t.run.Metadata.Generation, st.Iteration, status.RoleStudent))
	t.event(st.Iteration, "CheckpointDropped", fmt.Sprintf("%s: %v", ref, cause))
	logr.FromContextOrDiscard(ctx).Info("Dropped a checkpoint", "snapshot", ref, "error", cause.Error())
	return t.save("CheckpointDropped")
}
