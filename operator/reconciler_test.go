package operator

import (
	"slices"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/smile-loop/smile/status"
)

// stuckAt35 is the literal Student's result on examples/quickstart: it
// stops at line 35, the chmod +x the page forgets.
func stuckAt35() *plays {
	p := &plays{}
	p.res.StudentOutput = status.StudentOutput{
		Status: status.StudentAskMentor, Line: 35, Quote: "./hello.sh",
		Findings: []status.Finding{{Line: 35, Category: status.CategoryPermissionDenied, Quote: "./hello.sh", Problem: "permission denied"}},
	}
	return p
}

// A SmileRun is started (RunningStudent, its attempt named), played with
// its files from the ConfigMap it names, and ended in its status: phase,
// gaps, history, conditions, observedGeneration, Events. A new generation
// is played again.
func TestOperatorPlaysARun(t *testing.T) {
	cfg := apiServer(t)
	c := newClient(t, cfg)
	p := stuckAt35()
	startOperator(t, cfg, p.play, "op-1", false)
	run := createRun(t, c, "quickstart")

	st := waitStatus(t, c, "quickstart", terminal)
	if st.Phase != status.PhaseBlocker || st.ObservedGeneration != 1 || len(st.Gaps) != 1 || st.Gaps[0].Location.LineNumber != 35 {
		t.Errorf("status %+v", st)
	}
	if len(st.History) != 1 || st.History[0].StudentOutput.Line != 35 || st.Attempt != nil {
		t.Errorf("history %+v, attempt %+v", st.History, st.Attempt)
	}
	if c := st.Condition(status.ConditionSucceeded); c == nil || c.Status != status.ConditionFalse || c.ObservedGeneration != 1 {
		t.Errorf("Succeeded condition %+v", c)
	}
	calls := p.all()
	if len(calls) != 1 || calls[0].Name != "smile-quickstart-student-g1" || calls[0].Instance != "op-1" {
		t.Fatalf("plays %+v", calls)
	}
	if d := calls[0].Desired; d.Config.ContainerImage != "smile-k8s-base:latest" || d.Tutorial == nil || !strings.HasSuffix(d.Paths.Tutorial, "/tutorial.md") || d.Config.StudentBehavior.TimeoutSeconds != 30 {
		t.Errorf("desired run %+v", d.Config)
	}
	if got := waitEvents(t, c, "quickstart", "Started", "Blocker"); !strings.Contains(got, "Started") || !strings.Contains(got, "Blocker") {
		t.Errorf("events %q, want Started and Blocker", got)
	}

	// A changed spec is a new generation, played again.
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(run), run); err != nil {
		t.Fatal(err)
	}
	run.Object["spec"].(map[string]any)["maxIterations"] = int64(2)
	if err := c.Update(t.Context(), run); err != nil {
		t.Fatal(err)
	}
	st = waitStatus(t, c, "quickstart", func(st status.Status) bool { return st.ObservedGeneration == 2 && terminal(st) })
	if calls := p.all(); len(calls) != 2 || calls[1].Name != "smile-quickstart-student-g2" {
		t.Errorf("plays after the change %+v", calls)
	}
}

// The status in the API is the crash-resume state: a run left
// RunningStudent by an operator that died is played again by the next one,
// from the top, with an Event saying so.
func TestOperatorResumesFromTheStatus(t *testing.T) {
	cfg := apiServer(t)
	c := newClient(t, cfg)
	p := stuckAt35()
	// The first operator starts the run and stops mid-attempt, writing
	// nothing more.
	first := startOperator(t, cfg, blocked, "op-dead", false)
	createRun(t, c, "resume")
	waitStatus(t, c, "resume", func(st status.Status) bool {
		return st.Phase == status.PhaseRunningStudent && st.Attempt != nil
	})
	time.Sleep(300 * time.Millisecond) // its attempt is under way
	first.stop()
	startOperator(t, cfg, p.play, "op-next", false)
	st := waitStatus(t, c, "resume", terminal)
	if st.Phase != status.PhaseBlocker {
		t.Errorf("phase %s", st.Phase)
	}
	calls := p.all()
	if len(calls) != 1 || calls[0].Name != "smile-resume-student-g1" {
		t.Errorf("the next operator played %+v", calls)
	}
	if got := waitEvents(t, c, "resume", "Resumed"); !strings.Contains(got, "Resumed") {
		t.Errorf("events %q, want Resumed", got)
	}
}

// Two operators with leader election: one acts; when it stops, the other
// takes over.
func TestLeaderElectionOneOperatorActs(t *testing.T) {
	cfg := apiServer(t)
	c := newClient(t, cfg)
	a, b := stuckAt35(), stuckAt35()
	opA := startOperator(t, cfg, a.play, "op-a", true)
	waitElected(t, opA)
	opB := startOperator(t, cfg, b.play, "op-b", true)
	for _, name := range []string{"le-1", "le-2", "le-3"} {
		createRun(t, c, name)
	}
	for _, name := range []string{"le-1", "le-2", "le-3"} {
		waitStatus(t, c, name, terminal)
	}
	if len(a.all()) != 3 || len(b.all()) != 0 {
		t.Fatalf("op-a played %d, op-b %d: want 3 and 0", len(a.all()), len(b.all()))
	}
	opA.stop()
	waitElected(t, opB)
	createRun(t, c, "le-4")
	waitStatus(t, c, "le-4", terminal)
	if got := b.all(); len(got) != 1 || got[0].Name != "smile-le-4-student-g1" || !slices.ContainsFunc(got, func(s Student) bool { return s.Instance == "op-b" }) {
		t.Errorf("op-b played %+v", got)
	}
}
