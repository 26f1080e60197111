package status

import "testing"

func TestDropConsequences(t *testing.T) {
	gap := func(line int, c Category, it int) Gap {
		return Gap{Category: c, Location: GapLocation{LineNumber: line}, Iteration: it}
	}
	st := Status{
		Gaps: []Gap{
			gap(5, CategoryCommandFailure, 1),     // before the workaround's line
			gap(10, CategoryMissingDependency, 1), // the failure the workaround answered
			gap(20, CategoryOutputMismatch, 1),    // a consequence: passes in iteration 2
			gap(30, CategoryOutputMismatch, 1),    // met again in iteration 2
			gap(40, CategoryAmbiguousInstruction, 1),
			gap(50, CategoryMissingFile, 1), // its block not reached in iteration 2
		},
		MentorNotes: []MentorNote{{Iteration: 1, Line: 10, Resolution: ResolutionWorkaround, Workaround: "apt-get install -y gcc"}},
	}
	out := StudentOutput{
		Findings: []Finding{{Line: 30, Category: CategoryOutputMismatch}},
		Coverage: Summarize([]BlockCoverage{
			{Line: 3, EndLine: 6, Outcome: OutcomeRun}, {Line: 9, EndLine: 11, Outcome: OutcomeRun},
			{Line: 18, EndLine: 22, Outcome: OutcomeCompared}, {Line: 28, EndLine: 32, Outcome: OutcomeCompared},
			{Line: 38, EndLine: 42, Outcome: OutcomeRun}, {Line: 48, EndLine: 52, Outcome: OutcomeNotReached},
		}),
	}
	dropped := st.DropConsequences(out, 2)
	if len(dropped) != 1 || dropped[0].Gap.Location.LineNumber != 20 || dropped[0].CauseLine != 10 || dropped[0].Iteration != 2 {
		t.Fatalf("dropped %+v, want only line 20 as line 10's consequence", dropped)
	}
	var lines []int
	for i, g := range st.Gaps {
		lines = append(lines, g.Location.LineNumber)
		if g.ID != i+1 {
			t.Errorf("gap at line %d has ID %d, want %d", g.Location.LineNumber, g.ID, i+1)
		}
	}
	if len(lines) != 5 || lines[2] != 30 {
		t.Errorf("kept %v", lines)
	}
	// A gap the Mentor answered at its own line passes later because of its
	// own workaround: it stays, even with an earlier workaround before it.
	st3 := Status{
		Gaps: []Gap{gap(10, CategoryMissingFile, 1), gap(20, CategoryOutputMismatch, 1)},
		MentorNotes: []MentorNote{{Iteration: 1, Line: 10, Resolution: ResolutionWorkaround, Workaround: "ln -s a b"},
			{Iteration: 2, Line: 20, Resolution: ResolutionWorkaround, Workaround: "chmod +x run.sh"}},
	}
	if d := st3.DropConsequences(out, 3); len(d) != 0 {
		t.Errorf("dropped %+v, a gap with its own workaround", d)
	}
	// Without a workaround nothing is a consequence.
	st2 := Status{Gaps: []Gap{gap(20, CategoryOutputMismatch, 1)}}
	if d := st2.DropConsequences(out, 2); len(d) != 0 {
		t.Errorf("dropped %+v with no workaround before it", d)
	}
}
