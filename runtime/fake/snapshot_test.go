package fake_test

import (
	"context"
	"errors"
	"testing"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

func TestSnapshotIsAnImageUntilRemoved(t *testing.T) {
	ctx := context.Background()
	rt := fake.New(image)
	rt.SetSnapshotSize(42)
	if _, err := rt.Start(ctx, spec("a", "r1")); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: "nope", Ref: "snap:x"}); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("snapshot of a missing container: %v", err)
	}
	rt.FailNextSnapshot(errors.New("disk full"))
	if _, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: "a", Ref: "snap:x"}); err == nil {
		t.Fatal("FailNextSnapshot did not fail")
	}
	if list, _ := rt.ListSnapshots(ctx, nil); len(list) != 0 {
		t.Fatalf("a failed snapshot was kept: %+v", list)
	}
	labels := map[string]string{runtime.LabelRun: "r1", runtime.LabelKind: runtime.KindSnapshot}
	s, err := rt.Snapshot(ctx, runtime.SnapshotSpec{Container: "a", Ref: "snap:x", Labels: labels})
	if err != nil || s.SizeBytes != 42 || s.Ref != "snap:x" {
		t.Fatalf("Snapshot = %+v, %v", s, err)
	}
	if list, _ := rt.ListSnapshots(ctx, map[string]string{runtime.LabelRun: "r2"}); len(list) != 0 {
		t.Fatalf("another run's selector: %+v", list)
	}
	b := spec("b", "r1")
	b.Image = "snap:x"
	if _, err := rt.Start(ctx, b); err != nil {
		t.Fatalf("start from the snapshot: %v", err)
	}
	if err := rt.RemoveSnapshot(ctx, "snap:x"); !errors.Is(err, runtime.ErrInUse) {
		t.Fatalf("remove in use: %v", err)
	}
	_ = rt.Remove(ctx, "b")
	if err := rt.RemoveSnapshot(ctx, "snap:x"); err != nil {
		t.Fatal(err)
	}
	if err := rt.EnsureImage(ctx, "snap:x"); !errors.Is(err, runtime.ErrImageNotFound) {
		t.Fatalf("removed snapshot still an image: %v", err)
	}
}
