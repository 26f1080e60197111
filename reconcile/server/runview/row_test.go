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
	r := RowOf("a", run)
	if r.Result != "completed" || !r.Terminal || r.Coverage != "1/2" || r.CoveragePercent != 50 || r.Gaps != 2 ||
		r.Generation != 2 || !r.CreatedAt.Equal(created) {
		t.Errorf("row %+v", r)
	}
	if p := RowOf("b", nil); p.Result != "running" || p.Coverage != "-" || p.CoveragePercent != -1 {
		t.Errorf("row of an unsaved run %+v", p)
	}
}
