package reconcile

import (
	"github.com/smile-loop/smile/reconcile/events"

	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/brains"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/wrappers"
)

// localHands makes the fake engine's containers real enough for a learner:
// a hands-exec runs session.Serve in this process, with the container's
// work folder and ready file mapped onto host folders.
func localHands(t *testing.T, h *harness) {
	ready := filepath.Join(t.TempDir(), "ready")
	write(t, ready, "")
	h.rt.SetExecIO(func(ctx context.Context, name string, req runtime.ExecRequest) (runtime.ExecResult, error) {
		if len(req.Cmd) != 2 || req.Cmd[0] != wire.ContainerWrapperPath || req.Cmd[1] != wrappers.CmdHands {
			t.Errorf("exec %q in %s, want only the wrapper's hands-exec", req.Cmd, name)
		}
		cs, _ := h.rt.Spec(name)
		work := cs.Mounts[1].Source
		in := strings.NewReplacer(wire.ContainerWorkDir, work, wrappers.ReadyFile, ready).Replace(string(req.Stdin))
		var out bytes.Buffer
		if err := session.Serve(ctx, strings.NewReader(in), &out); err != nil {
			return runtime.ExecResult{ExitCode: 2, Stderr: []byte(err.Error())}, nil
		}
		return runtime.ExecResult{Stdout: []byte(strings.ReplaceAll(out.String(), work, wire.ContainerWorkDir))}, nil
	})
}

// settleUntil reconciles until cond holds, waking on the brain's results.
func (h *harness) settleUntil(woken <-chan string, what string, cond func(*status.Run) bool) *status.Run {
	h.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		run := h.settle()
		if cond(run) {
			return run
		}
		select {
		case <-woken:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			h.t.Fatalf("never reached %s: phase %s", what, run.Status.Phase)
		}
	}
}

func TestBrainPlaysTheLiteralStudentInTheController(t *testing.T) {
	h := newHarness(t, "")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nRun it:\n\n```bash\necho hello > out.txt\ncat missing.txt\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)

	run := h.settleUntil(woken, "the Student's result", func(r *status.Run) bool { return len(r.Status.History) == 1 })
	cs, _ := h.rt.Spec(containerOf(t, h, status.RoleStudent))
	for _, kv := range cs.Env {
		if strings.HasPrefix(kv, "SMILE_") {
			t.Errorf("the hands container has %s in its environment", kv)
		}
	}
	if len(cs.Cmd) != 2 || cs.Cmd[1] != wrappers.CmdIdle || cs.HostGateway {
		t.Errorf("hands container: cmd %q host gateway %v, want an idle wrapper and no way to the host", cs.Cmd, cs.HostGateway)
	}
	for _, m := range cs.Mounts {
		if m.Target == wire.ContainerLogsDir {
			t.Errorf("the task's folder %s is mounted into the hands container", m.Source)
		}
	}
	if !slices.Contains(cs.EmptyDirs, wire.ContainerTutorialDir+"/.smile") {
		t.Errorf("EmptyDirs = %q, want the state folder hidden", cs.EmptyDirs)
	}
	out := run.Status.History[0].StudentOutput
	if len(out.Findings) == 0 || out.Findings[0].Line != 7 {
		t.Fatalf("findings %+v, want one at line 7 (cat missing.txt)", out.Findings)
	}
	data, err := os.ReadFile(filepath.Join(h.workDir(1), "out.txt"))
	if err != nil || string(data) != "hello\n" {
		t.Fatalf("out.txt in the work folder = %q, %v: the command did not run through the hands", data, err)
	}
}

func containerOf(t *testing.T, h *harness, role status.Role) string {
	cs, err := h.rt.List(context.Background(), map[string]string{runtime.LabelRole: string(role)})
	if err != nil || len(cs) == 0 {
		t.Fatalf("no %s container: %v", role, err)
	}
	return cs[0].Name
}

func (h *harness) workDir(iteration int) string {
	return filepath.Join(h.dir, ".smile", "runs", "demo", "internal", "g1", "work", strconv.Itoa(iteration))
}

// startBrains gives the harness's reconciler brains that end with the test.
func startBrains(t *testing.T, h *harness) <-chan string {
	ctx, cancel := context.WithCancel(context.Background())
	woken := make(chan string, 100)
	b := brains.New(ctx)
	h.rec.Brains, h.rec.Wake = b, func(name string) { woken <- name }
	t.Cleanup(func() { cancel(); b.Wait() })
	return woken
}

// TestBrainGoneRestartsTheAttempt: a controller that stops takes its
// learners with it; the next one starts the attempt again (same iteration)
// in a fresh container instead of waiting for a result that never comes.
func TestBrainGoneRestartsTheAttempt(t *testing.T) {
	h := newHarness(t, "")
	started := make(chan struct{}, 10)
	h.rt.SetExecIO(func(ctx context.Context, _ string, _ runtime.ExecRequest) (runtime.ExecResult, error) {
		started <- struct{}{}
		<-ctx.Done() // the learner never finishes: its controller dies first
		return runtime.ExecResult{}, ctx.Err()
	})
	first, cancel := context.WithCancel(context.Background())
	h.rec.Brains = brains.New(first)
	run := h.settle()
	waitFor(t, started, "the first learner to start")
	if run.Status.Phase != status.PhaseWaitingForStudent || run.Status.Attempt == nil {
		t.Fatalf("phase %s, want the Student at work", run.Status.Phase)
	}
	cancel() // kill -9: the brain is gone
	h.rec.Brains.Wait()
	h.rec = &Reconciler{Runtime: h.rt, Runs: h.rec.Runs, WrapperPath: h.rec.WrapperPath, CallbackURL: h.rec.CallbackURL,
		Instance: "second", StepGrace: 5 * time.Second, Clock: h.clock, Events: &events.Hub{}}
	startBrains(t, h)
	run = h.settle()
	waitFor(t, started, "the restarted learner to start")
	var restarted *status.TimelineEntry
	for i, e := range run.Status.Timeline {
		if e.Event == "AttemptRestarted" {
			restarted = &run.Status.Timeline[i]
		}
	}
	if restarted == nil || !strings.Contains(restarted.Details, "learner ran in a controller that stopped") {
		t.Fatalf("timeline %+v: want AttemptRestarted for the lost learner", run.Status.Timeline)
	}
	if a := run.Status.Attempt; a == nil || a.Instance != "second" || a.Iteration != 1 || a.Role != status.RoleStudent {
		t.Fatalf("attempt %+v, want the Student of iteration 1 started by the second controller", a)
	}
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
	}
}
