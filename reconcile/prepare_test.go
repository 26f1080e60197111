package reconcile

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
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
