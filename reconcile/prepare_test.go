package reconcile

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// While the Student works, the Mentor's container is started idle; the
// Mentor's attempt adopts it instead of starting another. With resume
// fromStart, the next Student's is prepared while the Mentor works.
func TestNextRolesContainerIsPreparedAndAdopted(t *testing.T) {
	h := newHarness(t, "  resume: fromStart\n")
	write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nRun it:\n\n```bash\necho port > config.yaml\ncat conifg.yaml\n```\n")
	localHands(t, h)
	woken := startBrains(t, h)
	run := h.settleUntil(woken, "the Mentor at work", func(r *status.Run) bool { return r.Status.Phase == status.PhaseWaitingForMentor })
	mentor, err := h.rt.Inspect(context.Background(), run.Status.Attempt.Container)
	if err != nil {
		t.Fatal(err)
	}
	if mentor.Labels[labelPrepared] != "true" || mentor.ID != run.Status.Attempt.ContainerID {
		t.Fatalf("the Mentor's container %+v (attempt %+v): want the one prepared while the Student worked", mentor, run.Status.Attempt)
	}
	run = h.settleUntil(woken, "the second Student at work", func(r *status.Run) bool {
		return r.Status.Phase == status.PhaseWaitingForStudent && r.Status.Iteration == 2
	})
	student, err := h.rt.Inspect(context.Background(), run.Status.Attempt.Container)
	if err != nil {
		t.Fatal(err)
	}
	if student.Labels[labelPrepared] != "true" || student.ID != run.Status.Attempt.ContainerID || student.Labels[runtime.LabelIteration] != "2" {
		t.Fatalf("the second Student's container %+v: want the one prepared while the Mentor worked", student)
	}
}

// With checkpoints and none kept yet, a Student's start prepares both the
// Mentor's container and the next Student's; a result that kept a
// checkpoint drops the next Student's (it will start from the
// checkpoint's image), unless a clean replay comes next.
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
	for _, name := range []string{lay.container(1, 1, status.RoleMentor), next} {
		if c, err := h.rt.Inspect(context.Background(), name); err != nil || c.Labels[labelPrepared] != "true" {
			t.Fatalf("container %s: %+v, %v; want it prepared while the first Student works", name, c, err)
		}
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
