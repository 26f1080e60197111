package status

import (
	"fmt"
	"slices"
	"testing"
)

// Severity follows the cause: the tutorial's own gap that ends a run is
// critical; what the container lacked, or output shown only as an example,
// never is.
func TestGapSeverityByCause(t *testing.T) {
	tests := []struct {
		name    string
		finding Finding
		blocked bool
		want    Severity
	}{
		{"tutorial gap", Finding{Category: CategoryMissingFile, Line: 5}, false, SeverityMajor},
		{"tutorial gap the run ended on", Finding{Category: CategoryMissingFile, Line: 5}, true, SeverityCritical},
		{"environment", Finding{Category: CategoryEnvironment, Line: 5}, false, SeverityMinor},
		{"environment the run ended on", Finding{Category: CategoryEnvironment, Line: 5}, true, SeverityMajor},
		{"tolerant output", Finding{Category: CategoryOutputMismatch, Line: 5, Tolerant: true}, false, SeverityMinor},
		{"tolerant output the run ended on", Finding{Category: CategoryOutputMismatch, Line: 5, Tolerant: true}, true, SeverityMinor},
		{"failed optional step", Finding{Category: CategoryCommandFailure, Line: 5, Optional: 3}, false, SeverityMinor},
		{"failed optional step the run ended on", Finding{Category: CategoryCommandFailure, Line: 5, Optional: 3}, true, SeverityMinor},
		{"plain output mismatch the run ended on", Finding{Category: CategoryOutputMismatch, Line: 5}, true, SeverityCritical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.finding
			f.Asked = tt.blocked
			st := &Status{Phase: PhaseBlocker}
			st.MergeFindings(nil, []Finding{f}, 1)
			st.History = []IterationRecord{{StudentOutput: StudentOutput{Findings: []Finding{f}}}}
			st.MarkBlocking()
			if len(st.Gaps) != 1 || st.Gaps[0].Severity != tt.want {
				t.Fatalf("gaps = %+v, want one %s", st.Gaps, tt.want)
			}
		})
	}
}

func TestMergeFindingsCarriesBackReferences(t *testing.T) {
	st := &Status{}
	st.MergeFindings(nil, []Finding{{Category: CategoryOutputMismatch, Line: 20, Lines: []int{31, 20, 26},
		CauseLine: 12, CauseQuote: "Create `app.py`:", Tolerant: true}}, 1)
	st.MergeFindings(nil, []Finding{{Category: CategoryOutputMismatch, Line: 20, Lines: []int{40, 26}}}, 2)
	st.MergeFindings(nil, []Finding{{Category: CategoryEnvironment, Line: 7, Command: "curl https://example.org"}}, 2)
	if len(st.Gaps) != 2 {
		t.Fatalf("gaps = %+v", st.Gaps)
	}
	env, out := st.Gaps[0], st.Gaps[1]
	if !slices.Equal(out.Lines, []int{26, 31, 40}) || out.CauseLine != 12 || out.CauseQuote != "Create `app.py`:" || !out.Tolerant || out.Iteration != 1 {
		t.Errorf("output gap = %+v", out)
	}
	if env.Title != "Environment, not the tutorial: curl https://example.org" {
		t.Errorf("environment title = %q", env.Title)
	}
}

// One command's failure at one line is one gap, though two iterations
// classified it differently; a later environment diagnosis relabels it. A
// different command, or an output difference, at the same line stays apart.
func TestMergeFindingsOneGapPerFailure(t *testing.T) {
	var st Status
	st.MergeFindings(nil, []Finding{{Category: CategoryCommandFailure, Line: 12, Command: "man ls", Problem: "exit 16"}}, 1)
	st.MergeFindings(nil, []Finding{{Category: CategoryMissingDependency, Line: 12, Command: "man ls", Problem: "man is not installed"}}, 2)
	st.MergeFindings(nil, []Finding{{Category: CategoryOutputMismatch, Line: 12, Command: "man ls"}}, 2)
	st.MergeFindings(nil, []Finding{{Category: CategoryMissingFile, Line: 12, Command: "cat notes"}}, 2)
	var got []string
	for _, g := range st.Gaps {
		got = append(got, fmt.Sprintf("%d %s %s", g.Location.LineNumber, g.Category, g.Command))
	}
	want := []string{"12 command_failure man ls", "12 missing_file cat notes", "12 output_mismatch man ls"}
	if !slices.Equal(got, want) {
		t.Fatalf("gaps = %q, want %q", got, want)
	}
	st.MergeFindings(nil, []Finding{{Category: CategoryEnvironment, Line: 12, Command: "man ls", Problem: "the image has no manual pages"}}, 3)
	if g := st.Gaps[0]; len(st.Gaps) != 3 || g.Category != CategoryEnvironment || g.Problem != "the image has no manual pages" || g.Severity != SeverityMinor {
		t.Errorf("after an environment diagnosis: %+v", st.Gaps)
	}
}

// A failure met after a Mentor's workaround ran before the step is a gap of
// its own: the tool the workaround installed, failing on the page's input,
// is not merged into (nor relabels) the missing tool's gap. Found again in
// a later iteration, it is the same gap.
func TestMergeFindingsFailureAfterWorkaroundIsItsOwnGap(t *testing.T) {
	var st Status
	st.MergeFindings(nil, []Finding{{Category: CategoryMissingDependency, Line: 9, Command: "jq .name data.json", Problem: "jq is not installed"}}, 1)
	after := Finding{Category: CategoryCommandFailure, Line: 9, Command: "jq .name data.json", Problem: "parse error", AfterWorkaround: 1}
	st.MergeFindings(nil, []Finding{after}, 2)
	env := after
	env.Category, env.Problem = CategoryEnvironment, "the installed jq is older than the page's"
	st.MergeFindings(nil, []Finding{env}, 3)
	var got []string
	for _, g := range st.Gaps {
		got = append(got, fmt.Sprintf("%d %s %d", g.Location.LineNumber, g.Category, g.Iteration))
	}
	want := []string{"9 environment 2", "9 missing_dependency 1"}
	if !slices.Equal(got, want) {
		t.Fatalf("gaps = %q, want %q", got, want)
	}
}

// A line that failed as a consequence of an earlier one (its program came
// from the download that failed) and, once a workaround for that earlier
// line was in, fails in another way is that other failure's gap: the first
// was the earlier line's consequence. Without such a workaround both are
// one failure of the line, merged.
func TestMergeFindingsReplacesAConsequenceAfterAnEarlierWorkaround(t *testing.T) {
	missing := Finding{Category: CategoryMissingDependency, Line: 31, Command: "django-admin startproject my-site", Problem: "django-admin is not installed"}
	refused := Finding{Category: CategoryCommandFailure, Line: 31, Command: "django-admin startproject my-site", Problem: "not a valid project name"}
	var st Status
	st.MergeFindings(nil, []Finding{missing}, 1)
	st.MentorNotes = []MentorNote{{Iteration: 1, Line: 25, Resolution: ResolutionWorkaround, Workaround: "apt-get install -y python3-django"}}
	st.MergeFindings(nil, []Finding{refused}, 2)
	if len(st.Gaps) != 1 || st.Gaps[0].Category != CategoryCommandFailure || st.Gaps[0].Problem != "not a valid project name" || st.Gaps[0].Iteration != 2 {
		t.Fatalf("gaps = %+v, want the line's own failure of iteration 2", st.Gaps)
	}

	var plain Status
	plain.MergeFindings(nil, []Finding{missing}, 1)
	plain.MergeFindings(nil, []Finding{refused}, 2)
	if len(plain.Gaps) != 1 || plain.Gaps[0].Category != CategoryMissingDependency {
		t.Fatalf("without an earlier workaround: gaps = %+v, want the first failure kept", plain.Gaps)
	}
}
