package checkpoints

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

// sweepWorld is an engine with one container to snapshot and a folder
// of state folders, some of them deleted.
type sweepWorld struct {
	t   *testing.T
	rt  *fake.Runtime
	dir string
	me  Origin
}

func newSweepWorld(t *testing.T) *sweepWorld {
	rt := fake.New("smile-base:latest")
	if _, err := rt.Start(context.Background(), runtime.ContainerSpec{Name: "c", Image: "smile-base:latest"}); err != nil {
		t.Fatal(err)
	}
	return &sweepWorld{t: t, rt: rt, dir: t.TempDir(), me: Origin{UID: 1000, Host: "box"}}
}

// stateFile is a run's state file in a folder of the world; live ones
// exist, the others were deleted.
func (w *sweepWorld) stateFile(folder string, live bool) string {
	path := filepath.Join(w.dir, folder, ".smile", "runs", "demo", "state.json")
	if live {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			w.t.Fatal(err)
		}
	}
	return path
}

// labels are those the reconciler gives a snapshot of stateFile's run,
// taken by origin o.
func (w *sweepWorld) labels(stateFile string, o Origin) map[string]string {
	l := map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: "demo",
		runtime.LabelStateKey: StateKey(stateFile), runtime.LabelKind: runtime.KindSnapshot}
	maps.Copy(l, o.Labels(stateFile))
	return l
}

func (w *sweepWorld) snap(ref string, labels map[string]string) {
	if _, err := w.rt.Snapshot(context.Background(), runtime.SnapshotSpec{Container: "c", Ref: ref, Labels: labels}); err != nil {
		w.t.Fatal(err)
	}
}

func (w *sweepWorld) refs() []string {
	list, err := w.rt.ListSnapshots(context.Background(), nil)
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, s := range list {
		out = append(out, s.Ref)
	}
	slices.Sort(out)
	return out
}

// A sweep removes this uid's and host's snapshots of runs whose state
// folder is gone, and nothing else: not one whose folder exists, not one
// without SMILE's labels or taken before the sweep's labels, not another
// user's or host's, not one whose labels disagree.
func TestSweepRemovesOnlyTheSnapshotsOfDeletedFolders(t *testing.T) {
	w := newSweepWorld(t)
	gone, live := w.stateFile("gone", false), w.stateFile("live", true)
	ref := func(s string) string { return Repository + ":" + s }
	w.snap(ref("gone-1"), w.labels(gone, w.me))
	w.snap(ref("gone-2"), w.labels(gone, w.me))
	w.snap(ref("live"), w.labels(live, w.me))
	w.snap(ref("other-uid"), w.labels(gone, Origin{UID: 1001, Host: "box"}))
	w.snap(ref("other-host"), w.labels(gone, Origin{UID: 1000, Host: "other"}))
	old := w.labels(gone, Origin{}) // before the labels: no state file, uid or host
	w.snap(ref("old"), old)
	notOurs := w.labels(gone, w.me)
	delete(notOurs, runtime.LabelOwner)
	w.snap(ref("not-ours"), notOurs)
	w.snap("someones/image:gone", w.labels(gone, w.me))
	wrongKey := w.labels(gone, w.me)
	wrongKey[runtime.LabelStateKey] = StateKey(live)
	w.snap(ref("wrong-key"), wrongKey)
	relative := w.labels(gone, w.me)
	relative[runtime.LabelStateFile] = "gone/state.json"
	relative[runtime.LabelStateKey] = StateKey("gone/state.json")
	w.snap(ref("relative"), relative)

	var logged []string
	log := funcr.New(func(_, args string) { logged = append(logged, args) }, funcr.Options{})
	removed, err := Sweep(context.Background(), w.rt, w.me, log)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	if want := []string{ref("gone-1"), ref("gone-2")}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	want := []string{ref("live"), ref("not-ours"), ref("old"), ref("other-host"), ref("other-uid"), ref("relative"), ref("wrong-key"), "someones/image:gone"}
	slices.Sort(want)
	if got := w.refs(); !slices.Equal(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
	if len(logged) != 2 {
		t.Errorf("logged %q, want one line per removal", logged)
	}
}

// A snapshot a container still uses stays (without an error); a sweep
// without a host name removes nothing; an engine that cannot list is an
// error.
func TestSweepKeepsWhatItCannotRemove(t *testing.T) {
	ctx := context.Background()
	w := newSweepWorld(t)
	gone := w.stateFile("gone", false)
	used := Repository + ":used"
	w.snap(used, w.labels(gone, w.me))
	if _, err := w.rt.Start(ctx, runtime.ContainerSpec{Name: "from-it", Image: used}); err != nil {
		t.Fatal(err)
	}
	if removed, err := Sweep(ctx, w.rt, w.me, logr.Discard()); err != nil || len(removed) != 0 {
		t.Errorf("sweep = %v, %v; want the used snapshot kept, no error", removed, err)
	}
	if err := w.rt.Remove(ctx, "from-it"); err != nil {
		t.Fatal(err)
	}
	if removed, err := Sweep(ctx, w.rt, Origin{UID: w.me.UID}, logr.Discard()); err != nil || len(removed) != 0 {
		t.Errorf("sweep without a host = %v, %v; want nothing removed", removed, err)
	}
	w.rt.SetUnavailable(true)
	if _, err := Sweep(ctx, w.rt, w.me, logr.Discard()); err == nil {
		t.Error("a sweep on an unavailable engine was no error")
	}
	w.rt.SetUnavailable(false)
	if removed, err := Sweep(ctx, w.rt, w.me, logr.Discard()); err != nil || len(removed) != 1 {
		t.Errorf("sweep once unused = %v, %v; want it removed", removed, err)
	}
}

// A snapshot carries its state file and origin only when a sweep could use
// them: an absolute path and a host name.
func TestOriginLabels(t *testing.T) {
	o := Origin{UID: 7, Host: "box"}
	got := o.Labels("/p/.smile/runs/demo/state.json")
	want := map[string]string{runtime.LabelStateFile: "/p/.smile/runs/demo/state.json", runtime.LabelUID: "7", runtime.LabelHost: "box"}
	if !maps.Equal(got, want) {
		t.Errorf("labels = %v, want %v", got, want)
	}
	if got := o.Labels("state.json"); len(got) != 0 {
		t.Errorf("labels of a relative path = %v, want none", got)
	}
	if got := (Origin{UID: 7}).Labels("/p/state.json"); len(got) != 0 {
		t.Errorf("labels without a host = %v, want none", got)
	}
	if here := Here(); here.UID != os.Getuid() {
		t.Errorf("Here = %+v, want uid %d", here, os.Getuid())
	}
}
