package runview

import (
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

func TestRowOf(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	run := &status.Run{Metadata: status.Metadata{Name: "a", Generation: 2, CreationTimestamp: created},
		Status: status.Status{Phase: status.PhaseCompleted, Iteration: 3, Gaps: []status.Gap{{}, {}},
			History: []status.IterationRecord{{StudentOutput: status.StudentOutput{Coverage: coverage(
				status.BlockCoverage{Line: 1, Outcome: status.OutcomeRun},
				status.BlockCoverage{Line: 5, Outcome: status.OutcomeNotReached})}}}}}
	run.SetConditions(created)
	r := RowOf("a", run)
	if r.Result != "GapsFound" || !r.Terminal || r.Coverage != "1/2" || r.CoveragePercent != 50 || r.Gaps != 2 ||
		r.Generation != 2 || !r.CreatedAt.Equal(created) {
		t.Errorf("row %+v", r)
	}
	if p := RowOf("b", nil); p.Result != "running" || p.Coverage != "-" || p.CoveragePercent != -1 {
		t.Errorf("row of an unsaved run %+v", p)
	}
}

func TestRowResultIsGetsResult(t *testing.T) {
	for _, tc := range []struct {
		phase status.Phase
		gaps  int
		want  string
	}{
		{status.PhaseCompleted, 0, "Passed"},
		{status.PhaseCompleted, 1, "GapsFound"},
		{status.PhaseStopped, 0, "Stopped"},
		{status.PhaseWaitingForStudent, 0, "running"},
	} {
		run := &status.Run{Status: status.Status{Phase: tc.phase, Gaps: make([]status.Gap, tc.gaps)}}
		run.SetConditions(time.Now())
		if got := RowOf("a", run).Result; got != tc.want {
			t.Errorf("%s with %d gaps: result %q, want %q", tc.phase, tc.gaps, got, tc.want)
		}
	}
}
