package reconcile

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime/fake"
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
