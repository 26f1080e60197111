package planner_test

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/status"
)

// posted is the Student's answer with a coverage.
func posted(s status.StudentStatus, c *status.Coverage) *planner.Posted {
	p := plantest.StudentPosted(s)
	p.Student.StudentOutput.Coverage = c
	return p
}

// A Student that went through the page but exercised less of its code
// blocks than minCoverage ends the run Inconclusive, never Completed; one
// that stopped before the rest of the page ends as it did; minCoverage 0
// and an unknown coverage change nothing.
func TestDecideInconclusiveBelowMinCoverage(t *testing.T) {
	low := &status.Coverage{Blocks: 6, Exercised: 1, Run: 1, Skipped: 5}
	none := &status.Coverage{Blocks: 6, Skipped: 6}
	stopped := &status.Coverage{Blocks: 6, Exercised: 1, Run: 1, NotReached: 5}
	enough := &status.Coverage{Blocks: 6, Exercised: 3, Run: 3, Skipped: 3}
	for _, tc := range []struct {
		name    string
		out     *planner.Posted
		min     float64
		history []*status.Coverage
		phase   status.Phase
		message string
	}{
		{"completed with 1 of 6", posted(status.StudentCompleted, low), 0.5, nil, status.PhaseInconclusive, "SMILE exercised 1 of 6 code blocks (16%)"},
		{"nothing to follow", posted(status.StudentCannotComplete, none), 0.5, nil, status.PhaseInconclusive, "SMILE exercised 0 of 6 code blocks: it could not follow this page"},
		{"completed with half", posted(status.StudentCompleted, enough), 0.5, nil, status.PhaseCompleted, ""},
		{"minCoverage 0 turns it off", posted(status.StudentCompleted, none), 0, nil, status.PhaseCompleted, ""},
		{"unknown coverage (a model-backed learner)", posted(status.StudentCompleted, nil), 0.5, nil, status.PhaseCompleted, ""},
		{"stopped before the rest: a blocker", posted(status.StudentCannotComplete, stopped), 0.5, nil, status.PhaseBlocker, ""},
		{"asked the Mentor: the loop goes on", posted(status.StudentAskMentor, stopped), 0.5, nil, status.PhaseRunningMentor, ""},
		{"an earlier attempt's better coverage counts", posted(status.StudentCompleted, low), 0.5, []*status.Coverage{enough}, status.PhaseCompleted, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := plantest.Desired()
			d.Config.MinCoverage = tc.min
			run := plantest.RunIn(status.PhaseWaitingForStudent, 1)
			for _, c := range tc.history {
				run.Status.History = append(run.Status.History, status.IterationRecord{StudentOutput: status.StudentOutput{Coverage: c}})
			}
			plan := planner.Decide(planner.Input{Now: plantest.T0.Add(time.Minute), Desired: d, Run: run,
				Observed: planner.Observed{Containers: plantest.Running("c-student"), Result: tc.out}})
			if plan.Action != planner.ActStudentResult || plan.Phase != tc.phase {
				t.Fatalf("plan %+v, want %s", plan, tc.phase)
			}
			if tc.phase == status.PhaseInconclusive && (plan.Reason != status.ReasonLowCoverage || !strings.Contains(plan.Message, tc.message) ||
				!strings.Contains(plan.Message, "less than the 50% minCoverage")) {
				t.Errorf("reason %s, message %q, want LowCoverage and %q", plan.Reason, plan.Message, tc.message)
			}
		})
	}
}

// The clean replay after a completion from a checkpoint is judged by
// coverage as the completion is, even when the replay stops.
func TestVerificationReplayIsInconclusiveBelowMinCoverage(t *testing.T) {
	run := plantest.RunIn(status.PhaseWaitingForStudent, 2)
	run.Status.Verification = &status.Verification{Iteration: 2}
	run.Status.History = []status.IterationRecord{{StudentOutput: status.StudentOutput{Status: status.StudentCompleted,
		Coverage: &status.Coverage{Blocks: 4, Exercised: 1, Run: 1, Skipped: 3}}}}
	plan := planner.Decide(planner.Input{Now: plantest.T0.Add(time.Minute), Desired: plantest.Desired(), Run: run,
		Observed: planner.Observed{Containers: plantest.Running("c-student"), Result: posted(status.StudentAskMentor, nil)}})
	if plan.Phase != status.PhaseInconclusive {
		t.Fatalf("plan %+v, want Inconclusive", plan)
	}
}
