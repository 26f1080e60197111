package checkpoints

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// heldRefs names what a list holds, sorted.
func heldRefs(hs []Held) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Ref)
	}
	slices.Sort(out)
	return out
}

// A workspace's snapshots are those of its runs' state files and of state
// files inside its folder, with what each run's status says: recorded or
// not, when last used, whether the run is finished or gone. Another
// folder's snapshots are not the workspace's.
func TestWorkspaceListsItsRunsSnapshots(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	ws := filepath.Join(w.dir, "ws")
	done, running, forgotten := w.stateFile("ws/a", true), w.stateFile("ws/b", true), w.stateFile("ws/c", true)
	elsewhere := w.stateFile("other", true)
	ref := func(s string) string { return Repository + ":" + s }
	w.rt.SetSnapshotSize(100)
	for _, s := range []struct{ ref, file string }{{"done-kept", done}, {"done-stray", done}, {"running-new", running}, {"forgotten", forgotten}, {"elsewhere", elsewhere}} {
		w.snap(ref(s.ref), w.labels(s.file, w.me))
	}
	used := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	save := func(file string, phase status.Phase, cps ...status.Checkpoint) {
		run := &status.Run{}
		run.Metadata.Name = "demo"
		run.Status.Phase = phase
		run.Status.Checkpoints = cps
		if err := store.Save(file, run); err != nil {
			t.Fatal(err)
		}
	}
	save(done, status.PhaseCompleted, status.Checkpoint{Ref: ref("done-kept"), LastUsedAt: &used})
	save(running, status.PhaseRunningStudent)

	held, err := Workspace(ctx, w.rt, w.me, ws, []string{done, running}, Own{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := heldRefs(held), []string{ref("done-kept"), ref("done-stray"), ref("forgotten"), ref("running-new")}; !slices.Equal(got, want) {
		t.Fatalf("held %v, want %v", got, want)
	}
	for _, h := range held {
		switch h.Ref {
		case ref("done-kept"):
			if !h.Recorded || h.Active || !h.LastUsed.Equal(used) || h.SizeBytes != 100 || h.Run != "demo" {
				t.Errorf("done-kept: %+v, want recorded, finished, last used %v, 100 bytes, run demo", h, used)
			}
		case ref("running-new"):
			if h.Recorded || !h.Active {
				t.Errorf("running-new: %+v, want an active run's unrecorded checkpoint", h)
			}
		case ref("forgotten"):
			if !h.Gone || h.Active {
				t.Errorf("forgotten: %+v, want gone", h)
			}
		}
	}
	if got, want := heldRefs(Unneeded(held)), []string{ref("done-stray"), ref("forgotten")}; !slices.Equal(got, want) {
		t.Errorf("unneeded %v, want %v (never a recorded one, never an active run's)", got, want)
	}

	// The run that asks stands in its unsaved status for the file.
	own := &status.Status{Phase: status.PhaseRunningStudent, Checkpoints: []status.Checkpoint{{Ref: ref("done-stray")}}}
	held, err = Workspace(ctx, w.rt, w.me, ws, []string{done}, Own{StateFile: done, Status: own})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range held {
		if h.Ref == ref("done-stray") && (!h.Recorded || !h.Active) {
			t.Errorf("done-stray with the asking run's status: %+v, want recorded and active", h)
		}
	}
}

// Over the budget, the least recently used go first, whichever run took
// them, and never one kept; within it, nothing goes.
func TestOverBudgetLeastRecentlyUsedFirst(t *testing.T) {
	at := func(h int) time.Time { return time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC) }
	held := []Held{
		{Ref: "new", SizeBytes: 40, LastUsed: at(5)},
		{Ref: "oldest", SizeBytes: 40, LastUsed: at(1)},
		{Ref: "kept-old", SizeBytes: 40, LastUsed: at(0)},
		{Ref: "middle", SizeBytes: 40, LastUsed: at(3)},
	}
	for _, tt := range []struct {
		budget int64
		want   []string
	}{
		{160, nil},
		{120, []string{"oldest"}},
		{80, []string{"middle", "oldest"}},
		{0, []string{"middle", "new", "oldest"}},
	} {
		if got := heldRefs(OverBudget(held, tt.budget, map[string]bool{"kept-old": true})); !slices.Equal(got, tt.want) {
			t.Errorf("budget %d: removes %v, want %v", tt.budget, got, tt.want)
		}
	}
}

// Removing skips a snapshot a container uses, without an error.
func TestRemoveSkipsWhatAContainerUses(t *testing.T) {
	w := newSweepWorld(t)
	ctx := context.Background()
	file := w.stateFile("ws", true)
	w.snap("smile-checkpoint:used", w.labels(file, w.me))
	w.snap("smile-checkpoint:free", w.labels(file, w.me))
	if _, err := w.rt.Start(ctx, runtime.ContainerSpec{Name: "user", Image: "smile-checkpoint:used"}); err != nil {
		t.Fatal(err)
	}
	removed, err := Remove(ctx, w.rt, []Held{{Ref: "smile-checkpoint:used"}, {Ref: "smile-checkpoint:free"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := heldRefs(removed); !slices.Equal(got, []string{"smile-checkpoint:free"}) {
		t.Errorf("removed %v, want only the free one", got)
	}
	if got := w.refs(); !slices.Equal(got, []string{"smile-checkpoint:used"}) {
		t.Errorf("left %v", got)
	}
}

// A forgotten run's snapshot whose folder is also gone is listed once by a
// dry prune, not once as forgotten and again as of a deleted folder.
func TestDryPruneListsEachSnapshotOnce(t *testing.T) {
	w := newSweepWorld(t)
	here := Here()
	if here.Host == "" {
		t.Skip("no host name: snapshots carry no origin")
	}
	ws := filepath.Join(w.dir, "ws")
	gone := filepath.Join(ws, "old", ".smile", "runs", "demo", "state.json") // its folder never made
	w.snap(Repository+":gone", w.labels(gone, here))
	pruned, err := Prune(context.Background(), w.rt, ws, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(pruned) != 1 || pruned[0].Ref != Repository+":gone" {
		t.Errorf("dry prune listed %+v, want the snapshot once", pruned)
	}
	if got := w.refs(); len(got) != 1 {
		t.Errorf("a dry prune removed something: left %v", got)
	}
}
