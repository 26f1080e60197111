package checkpoints

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// dockerTestOwner marks the container this test starts: not
// runtime.OwnerValue, so a controller sweeping orphaned containers leaves it
// alone. The snapshots carry runtime.OwnerValue: they are labelled exactly
// as the reconciler labels a checkpoint, or Workspace would not find them.
const dockerTestOwner = "smile-checkpoints-test"

// dockerWorld is a real Docker engine with one running container to take
// snapshots of; every snapshot and container it makes is removed when the
// test ends, and nothing else.
type dockerWorld struct {
	t         *testing.T
	rt        *docker.Runtime
	container string
	tag       string // unique to this test: every ref carries it
	taken     int
}

func newDockerWorld(t *testing.T) *dockerWorld {
	t.Helper()
	if testing.Short() {
		t.Skip("runs containers; skipped with -short")
	}
	rt, err := docker.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Close() })
	ctx := context.Background()
	if err := rt.EnsureImage(ctx, docker.BaseImage); err != nil {
		t.Fatalf("%s: %v (build it with hack/build-image.sh)", docker.BaseImage, err)
	}
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "t" + hex.EncodeToString(b)
	w := &dockerWorld{t: t, rt: rt, tag: tag, container: "smile-test-" + tag + "-checkpoints"}
	// Last in, first out: this runs after every snapshot's own cleanup and
	// says if one of ours is left.
	t.Cleanup(func() {
		out, err := exec.Command("docker", "images", "--filter", "reference="+Repository+":"+tag+"-*", "--format", "{{.Repository}}:{{.Tag}}").CombinedOutput()
		if err != nil {
			t.Errorf("list what is left: %v: %s", err, out)
		} else if left := strings.TrimSpace(string(out)); left != "" {
			t.Errorf("snapshots left after cleanup: %s", left)
		}
	})
	t.Cleanup(func() {
		if err := rt.Remove(context.Background(), w.container); err != nil {
			t.Errorf("remove container %s: %v", w.container, err)
		}
	})
	if _, err := rt.Start(ctx, runtime.ContainerSpec{
		Name:   w.container,
		Image:  docker.BaseImage,
		Cmd:    []string{"sleep", "infinity"},
		Labels: map[string]string{runtime.LabelOwner: dockerTestOwner, runtime.LabelRun: tag},
	}); err != nil {
		t.Fatal(err)
	}
	return w
}

// ref is a checkpoint's reference, unique to this test.
func (w *dockerWorld) ref(name string) string {
	return Repository + ":" + w.tag + "-" + name
}

// snap writes a little more into the container (so each snapshot has a
// layer of its own, larger than the last) and snapshots it as ref for the
// run of stateFile, labelled as reconcile/checkpoint.go labels one.
func (w *dockerWorld) snap(ref, run, stateFile string) runtime.Snapshot {
	w.t.Helper()
	ctx := context.Background()
	w.taken++
	w.t.Cleanup(func() {
		if err := w.rt.RemoveSnapshot(context.Background(), ref); err != nil {
			w.t.Errorf("clean up snapshot %s: %v", ref, err)
		}
	})
	code, out, err := w.rt.Exec(ctx, w.container, []string{"sh", "-c", "head -c 100000 /dev/urandom > /var/tmp/blob-" + strconv.Itoa(w.taken)}, 10*time.Second)
	if err != nil || code != 0 {
		w.t.Fatalf("write into the container: exit %d, %v: %s", code, err, out)
	}
	labels := map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: run, runtime.LabelStateKey: StateKey(stateFile)}
	maps.Copy(labels, Here().Labels(stateFile))
	labels[runtime.LabelKind] = runtime.KindSnapshot
	labels[runtime.LabelImage] = docker.BaseImage
	labels[runtime.LabelKey] = "k-" + w.tag
	labels[runtime.LabelIteration] = "1"
	labels[runtime.LabelInstance] = "test"
	s, err := w.rt.Snapshot(ctx, runtime.SnapshotSpec{Container: w.container, Ref: ref, Labels: labels})
	if err != nil {
		w.t.Fatal(err)
	}
	return s
}

// exists asks the engine itself, not the runtime under test.
func (w *dockerWorld) exists(ref string) bool {
	w.t.Helper()
	out, err := exec.Command("docker", "image", "inspect", "--format", "{{.Id}}", ref).CombinedOutput()
	if err == nil {
		return true
	}
	if !strings.Contains(strings.ToLower(string(out)), "no such image") {
		w.t.Fatalf("docker image inspect %s: %v: %s", ref, err, out)
	}
	return false
}

// expectOnEngine checks which refs the engine still has.
func (w *dockerWorld) expectOnEngine(what string, present, absent []string) {
	w.t.Helper()
	for _, r := range present {
		if !w.exists(r) {
			w.t.Errorf("%s: %s was removed, want it kept", what, r)
		}
	}
	for _, r := range absent {
		if w.exists(r) {
			w.t.Errorf("%s: %s is still there, want it removed", what, r)
		}
	}
}

// The workspace's checkpoints on the real engine: Workspace lists those of
// its runs' state files and of state files in its folder, not another
// folder's; FitWorkspace removes the least recently used across every run
// of the workspace, never a kept one; Prune removes what no finished run
// records, a forgotten run's and a deleted folder's, keeps what a finished
// run records and all a run not finished has, and dry removes nothing.
func TestDockerWorkspaceFitAndPrune(t *testing.T) {
	w := newDockerWorld(t)
	ctx := context.Background()
	root := t.TempDir()
	ws := filepath.Join(root, "ws")
	stateFile := func(dir, run string) string {
		return filepath.Join(dir, store.HomeDir, "runs", run, "state.json")
	}
	alpha, beta := stateFile(ws, "alpha"), stateFile(ws, "beta")
	// gamma was forgotten: its folder is there, its state file and its
	// record are not.
	gamma := stateFile(ws, "gamma")
	// Another folder's run, alive; and a run of a folder deleted since.
	other := stateFile(filepath.Join(root, "other"), "alpha")
	deleted := stateFile(filepath.Join(root, "deleted"), "delta")
	for _, f := range []string{alpha, beta, gamma, other} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, rec := range []store.Record{{Name: "alpha", StateFile: alpha}, {Name: "beta", StateFile: beta}} {
		rec.Manifest = filepath.Join(ws, rec.Name+".yaml")
		rec.AppliedAt = time.Now().UTC()
		if err := (store.Registry{Dir: ws}).Put(rec); err != nil {
			t.Fatal(err)
		}
	}

	ref := w.ref
	a1, b1, a2, b2 := ref("a1"), ref("b1"), ref("a2"), ref("b2")
	aStray, bNew, forgotten := ref("a-stray"), ref("b-new"), ref("forgotten")
	elsewhere, orphan := ref("elsewhere"), ref("orphan")
	type taken struct{ ref, run, file string }
	snaps := []taken{
		{a1, "alpha", alpha}, {b1, "beta", beta}, {a2, "alpha", alpha}, {b2, "beta", beta},
		{aStray, "alpha", alpha}, {bNew, "beta", beta}, {forgotten, "gamma", gamma},
		{elsewhere, "alpha", other}, {orphan, "delta", deleted},
	}
	of := map[string]taken{}
	start := time.Now()
	for _, s := range snaps {
		w.snap(s.ref, s.run, s.file)
		of[s.ref] = s
	}
	t.Logf("took 9 snapshots in %s", time.Since(start).Round(time.Millisecond))

	// Last used, oldest first: a1, b1, a2, b2 (the runs alternate); the
	// unrecorded ones were taken just now, later than all of them.
	hour := func(h int) *time.Time {
		at := start.Add(time.Duration(h-10) * time.Hour).UTC().Truncate(time.Second)
		return &at
	}
	used := map[string]*time.Time{a1: hour(1), b1: hour(2), a2: hour(3), b2: hour(4), elsewhere: hour(0)}
	save := func(file, name string, phase status.Phase, refs ...string) {
		t.Helper()
		run := &status.Run{}
		run.Metadata.Name = name
		run.Status.Phase = phase
		for _, r := range refs {
			run.Status.Checkpoints = append(run.Status.Checkpoints, status.Checkpoint{Ref: r, Image: docker.BaseImage, CreatedAt: used[r].Add(-time.Minute), LastUsedAt: used[r]})
		}
		if err := store.Save(file, run); err != nil {
			t.Fatal(err)
		}
	}
	save(alpha, "alpha", status.PhaseCompleted, a1, a2)
	save(beta, "beta", status.PhaseCompleted, b1, b2)
	save(other, "alpha", status.PhaseCompleted, elsewhere)

	// (a) What Workspace lists.
	files := []string{alpha, beta}
	held, err := Workspace(ctx, w.rt, Here(), ws, files, Own{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := heldRefs(held), sorted(a1, a2, aStray, b1, b2, bNew, forgotten); !slices.Equal(got, want) {
		t.Fatalf("Workspace lists %v, want %v (not %s of another folder, not %s of a deleted one)", got, want, elsewhere, orphan)
	}
	size := map[string]int64{}
	var total int64
	for _, h := range held {
		size[h.Ref] = h.SizeBytes
		total += h.SizeBytes
		if s := of[h.Ref]; h.Run != s.run || h.StateFile != s.file {
			t.Errorf("%s: run %q of %s, want %q of %s", h.Ref, h.Run, h.StateFile, s.run, s.file)
		}
		if h.SizeBytes < 100_000 || h.SizeBytes > 50_000_000 {
			t.Errorf("%s: %d bytes, want its own layer (at least the 100 kB written), not the whole image", h.Ref, h.SizeBytes)
		}
		if h.Active {
			t.Errorf("%s: active, but its run is finished or gone", h.Ref)
		}
		if h.Gone != (h.Ref == forgotten) {
			t.Errorf("%s: gone = %v", h.Ref, h.Gone)
		}
		if at, ok := used[h.Ref]; ok {
			if !h.Recorded || !h.LastUsed.Equal(*at) {
				t.Errorf("%s: recorded %v, last used %v; want recorded, last used %v", h.Ref, h.Recorded, h.LastUsed, *at)
			}
		} else if h.Recorded || h.LastUsed.Before(start.Add(-time.Minute)) || h.LastUsed.After(time.Now().Add(time.Minute)) {
			t.Errorf("%s: recorded %v, last used %v; want unrecorded, last used when taken (%v)", h.Ref, h.Recorded, h.LastUsed, start)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// (b) Over budget: the least recently used go first, whichever run took
	// them. a1 is the oldest but kept, so b1 (beta's) and a2 (alpha's) go;
	// the budget leaves no room for either and room for everything else.
	budget := total - size[b1] - size[a2]
	keep := map[string]bool{a1: true}
	removed, err := FitWorkspace(ctx, w.rt, ws, Own{}, budget, keep)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := heldRefs(removed), sorted(a2, b1); !slices.Equal(got, want) {
		t.Errorf("FitWorkspace(budget %d of %d, keep %s) removed %v, want %v", budget, total, a1, got, want)
	}
	w.expectOnEngine("FitWorkspace", []string{a1, b2, aStray, bNew, forgotten, elsewhere, orphan}, []string{a2, b1})
	held, err = Workspace(ctx, w.rt, Here(), ws, files, Own{})
	if err != nil {
		t.Fatal(err)
	}
	var left int64
	for _, h := range held {
		left += h.SizeBytes
	}
	if left > budget {
		t.Errorf("after FitWorkspace the workspace holds %d bytes, over the budget %d", left, budget)
	}
	// Within the budget, nothing more goes.
	if removed, err := FitWorkspace(ctx, w.rt, ws, Own{}, budget, keep); err != nil || len(removed) != 0 {
		t.Errorf("FitWorkspace within the budget removed %v (%v), want nothing", heldRefs(removed), err)
	}
	if t.Failed() {
		t.FailNow()
	}

	// (c) Prune. beta runs again: it has not recorded b-new yet, so b-new
	// stays; alpha is finished and does not record a-stray, so it goes, as
	// do the forgotten run's and the deleted folder's.
	save(beta, "beta", status.PhaseRunningStudent, b2)
	wantPruned := sorted(aStray, forgotten, orphan)
	kept := []string{a1, b2, bNew, elsewhere}
	dry, err := Prune(ctx, w.rt, ws, true)
	if err != nil {
		t.Fatal(err)
	}
	// Prune also removes this origin's snapshots of any folder deleted
	// elsewhere on the machine: never run it for real if one is not ours.
	var foreign []string
	for _, p := range dry {
		if !strings.HasPrefix(p.Ref, Repository+":"+w.tag+"-") {
			foreign = append(foreign, p.Ref)
		}
	}
	if got := prunedRefs(dry, w.tag); !slices.Equal(got, wantPruned) {
		t.Errorf("Prune, dry, would remove %v, want %v", got, wantPruned)
	}
	w.expectOnEngine("Prune, dry", append(slices.Clone(kept), wantPruned...), nil)
	if len(foreign) > 0 {
		t.Skipf("Prune would also remove snapshots this test did not take (%v): not running it for real", foreign)
	}
	pruned, err := Prune(ctx, w.rt, ws, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := prunedRefs(pruned, w.tag); !slices.Equal(got, wantPruned) {
		t.Errorf("Prune removed %v, want %v", got, wantPruned)
	}
	for _, p := range pruned {
		var want string
		switch p.Ref {
		case aStray:
			want = "does not record it"
		case forgotten:
			want = "no longer in the workspace"
		case orphan:
			want = "was deleted"
		}
		if !strings.Contains(p.Why, want) || p.SizeBytes <= 0 {
			t.Errorf("%s: why %q, %d bytes; want %q and its size", p.Ref, p.Why, p.SizeBytes, want)
		}
	}
	w.expectOnEngine("Prune", kept, wantPruned)
}

func sorted(refs ...string) []string {
	return slices.Sorted(slices.Values(refs))
}

// prunedRefs names what Prune listed of this test's snapshots, sorted.
func prunedRefs(ps []Pruned, tag string) []string {
	var out []string
	for _, p := range ps {
		if strings.HasPrefix(p.Ref, Repository+":"+tag+"-") {
			out = append(out, p.Ref)
		}
	}
	slices.Sort(out)
	return out
}
