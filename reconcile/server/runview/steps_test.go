package runview

import (
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

func coverage(blocks ...status.BlockCoverage) *status.Coverage { return status.Summarize(blocks) }

func TestStepsOfAFinishedRun(t *testing.T) {
	st := &status.Status{Phase: status.PhaseCompleted,
		Gaps: []status.Gap{{Title: "run.sh is not executable", Severity: "critical", Location: status.GapLocation{LineNumber: 11}}},
		History: []status.IterationRecord{{Iteration: 2, StudentOutput: status.StudentOutput{Coverage: coverage(
			status.BlockCoverage{Line: 3, EndLine: 6, Outcome: status.OutcomeWritten},
			status.BlockCoverage{Line: 9, EndLine: 12, Outcome: status.OutcomeRun},
			status.BlockCoverage{Line: 15, EndLine: 17, Outcome: status.OutcomeSkipped, Reason: "for macOS"},
			status.BlockCoverage{Line: 20, EndLine: 22, Outcome: status.OutcomeNotReached},
		)}}}}
	audits := []status.Audit{
		{Commands: []status.AuditCommand{{Iteration: 1, Line: 10, DurationMs: 900}, {Iteration: 1, Line: 11, DurationMs: 40}}},
		{Commands: []status.AuditCommand{{Iteration: 2, Line: 10, DurationMs: 800}, {Iteration: 2, Line: 11, DurationMs: 30},
			{Iteration: 2, Line: 11, DurationMs: 5000, Workaround: true}}},
	}
	got := Steps(StepsInput{Status: st, Audits: audits})
	want := []Step{
		{Block: Block{3, 6}, Mark: MarkPassed},
		{Block: Block{9, 12}, Mark: MarkFailed, Reason: "critical gap: run.sh is not executable", DurationMs: 830, Commands: 2, Iteration: 2},
		{Block: Block{15, 17}, Mark: MarkSkipped, Reason: "for macOS"},
		{Block: Block{20, 22}, Mark: MarkNotReached},
	}
	if len(got) != len(want) {
		t.Fatalf("steps %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("step %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

// A run in progress marks by where its Student is: the coverage of an
// earlier attempt is not what this one has done.
func TestStepsOfARunInProgress(t *testing.T) {
	st := &status.Status{Phase: status.PhaseWaitingForStudent,
		Attempt: &status.Attempt{Role: status.RoleStudent, Iteration: 2, StartedAt: time.Now()},
		History: []status.IterationRecord{{Iteration: 1, StudentOutput: status.StudentOutput{Coverage: coverage(
			status.BlockCoverage{Line: 3, EndLine: 6, Outcome: status.OutcomeRun})}}}}
	blocks := []Block{{3, 6}, {9, 12}, {15, 17}}
	got := Steps(StepsInput{Status: st, Blocks: blocks, CurrentLine: 10})
	marks := []Mark{MarkRun, MarkRunning, MarkPending}
	for i, m := range marks {
		if got[i].Mark != m {
			t.Errorf("step at line %d: %s, want %s", got[i].Line, got[i].Mark, m)
		}
	}
}

// A finished run whose learner reports no coverage (a model-backed one) says
// so rather than guessing.
func TestStepsWithoutCoverage(t *testing.T) {
	st := &status.Status{Phase: status.PhaseCompleted}
	got := Steps(StepsInput{Status: st, Blocks: []Block{{3, 6}}})
	if len(got) != 1 || got[0].Mark != MarkUnknown {
		t.Errorf("steps %+v, want one unknown", got)
	}
}
