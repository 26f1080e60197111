package status

import (
	"strings"
	"testing"
	"time"
)

func TestSummarizeCountsBlocksByOutcome(t *testing.T) {
	c := Summarize([]BlockCoverage{
		{Line: 3, Outcome: OutcomeRun, Lines: 2, Covered: 2},
		{Line: 8, Outcome: OutcomeWritten, Lines: 4, Covered: 4},
		{Line: 14, Outcome: OutcomeCompared, Lines: 1, Covered: 1},
		{Line: 18, Outcome: OutcomeSkipped, Reason: "a Windows powershell block", Lines: 1},
		{Line: 22, Outcome: OutcomeSkipped, Reason: "display text", Lines: 3},
		{Line: 28, Outcome: OutcomeSkipped, Reason: "a Windows powershell block", Lines: 2},
		{Line: 33, Outcome: OutcomeNotReached, Lines: 1},
	})
	if c.Blocks != 7 || c.Exercised != 3 || c.Run != 1 || c.Written != 1 || c.Compared != 1 || c.Skipped != 3 || c.NotReached != 1 {
		t.Errorf("counts %+v", c)
	}
	if c.Lines != 14 || c.LinesCovered != 7 {
		t.Errorf("lines %d of %d, want 7 of 14", c.LinesCovered, c.Lines)
	}
	if len(c.SkippedBy) != 2 || c.SkippedBy[0].Reason != "a Windows powershell block" || c.SkippedBy[0].Blocks != 2 ||
		c.SkippedBy[0].Lines[1] != 28 || c.SkippedBy[1].Blocks != 1 {
		t.Errorf("skipped by reason %+v", c.SkippedBy)
	}
	if c.Cell() != "3/7" || c.Percent() != 42 {
		t.Errorf("cell %s, percent %d", c.Cell(), c.Percent())
	}
}

func TestCoverageBelowAMinimum(t *testing.T) {
	half := &Coverage{Blocks: 4, Exercised: 2}
	for _, tc := range []struct {
		c    *Coverage
		min  float64
		want bool
	}{
		{half, 0.5, false},
		{half, 0.51, true},
		{half, 0, false},
		{nil, 0.5, false}, // unknown is never judged
		{&Coverage{Blocks: 6}, 0.5, true},
		{&Coverage{}, 0.5, true}, // no code at all: nothing exercised
		{&Coverage{Blocks: 3, Exercised: 1}, 1.0 / 3, false},
	} {
		if got := tc.c.Below(tc.min); got != tc.want {
			t.Errorf("%+v below %v: %v, want %v", tc.c, tc.min, got, tc.want)
		}
	}
}

// Other variants of steps the Student followed are left out of the share.
func TestCoverageLeavesOutAlternatives(t *testing.T) {
	c := Summarize([]BlockCoverage{
		{Line: 5, Outcome: OutcomeRun, Lines: 1, Covered: 1},
		{Line: 11, Outcome: OutcomeAlternative, Reason: "another variant of the step at line 5", Lines: 1},
		{Line: 17, Outcome: OutcomeAlternative, Reason: "another variant of the step at line 5", Lines: 1},
		{Line: 23, Outcome: OutcomeSkipped, Reason: "a Windows powershell block", Lines: 1},
	})
	if c.Alternatives != 2 || c.Skipped != 1 || len(c.SkippedBy) != 1 || c.Path() != 2 || c.Cell() != "1/2" || c.Below(0.5) || !c.Below(0.51) {
		t.Errorf("coverage %+v", c)
	}
	if s := c.Sentence(); s != "SMILE exercised 1 of the 2 code blocks on its path (50%; the page has 4, 2 of them other variants of steps it followed): 1 run, 0 written, 0 compared; 1 skipped, 0 not reached" {
		t.Errorf("sentence %q", s)
	}
}

func TestCoverageSentence(t *testing.T) {
	if s := (&Coverage{Blocks: 6, Skipped: 6}).Sentence(); s != "SMILE exercised 0 of 6 code blocks: it could not follow this page" {
		t.Errorf("nothing exercised: %q", s)
	}
	s := (&Coverage{Blocks: 14, Exercised: 9, Run: 7, Written: 1, Compared: 1, Skipped: 3, NotReached: 2}).Sentence()
	if s != "SMILE exercised 9 of 14 code blocks (64%): 7 run, 1 written, 1 compared; 3 skipped, 2 not reached" {
		t.Errorf("sentence %q", s)
	}
	if s := (&Coverage{}).Sentence(); s != "SMILE exercised no code block: the page has none, so there was nothing to follow" {
		t.Errorf("no code block: %q", s)
	}
	if s := (*Coverage)(nil).Sentence(); !strings.Contains(s, "unknown") {
		t.Errorf("unknown: %q", s)
	}
	if v := (&Coverage{Blocks: 4, Exercised: 1, Run: 1, Skipped: 3}).Verdict(0.5); !strings.Contains(v, "less than the 50% minCoverage") {
		t.Errorf("verdict %q", v)
	}
}

// The run's coverage is its best attempt's: a later attempt that stopped
// earlier (a replay that failed) does not lower it, one that cannot count
// does not erase it.
func TestRunCoverageIsTheBestAttempts(t *testing.T) {
	st := Status{History: []IterationRecord{
		{StudentOutput: StudentOutput{Coverage: &Coverage{Blocks: 5, Exercised: 2}}},
		{StudentOutput: StudentOutput{Coverage: &Coverage{Blocks: 5, Exercised: 4}}},
		{StudentOutput: StudentOutput{Coverage: &Coverage{Blocks: 5, Exercised: 3}}},
		{StudentOutput: StudentOutput{}},
	}}
	if c := st.RunCoverage(); c == nil || c.Exercised != 4 {
		t.Errorf("run coverage %+v, want the attempt that exercised 4", c)
	}
	if c := (&Status{}).RunCoverage(); c != nil {
		t.Errorf("no attempt: %+v", c)
	}
}

// An Inconclusive run ended as it should (Ready) but neither passed nor
// failed: Succeeded=False with reason Inconclusive, get's RESULT.
func TestInconclusiveConditions(t *testing.T) {
	run := &Run{Metadata: Metadata{Generation: 1}}
	run.Status = Status{Phase: PhaseInconclusive, Reason: ReasonLowCoverage, Message: "SMILE exercised 0 of 6 code blocks", ObservedGeneration: 1}
	run.SetConditions(time.Now())
	if c := run.Status.Condition(ConditionSucceeded); c == nil || c.Status != ConditionFalse || c.Reason != ReasonInconclusive {
		t.Errorf("Succeeded %+v", c)
	}
	if c := run.Status.Condition(ConditionReady); c == nil || c.Status != ConditionTrue || c.Reason != ReasonLowCoverage {
		t.Errorf("Ready %+v", c)
	}
	if !PhaseInconclusive.Terminal() || PhaseInconclusive.LoopStatus() != "inconclusive" {
		t.Errorf("Inconclusive is terminal, loop status %q", PhaseInconclusive.LoopStatus())
	}
}
