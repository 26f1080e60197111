package reconcile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// StartController is the start-up path of both binaries: one controller per
// folder, published while it runs and given up once it has stopped.
func TestStartControllerServesOneFolder(t *testing.T) {
	dir := t.TempDir()
	opts := Options{Runtime: fake.New(), CallbackHost: "127.0.0.1", Log: logr.Discard(), Version: "test"}
	first, err := StartController(context.Background(), opts, dir, false)
	if err != nil {
		t.Fatal(err)
	}
	info, err := store.ReadControllerInfo(dir)
	if err != nil || info.APIAddr != first.APIAddr() || info.Version != "test" || info.Foreground {
		t.Errorf("controller info = %+v, %v; want this controller's API, version and background", info, err)
	}
	if second, err := StartController(context.Background(), opts, dir, true); !errors.Is(err, ErrControllerRunning) {
		t.Errorf("second StartController = %v, want ErrControllerRunning", err)
		if second != nil {
			second.Close()
		}
	}
	first.Close()
	if _, err := os.Stat(store.ControllerInfoPath(dir)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("controller.json after Close: %v, want it gone", err)
	}
	again, err := StartController(context.Background(), opts, dir, true)
	if err != nil {
		t.Fatalf("StartController after Close: %v", err)
	}
	again.Close()
}

// A controller's start removes the snapshots the reconciler took for a run
// whose folder was deleted since (without smile delete), and keeps a live
// run's.
func TestStartControllerSweepsSnapshotsOfDeletedFolders(t *testing.T) {
	ctx := context.Background()
	rt := fake.New("smile-base:latest")
	if _, err := rt.Start(ctx, runtime.ContainerSpec{Name: "c", Image: "smile-base:latest"}); err != nil {
		t.Fatal(err)
	}
	r := &Reconciler{Runtime: rt}
	take := func(folder string) string {
		tgt := checkpointTarget{lay: newLayout("demo", filepath.Join(folder, ".smile", "runs", "demo", "state.json")), gen: 1, iteration: 1, image: "smile-base:latest", instance: "i"}
		if err := r.checkpointFunc("c", tgt, &checkpoints.Kept{})(ctx, 3, "steps", status.ShellState{}, nil); err != nil {
			t.Fatal(err)
		}
		return tgt.ref(3)
	}
	gone, live := filepath.Join(t.TempDir(), "gone"), t.TempDir()
	if err := os.MkdirAll(filepath.Join(live, ".smile", "runs", "demo"), 0o755); err != nil {
		t.Fatal(err)
	}
	take(gone)
	kept := take(live)
	c, err := StartController(ctx, Options{Runtime: rt, CallbackHost: "127.0.0.1", Log: logr.Discard()}, t.TempDir(), false)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	list, err := rt.ListSnapshots(ctx, nil)
	if err != nil || len(list) != 1 || list[0].Ref != kept {
		t.Fatalf("snapshots after the start: %+v, %v; want only %s", list, err, kept)
	}
}
