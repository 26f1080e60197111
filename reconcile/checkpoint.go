package reconcile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"
)

// SnapshotRepository names every checkpoint's snapshot: its tag says whose.
const SnapshotRepository = "smile-checkpoint"

// workCopy is where a checkpoint keeps the work folder inside the
// container's own filesystem: a snapshot does not keep mounts, so the
// folder is copied in before it is taken and back out when a container
// starts from it.
const workCopy = "/var/tmp/smile-checkpoint"

// copyTimeout bounds copying the work folder in or out of a container.
const copyTimeout = 5 * time.Minute

// resumePoint is the checkpoint the run's next Student attempt starts from,
// or nil for the top: the deepest one, of this generation or kept from an
// earlier one, taken for this image after exactly the steps the attempt
// would follow to reach it (the tutorial above its line and the Mentor's
// notes about those lines: its key). A note about a line above it, or an
// edit above it, changes the key. The verification replay always starts
// from the top.
func resumePoint(d *spec.Desired, st *status.Status) *status.Checkpoint {
	cfg := d.Config
	if cfg.ResumeMode() != spec.ResumeCheckpoint || verifying(st) || d.Tutorial == nil {
		return nil
	}
	var best *status.Checkpoint
	for _, list := range [][]status.Checkpoint{st.Checkpoints, st.CheckpointCache} {
		for i := range list {
			c := &list[i]
			if c.Image != cfg.ContainerImage || c.Key != cacheKey(cfg.ContainerImage, status.StepsKey(d.Tutorial.Content, c.Line, st.MentorNotes)) {
				continue
			}
			if best == nil || c.Line > best.Line || c.Line == best.Line && c.CreatedAt.After(best.CreatedAt) {
				best = c
			}
		}
	}
	if best == nil {
		return nil
	}
	cp := *best
	return &cp
}

// cacheKey mixes the image into the key of the steps.
func cacheKey(image, steps string) string {
	sum := sha256.Sum256([]byte(image + "\x00" + steps))
	return hex.EncodeToString(sum[:16])
}

// verifying: the current iteration is the clean replay with every fix.
func verifying(st *status.Status) bool {
	return st.Verification != nil && st.Verification.Iteration == st.Iteration
}

// fixes counts the workarounds a replay applies.
func fixes(notes []status.MentorNote) int {
	n := 0
	for _, m := range notes {
		if m.Resolution == status.ResolutionWorkaround && m.Workaround != "" && m.Line > 0 {
			n++
		}
	}
	return n
}

// checkpointTarget names and labels the snapshots one attempt takes.
type checkpointTarget struct {
	lay       layout
	gen       int64
	iteration int
	image     string
	instance  string
}

func (c checkpointTarget) ref(line int) string {
	return fmt.Sprintf("%s:%s-%s-g%d-i%d-l%d", SnapshotRepository, c.lay.name, c.lay.key, c.gen, c.iteration, line)
}

func (c checkpointTarget) labels(key string) map[string]string {
	l := c.lay.selector()
	l[runtime.LabelKind] = runtime.KindSnapshot
	l[runtime.LabelImage] = c.image
	l[runtime.LabelKey] = key
	l[runtime.LabelIteration] = strconv.Itoa(c.iteration)
	l[runtime.LabelInstance] = c.instance
	return l
}

// keptCheckpoints gathers the complete checkpoints of one attempt.
type keptCheckpoints struct {
	mu   sync.Mutex
	list []status.Checkpoint
}

func (k *keptCheckpoints) add(c status.Checkpoint) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.list = append(k.list, c)
}

func (k *keptCheckpoints) all() []status.Checkpoint {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.list)
}

// checkpointFunc takes the checkpoints of an in-process Student. Only a
// complete snapshot is kept, and only kept ones reach the status (with the
// attempt's result).
func (r *Reconciler) checkpointFunc(container string, tgt checkpointTarget, kept *keptCheckpoints) func(context.Context, int, string, status.ShellState) error {
	return func(ctx context.Context, line int, steps string, shell status.ShellState) error {
		start := time.Now()
		key := cacheKey(tgt.image, steps)
		snap, err := KeepCheckpoint(ctx, r.Runtime, container, tgt.ref(line), tgt.labels(key))
		if err != nil {
			return err
		}
		kept.add(status.Checkpoint{Ref: tgt.ref(line), Iteration: tgt.iteration, Line: line, Image: tgt.image, Key: key,
			Shell: shell, SizeBytes: snap.SizeBytes, CreatedAt: snap.CreatedAt.UTC(), CostMs: time.Since(start).Milliseconds()})
		logr.FromContextOrDiscard(ctx).Info("Kept a checkpoint", "line", line, "snapshot", tgt.ref(line), "bytes", snap.SizeBytes)
		return nil
	}
}

// KeepCheckpoint snapshots a learner's container with its work folder: the
// folder is copied into the container's own filesystem (a snapshot keeps no
// mounts), the container is snapshotted, the copy removed again. It returns
// once the snapshot is complete.
func KeepCheckpoint(ctx context.Context, rt runtime.Runtime, container, ref string, labels map[string]string) (runtime.Snapshot, error) {
	copyIn := "rm -rf " + workCopy + " && mkdir -p " + workCopy + " && cp -a " + wire.ContainerWorkDir + " " + workCopy + "/work"
	if err := shellIn(ctx, rt, container, copyIn); err != nil {
		return runtime.Snapshot{}, fmt.Errorf("copy the work folder for a checkpoint: %w", err)
	}
	snap, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: container, Ref: ref, Labels: labels})
	// The copy is in the snapshot now; the attempt does not need it.
	_ = shellIn(context.WithoutCancel(ctx), rt, container, "rm -rf "+workCopy)
	return snap, err
}

// restoreWork puts a checkpoint's copy of the work folder into the work
// folder of a container started from it.
func (r *Reconciler) restoreWork(ctx context.Context, container string) error {
	cmd := "cp -a " + workCopy + "/work/. " + wire.ContainerWorkDir + "/ && rm -rf " + workCopy
	if err := shellIn(ctx, r.Runtime, container, cmd); err != nil {
		return fmt.Errorf("restore the work folder of a checkpoint in %s: %w", container, err)
	}
	return nil
}

func shellIn(ctx context.Context, rt runtime.Runtime, container, cmd string) error {
	res, err := rt.ExecIO(ctx, container, runtime.ExecRequest{Cmd: []string{"/bin/sh", "-c", cmd}, Timeout: copyTimeout})
	if err != nil {
		return err
	}
	if res.ExitCode != 0 {
		return fmt.Errorf("exit %d: %s", res.ExitCode, firstLine(string(res.Stderr)))
	}
	return nil
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

// resumedFrom records where a Student attempt started.
func resumedFrom(c *status.Checkpoint, role status.Role) *status.Resumed {
	if c == nil || role != status.RoleStudent {
		return nil
	}
	return &status.Resumed{Ref: c.Ref, Line: c.Line, From: c.Iteration}
}

// checkpointTargetOf names the snapshots of the run's current attempt.
func (t *transition) checkpointTarget() checkpointTarget {
	return checkpointTarget{lay: t.lay, gen: t.run.Metadata.Generation, iteration: t.run.Status.Iteration,
		image: t.d.Config.ContainerImage, instance: t.r.Instance}
}

// recordResume notes where the attempt started, keeps the checkpoints it
// took (complete ones only: they came back with its result), and records
// the verdict of a verification replay.
func (t *transition) recordResume(ctx context.Context, rec *status.IterationRecord, res *Posted) {
	st := &t.run.Status
	if st.Attempt != nil {
		rec.ResumedFrom = st.Attempt.ResumedFrom
	}
	if res != nil && res.Student != nil {
		st.Checkpoints = append(st.Checkpoints, acceptedCheckpoints(res.Student.Checkpoints, t.checkpointTarget(), t.r.inProcess(t.d.Config.LLMProvider))...)
		for _, ref := range evict(st, SnapshotBudget) {
			if err := t.r.Runtime.RemoveSnapshot(ctx, ref); err != nil {
				t.event(st.Iteration, "SnapshotNotRemoved", err.Error())
			}
		}
	}
	if v := st.Verification; verifying(st) {
		out := rec.StudentOutput
		v.Done, v.Verified = true, out.Status == status.StudentCompleted
		if !v.Verified {
			v.Line, v.Step = out.Line, out.CurrentStep
		}
		t.event(st.Iteration, "Verified", v.Sentence())
	}
}

// SnapshotBudget is the most disk one run's checkpoints may hold; past it,
// the least recently used go first.
const SnapshotBudget int64 = 2 << 30

// carriedCache is what a new generation keeps of the earlier ones'
// checkpoints: those of its image, when it resumes from checkpoints.
func carriedCache(old status.Status, cfg spec.Config) []status.Checkpoint {
	if cfg.ResumeMode() != spec.ResumeCheckpoint {
		return nil
	}
	var out []status.Checkpoint
	for _, c := range append(slices.Clone(old.CheckpointCache), old.Checkpoints...) {
		if c.Image == cfg.ContainerImage && !slices.ContainsFunc(out, func(o status.Checkpoint) bool { return o.Ref == c.Ref }) {
			out = append(out, c)
		}
	}
	return out
}

// evict drops the least recently used checkpoints until the run's fit the
// budget, and returns the snapshots to remove. The newest is always kept.
func evict(st *status.Status, budget int64) []string {
	var removed []string
	for {
		var total int64
		all := append(slices.Clone(st.CheckpointCache), st.Checkpoints...)
		for _, c := range all {
			total += c.SizeBytes
		}
		if total <= budget || len(all) <= 1 {
			return removed
		}
		oldest := slices.MinFunc(all, func(a, b status.Checkpoint) int { return lastUsed(a).Compare(lastUsed(b)) })
		drop := func(c status.Checkpoint) bool { return c.Ref == oldest.Ref }
		st.Checkpoints = slices.DeleteFunc(st.Checkpoints, drop)
		st.CheckpointCache = slices.DeleteFunc(st.CheckpointCache, drop)
		removed = append(removed, oldest.Ref)
	}
}

func lastUsed(c status.Checkpoint) time.Time {
	if c.LastUsedAt != nil {
		return *c.LastUsedAt
	}
	return c.CreatedAt
}

// touch records that an attempt starts from the checkpoint now.
func touch(st *status.Status, ref string, now time.Time) {
	for _, list := range [][]status.Checkpoint{st.Checkpoints, st.CheckpointCache} {
		for i := range list {
			if list[i].Ref == ref {
				at := now
				list[i].LastUsedAt = &at
			}
		}
	}
}

// CheckpointUse sums a run's kept checkpoints: how many, and their disk.
func CheckpointUse(st *status.Status) (n int, bytes int64) {
	for _, c := range append(slices.Clone(st.CheckpointCache), st.Checkpoints...) {
		n++
		bytes += c.SizeBytes
	}
	return n, bytes
}
