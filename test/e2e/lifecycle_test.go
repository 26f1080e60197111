package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// TestControllerLifecycle: the background controller apply starts says what
// it is (controller status), exits by itself once idle, and `controller stop`
// ends one that would otherwise linger; its run keeps its state.
func TestControllerLifecycle(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "clean")
	t.Cleanup(func() { removeRunContainers(dir) })
	stopControllers(t, dir)
	lock := store.ControllerLockPath(dir)

	// Idle exit: a short idle timeout, a run that finishes quickly.
	res := smile(t, dir, []string{"SMILE_CONTROLLER_IDLE_TIMEOUT=2s"}, time.Minute, "apply", "-f", "run.yaml")
	if res.code != 0 {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	res = smile(t, dir, nil, 30*time.Second, "controller", "status")
	if res.code != 0 || !strings.Contains(res.stdout, "running (background)") {
		t.Errorf("controller status while it runs: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	waitState(t, runFile(dir, "clean", "state.json"), 2*time.Minute, "the run's end", func(run *status.Run) bool {
		return run.Status.Phase.Terminal() && run.Status.Report != nil
	})
	deadline := time.Now().Add(30 * time.Second)
	for store.Held(lock) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if store.Held(lock) {
		t.Fatal("the controller did not exit within 30s of going idle (idle timeout 2s)")
	}
	res = smile(t, dir, nil, 30*time.Second, "controller", "status")
	if res.code != 0 || !strings.Contains(res.stdout, "no controller is running") {
		t.Errorf("controller status after the idle exit: exit %d\n%s", res.code, res.stdout)
	}

	// controller stop: the default idle timeout would keep it for 30m.
	writeFile(t, filepath.Join(dir, "tutorial.md"), append(readFile(t, filepath.Join(dir, "tutorial.md")), "\n<!-- edited -->\n"...))
	if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
		t.Fatalf("apply again: exit %d\n%s", res.code, res.stderr)
	}
	if !store.Held(lock) {
		t.Fatal("apply started no controller")
	}
	res = smile(t, dir, nil, time.Minute, "controller", "stop")
	if res.code != 0 || !strings.Contains(res.stdout, "stopped") || store.Held(lock) {
		t.Errorf("controller stop: exit %d, lock held %v\n%s%s", res.code, store.Held(lock), res.stdout, res.stderr)
	}
	if _, err := store.Load(runFile(dir, "clean", "state.json")); err != nil {
		t.Errorf("the run's state is gone after controller stop: %v", err)
	}
}
