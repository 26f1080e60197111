package docker

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/smile-loop/smile/runtime"
)

// A snapshot keeps the container's filesystem with SMILE's labels; a
// container started from it finds the files; it is listed by its labels,
// sized by its own layer, refused removal while a container uses it, and
// removed after.
func TestSnapshotKeepsFilesystemAndLabels(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	run := testRun(t, r)
	src := start(t, r, testSpec(run, "src"))
	if code, out := mustExec(t, r, src.Name, "sh", "-c", "mkdir -p /opt/kept && head -c 2000000 /dev/urandom > /opt/kept/blob && echo hello > /opt/kept/note"); code != 0 {
		t.Fatalf("prepare: exit %d: %s", code, out)
	}
	ref := "smile-checkpoint-test:" + run
	labels := map[string]string{runtime.LabelOwner: testOwner, runtime.LabelRun: run, runtime.LabelKind: runtime.KindSnapshot,
		runtime.LabelImage: BaseImage, runtime.LabelKey: "k1"}
	t.Cleanup(func() { _ = r.RemoveSnapshot(context.Background(), ref) })
	snap, err := r.Snapshot(ctx, runtime.SnapshotSpec{Container: src.Name, Ref: ref, Labels: labels})
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range labels {
		if snap.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, snap.Labels[k], v)
		}
	}
	if snap.Ref != ref || snap.ID == "" || snap.CreatedAt.IsZero() {
		t.Errorf("snapshot = %+v", snap)
	}
	if snap.SizeBytes < 2_000_000 || snap.SizeBytes > 50_000_000 {
		t.Errorf("size %d: want the 2 MB layer, not the whole image", snap.SizeBytes)
	}

	list, err := r.ListSnapshots(ctx, map[string]string{runtime.LabelRun: run})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != snap.ID {
		t.Fatalf("listed %+v, want the one snapshot", list)
	}
	if other, err := r.ListSnapshots(ctx, map[string]string{runtime.LabelRun: run + "x"}); err != nil || len(other) != 0 {
		t.Fatalf("another run's selector listed %+v (%v)", other, err)
	}

	spec := testSpec(run, "resumed")
	spec.Image = ref
	resumed := start(t, r, spec)
	if code, out := mustExec(t, r, resumed.Name, "cat", "/opt/kept/note"); code != 0 || strings.TrimSpace(out) != "hello" {
		t.Fatalf("resumed container: exit %d: %q", code, out)
	}
	if err := r.RemoveSnapshot(ctx, ref); !errors.Is(err, runtime.ErrInUse) {
		t.Fatalf("remove while in use: %v, want ErrInUse", err)
	}
	if err := r.Remove(ctx, resumed.Name); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveSnapshot(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if err := r.RemoveSnapshot(ctx, ref); err != nil {
		t.Fatalf("removing a missing snapshot: %v", err)
	}
	if list, _ := r.ListSnapshots(ctx, map[string]string{runtime.LabelRun: run}); len(list) != 0 {
		t.Fatalf("still listed after removal: %+v", list)
	}
}

func TestSnapshotOfMissingContainer(t *testing.T) {
	r := newRuntime(t)
	_, err := r.Snapshot(context.Background(), runtime.SnapshotSpec{Container: "smile-test-no-such-container", Ref: "smile-checkpoint-test:none"})
	if !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
}
