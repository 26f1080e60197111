package reconcile

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// While the first Student works, the next Student's container is started
// idle, and the second Student's attempt adopts it instead of starting
// another. The literal Mentor, which only reads the work folder here, never
// gets a container: it starts one on demand, and did not need one.
func TestNextStudentIsPreparedAndTheMentorStartsNoContainer(t *testing.T) {
	h := newHarness(t, "  resume: fromStart\n")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nRun it:\n\n```bash\necho port > config.yaml\ncat conifg.yaml\n```\n")
	localHands(t, h)
	// Every transition's status, as it was saved: a fast Mentor can come and
	// go within one settle, so the phases are read from them, not polled.
	h.rec.Events = &events.Hub{}
	sub := h.rec.Events.Subscribe()
	woken := startBrains(t, h)
	run := h.settleUntil(woken, "the second Student's result", func(r *status.Run) bool { return len(r.Status.History) >= 2 })
	var mentorAttempt, secondStudent *status.Attempt
	for len(sub.C) > 0 {
		e := <-sub.C
		switch st := e.Run.Status; {
		case st.Phase == status.PhaseWaitingForMentor && st.Attempt != nil && mentorAttempt == nil:
			mentorAttempt = st.Attempt
		case st.Phase == status.PhaseWaitingForStudent && st.Iteration == 2 && st.Attempt != nil && secondStudent == nil:
			secondStudent = st.Attempt
		}
	}
	if mentorAttempt == nil || !mentorAttempt.OnDemand || mentorAttempt.ContainerID != "" {
		t.Fatalf("the Mentor's attempt %+v: want one whose container starts on demand", mentorAttempt)
	}
	if secondStudent == nil {
		t.Fatal("no transition had the second Student at work")
	}
	student, ok := h.rt.StartedWith(secondStudent.Container)
	if !ok || student.Labels[labelPrepared] != "true" || student.Labels[runtime.LabelIteration] != "2" {
		t.Fatalf("the second Student's container %+v: want the one prepared while the first Student worked", student)
	}
	if n := len(run.Status.MentorNotes); n != 1 || run.Status.MentorNotes[0].Workaround == "" {
		t.Fatalf("Mentor notes %+v: want the Mentor's workaround for the misspelt name", run.Status.MentorNotes)
	}
	mentor := newLayout("demo", h.stateFile()).container(1, 1, status.RoleMentor)
	if slices.Contains(h.rt.Started(), mentor) {
		t.Errorf("containers started %q: the Mentor's %s among them, want none for a Mentor that only read the work folder", h.rt.Started(), mentor)
	}
}

// A literal Mentor that must look into its container (which package gives a
// missing program) starts it then, and it is gone once the Mentor answered.
func TestMentorStartsItsContainerOnDemand(t *testing.T) {
	// The test's "container" is this machine: the program must be missing
	// here, and known to the Mentor's table (no look-up in apt's lists).
	if _, err := exec.LookPath("tree"); err == nil {
		t.Skip("tree is installed here")
	}
	h := newHarness(t, "")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nList it:\n\n```bash\ntree .\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)
	run := h.settleUntil(woken, "the Mentor's answer", func(r *status.Run) bool { return len(r.Status.MentorNotes) == 1 })
	mentor := newLayout("demo", h.stateFile()).container(1, 1, status.RoleMentor)
	if !slices.Contains(h.rt.Started(), mentor) {
		t.Fatalf("containers started %q: want the Mentor's %s, started to look the program up", h.rt.Started(), mentor)
	}
	if n := run.Status.MentorNotes[0]; n.Line != 6 {
		t.Errorf("Mentor note %+v: want one about line 6", n)
	}
	h.rec.containers().Wait()
	if c, err := h.rt.Inspect(context.Background(), mentor); err == nil {
		t.Errorf("the Mentor's container %+v is still there after its answer", c)
	}
}

// With checkpoints and none kept yet, a Student's start prepares the next
// Student's container (and none for the literal Mentor); a result that kept
// a checkpoint drops it (the next Student starts from the checkpoint's
// image), unless a clean replay comes next.
func TestPreparedNextStudentIsDroppedWhenACheckpointIsKept(t *testing.T) {
	h := newHarness(t, "")
	// The Student stays at its first step while the test looks.
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nWait:\n\n```bash\nsleep 30\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)
	h.settleUntil(woken, "the Student at work", func(r *status.Run) bool { return r.Status.Phase == status.PhaseWaitingForStudent })
	h.rec.containers().Wait()
	lay := newLayout("demo", h.stateFile())
	next := lay.container(1, 2, status.RoleStudent)
	if c, err := h.rt.Inspect(context.Background(), next); err != nil || c.Labels[labelPrepared] != "true" {
		t.Fatalf("container %s: %+v, %v; want it prepared while the first Student works", next, c, err)
	}
	if c, err := h.rt.Inspect(context.Background(), lay.container(1, 1, status.RoleMentor)); err == nil {
		t.Fatalf("the literal Mentor's container %+v was prepared", c)
	}
	d, err := spec.Resolve(h.rec.Runs.(mapSource)["demo"].Manifest, h.dir)
	if err != nil {
		t.Fatal(err)
	}
	kept := &planner.Posted{Student: &wire.StudentResultRequest{Checkpoints: []status.Checkpoint{{Ref: "snap", Line: 6}}}}
	for _, tc := range []struct {
		name string
		plan planner.Plan
		gone bool
	}{
		{"a clean replay next", planner.Plan{Verify: true, Phase: status.PhaseRunningStudent}, false},
		{"the Mentor next", planner.Plan{Phase: status.PhaseRunningMentor}, true},
	} {
		tr := &transition{r: h.rec, d: d, lay: lay, run: h.state(), plan: tc.plan}
		tr.dropPrepared(kept)
		h.rec.containers().Wait()
		if _, err := h.rt.Inspect(context.Background(), next); (err != nil) != tc.gone {
			t.Errorf("%s: the prepared container after the result: %v, want gone %v", tc.name, err, tc.gone)
		}
	}
}

// The second Student replays what the first got through, up to the line it
// stopped at; only past it could it stop again. Here nothing comes after
// that line: no third Student's container is started, to be removed unused.
func TestLastReplayPreparesNoContainerItWillNotUse(t *testing.T) {
	h := newHarness(t, "  resume: fromStart\n")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nRun it:\n\n```bash\necho port > config.yaml\ncat conifg.yaml\n```\n\nYou see:\n\n```\nport\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)
	run := h.settleUntil(woken, "the end", func(r *status.Run) bool { return r.Status.Phase.Terminal() })
	if run.Status.Phase != status.PhaseCompleted || run.Status.Iteration != 2 {
		t.Fatalf("phase %s in iteration %d, want completed in iteration 2", run.Status.Phase, run.Status.Iteration)
	}
	lay := newLayout("demo", h.stateFile())
	want := []string{lay.container(1, 1, status.RoleStudent), lay.container(1, 2, status.RoleStudent)}
	// The second Student's container is prepared in the background while the
	// first works, so the two may start in either order: compare as sets.
	got := slices.Clone(h.rt.Started())
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("containers started %q, want %q", got, want)
	}
}

func TestLaterPrepStartsOncePastItsLine(t *testing.T) {
	rt := fake.New("img")
	p := pool.New(context.Background(), rt, logr.Discard())
	l := &laterPrep{line: 35, item: pool.Item{Spec: runtime.ContainerSpec{Name: "next", Image: "img"}}}
	for _, line := range []int{9, 17, 35, 39, 39} {
		l.past(p, line)
	}
	p.Wait()
	if got := rt.Started(); len(got) != 0 {
		t.Fatalf("started %q before the learner was two steps past line 35", got)
	}
	l.past(p, 45)
	l.past(p, 50)
	p.Wait()
	if got := rt.Started(); !slices.Equal(got, []string{"next"}) {
		t.Fatalf("started %q, want the next Student's once", got)
	}
	(*laterPrep)(nil).past(p, 99) // no preparation: nothing happens
}

// keepOnFailure keeps the containers that worked, for debugging: not the
// next Student's, prepared for an iteration that never came.
func TestKeepOnFailureKeepsNoPreparedContainer(t *testing.T) {
	h := newHarness(t, "")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nGo there:\n\n```bash\ncd \"$APP_HOME\"\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)
	run := h.settleUntil(woken, "the end", func(r *status.Run) bool { return r.Status.Report != nil })
	if run.Status.Phase != status.PhaseBlocker {
		t.Fatalf("phase %s, want a blocker", run.Status.Phase)
	}
	lay := newLayout("demo", h.stateFile())
	if !slices.Contains(h.rt.Started(), lay.container(1, 2, status.RoleStudent)) {
		t.Fatalf("containers started %q: no next Student was prepared, nothing to test", h.rt.Started())
	}
	left, _ := h.rt.List(context.Background(), map[string]string{runtime.LabelRun: "demo"})
	var names []string
	for _, c := range left {
		names = append(names, c.Name)
	}
	if want := []string{lay.container(1, 1, status.RoleStudent)}; !slices.Equal(names, want) {
		t.Errorf("kept %q, want only the Student's that worked %q", names, want)
	}
}
