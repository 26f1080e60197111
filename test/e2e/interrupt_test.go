package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// TestApplyWaitCtrlC: Ctrl-C in `apply --wait` stops the run (phase Stopped,
// report written), removes its containers and says how to run it again;
// applying it again does run it again, to the end.
func TestApplyWaitCtrlC(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "ctl-slow")
	t.Cleanup(func() { removeRunContainers(dir) })
	stateFile := runFile(dir, "ctl-slow", "state.json")

	p := smileBackground(t, dir, nil, "apply", "-f", "run.yaml", "--wait")
	waitState(t, stateFile, 2*time.Minute, "the Student at work", func(run *status.Run) bool {
		return run.Status.Phase == status.PhaseWaitingForStudent
	})
	p.interrupt()
	code, _ := p.wait(time.Second)
	_, stderr := p.output()
	if code != 1 || !strings.Contains(stderr, "stopped and its containers removed") || !strings.Contains(stderr, "smile apply -f run.yaml --wait") {
		t.Fatalf("apply --wait after Ctrl-C: exit %d\nstderr:\n%s", code, stderr)
	}
	run, err := store.Load(stateFile)
	if err != nil {
		t.Fatal(err)
	}
	if run.Status.Phase != status.PhaseStopped || run.Status.Report == nil {
		t.Errorf("after Ctrl-C: %s, report %v; want phase Stopped with a report", describeStatus(&run.Status), run.Status.Report)
	}
	if cs := dirContainers(t, dir); len(cs) != 0 {
		t.Errorf("containers left after Ctrl-C: %v", containerNames(cs))
	}

	res := smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 0 || !strings.Contains(res.stdout, "smilerun.smile.dev/ctl-slow configured") {
		t.Fatalf("apply again after the stop: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if run, err := store.Load(stateFile); err != nil || run.Status.Phase != status.PhaseCompleted {
		t.Errorf("the run applied again did not complete: %v %v", err, run)
	}
}
