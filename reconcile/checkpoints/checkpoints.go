// Package checkpoints is the pure and runtime-only part of resuming from
// checkpoints: which checkpoint an attempt starts from (its key: the image
// and the exact steps that led to it), the cache kept across generations
// with its least-recently-used budget, and taking and restoring one through
// the runtime (the work folder copied into the container's own filesystem,
// which a snapshot keeps). The reconciler drives it (reconcile/checkpoint.go).
package checkpoints

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// Repository names every checkpoint's snapshot: its tag says whose.
const Repository = "smile-checkpoint"

// WorkCopy is where a checkpoint keeps the work folder inside the
// container's own filesystem: a snapshot does not keep mounts, so the
// folder is copied in before it is taken and back out when a container
// starts from it.
const WorkCopy = "/var/tmp/smile-checkpoint"

// copyTimeout bounds copying the work folder in or out of a container.
const copyTimeout = 5 * time.Minute

// Resume is the checkpoint the run's next Student attempt starts from,
// or nil for the top: the deepest one, of this generation or kept from an
// earlier one, taken for this image after exactly the steps the attempt
// would follow to reach it (the tutorial above its line and the Mentor's
// notes about those lines: its key), a clean replay's first. A note about a line above it, or an
// edit above it, changes the key. The verification replay starts from the
// top, or from a checkpoint an earlier clean replay took (the cache).
func Resume(d *spec.Desired, st *status.Status) *status.Checkpoint {
	cfg := d.Config
	if cfg.ResumeMode() != spec.ResumeCheckpoint || d.Tutorial == nil {
		return nil
	}
	verify := Verifying(st)
	var best *status.Checkpoint
	for _, list := range [][]status.Checkpoint{st.Checkpoints, st.CheckpointCache} {
		for i := range list {
			c := &list[i]
			if c.Image != cfg.ContainerImage || verify && !c.Clean ||
				c.Key != Key(cfg.ContainerImage, status.StepsKey(d.Tutorial.Content, c.Line, st.MentorNotes)) {
				continue
			}
			if better(c, best) {
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

// better: a clean replay's checkpoint before any other (a start from another
// is followed by a clean replay, which would start from that one anyway),
// then the deepest, then the newest.
func better(c, than *status.Checkpoint) bool {
	switch {
	case than == nil:
		return true
	case c.Clean != than.Clean:
		return c.Clean
	case c.Line != than.Line:
		return c.Line > than.Line
	}
	return c.CreatedAt.After(than.CreatedAt)
}

// Key mixes the image into the key of the steps.
func Key(image, steps string) string {
	sum := sha256.Sum256([]byte(image + "\x00" + steps))
	return hex.EncodeToString(sum[:16])
}

// Verifying: the current iteration is the clean replay with every fix.
func Verifying(st *status.Status) bool {
	return st.Verification != nil && st.Verification.Iteration == st.Iteration
}

// Fixes counts the workarounds a replay applies.
func Fixes(notes []status.MentorNote) int {
	n := 0
	for _, m := range notes {
		if m.Resolution == status.ResolutionWorkaround && m.Workaround != "" && m.Line > 0 {
			n++
		}
	}
	return n
}

// Keep snapshots a learner's container with its work folder: the
// folder is copied into the container's own filesystem (a snapshot keeps no
// mounts), the container is snapshotted, the copy removed again. It returns
// once the snapshot is complete.
func Keep(ctx context.Context, rt runtime.Runtime, container, ref string, labels map[string]string) (runtime.Snapshot, error) {
	copyIn := "rm -rf " + WorkCopy + " && mkdir -p " + WorkCopy + " && cp -a " + wire.ContainerWorkDir + " " + WorkCopy + "/work"
	if err := shellIn(ctx, rt, container, copyIn); err != nil {
		return runtime.Snapshot{}, fmt.Errorf("copy the work folder for a checkpoint: %w", err)
	}
	snap, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: container, Ref: ref, Labels: labels})
	// The copy is in the snapshot now; the attempt does not need it.
	_ = shellIn(context.WithoutCancel(ctx), rt, container, "rm -rf "+WorkCopy)
	return snap, err
}

// Restore puts a checkpoint's copy of the work folder into the work
// folder of a container started from it.
func Restore(ctx context.Context, rt runtime.Runtime, container string) error {
	cmd := "cp -a " + WorkCopy + "/work/. " + wire.ContainerWorkDir + "/ && rm -rf " + WorkCopy
	if err := shellIn(ctx, rt, container, cmd); err != nil {
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
		return fmt.Errorf("exit %d: %s", res.ExitCode, strings.TrimSpace(strings.SplitN(string(res.Stderr), "\n", 2)[0]))
	}
	return nil
}

// Carried is what a new generation keeps of the earlier ones'
// checkpoints: those of its image, when it resumes from checkpoints.
func Carried(old status.Status, cfg spec.Config) []status.Checkpoint {
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

// Evict drops the least recently used checkpoints until the run's fit the
// budget, and returns the snapshots to remove. The newest is always kept.
func Evict(st *status.Status, budget int64) []string {
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

// Touch records that an attempt starts from the checkpoint now.
func Touch(st *status.Status, ref string, now time.Time) {
	for _, list := range [][]status.Checkpoint{st.Checkpoints, st.CheckpointCache} {
		for i := range list {
			if list[i].Ref == ref {
				at := now
				list[i].LastUsedAt = &at
			}
		}
	}
}

// Use sums a run's kept checkpoints: how many, and their disk.
func Use(st *status.Status) (n int, bytes int64) {
	for _, c := range append(slices.Clone(st.CheckpointCache), st.Checkpoints...) {
		n++
		bytes += c.SizeBytes
	}
	return n, bytes
}

// Carry is what a new generation keeps of the last one's results, when the
// start of the tutorial did not change: the Mentor's notes whose lines and
// everything above them read the same (in order, up to the first that does
// not), and the gaps the Student will not meet again: those the carried
// notes answer, and those above the checkpoint it will start from. Notes
// come with iteration 0, before any of the new generation's.
func Carry(old status.Status, d *spec.Desired, cache []status.Checkpoint) ([]status.MentorNote, []status.Gap) {
	if d.Config.ResumeMode() != spec.ResumeCheckpoint || d.Tutorial == nil || len(cache) == 0 {
		return nil, nil
	}
	var notes []status.MentorNote
	for _, n := range old.MentorNotes {
		if n.Line <= 0 || n.Key == "" || n.Key != status.StepsKey(d.Tutorial.Content, n.Line+1, notes) {
			break
		}
		n.Iteration = 0
		notes = append(notes, n)
	}
	if len(notes) == 0 {
		return nil, nil
	}
	from := 0
	if c := Resume(d, &status.Status{Iteration: 1, MentorNotes: notes, CheckpointCache: cache}); c != nil {
		from = c.Line
	}
	var gaps []status.Gap
	for _, g := range old.Gaps {
		answered := slices.ContainsFunc(notes, func(n status.MentorNote) bool {
			return n.Line == g.Location.LineNumber && (n.Category == "" || n.Category == g.Category)
		})
		if answered || g.Location.LineNumber < from {
			gaps = append(gaps, g)
		}
	}
	return notes, gaps
}

// Kept gathers the complete checkpoints of one attempt, as its learner takes
// them (from more than one goroutine).
type Kept struct {
	mu   sync.Mutex
	list []status.Checkpoint
}

func (k *Kept) Add(c status.Checkpoint) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.list = append(k.list, c)
}

func (k *Kept) All() []status.Checkpoint {
	k.mu.Lock()
	defer k.mu.Unlock()
	return slices.Clone(k.list)
}

// ResumedFrom records where a Student attempt started.
func ResumedFrom(c *status.Checkpoint, role status.Role) *status.Resumed {
	if c == nil || role != status.RoleStudent {
		return nil
	}
	return &status.Resumed{Ref: c.Ref, Line: c.Line, From: c.Iteration, Clean: c.Clean}
}
