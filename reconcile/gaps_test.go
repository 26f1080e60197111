package reconcile

import (
	"slices"
	"testing"

	"github.com/smile-loop/smile/status"
)

// Severity follows the cause: the tutorial's own gap that ends a run is
// critical; what the container lacked, or output shown only as an example,
// never is.
func TestGapSeverityByCause(t *testing.T) {
	tests := []struct {
		name    string
		finding status.Finding
		blocked bool
		want    status.Severity
	}{
		{"tutorial gap", status.Finding{Category: status.CategoryMissingFile, Line: 5}, false, status.SeverityMajor},
		{"tutorial gap the run ended on", status.Finding{Category: status.CategoryMissingFile, Line: 5}, true, status.SeverityCritical},
		{"environment", status.Finding{Category: status.CategoryEnvironment, Line: 5}, false, status.SeverityMinor},
		{"environment the run ended on", status.Finding{Category: status.CategoryEnvironment, Line: 5}, true, status.SeverityMajor},
		{"tolerant output", status.Finding{Category: status.CategoryOutputMismatch, Line: 5, Tolerant: true}, false, status.SeverityMinor},
		{"tolerant output the run ended on", status.Finding{Category: status.CategoryOutputMismatch, Line: 5, Tolerant: true}, true, status.SeverityMinor},
		{"plain output mismatch the run ended on", status.Finding{Category: status.CategoryOutputMismatch, Line: 5}, true, status.SeverityCritical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := tt.finding
			f.Asked = tt.blocked
			st := &status.Status{Phase: status.PhaseBlocker}
			mergeFindings(st, nil, []status.Finding{f}, 1)
			st.History = []status.IterationRecord{{StudentOutput: status.StudentOutput{Findings: []status.Finding{f}}}}
			markBlocking(st)
			if len(st.Gaps) != 1 || st.Gaps[0].Severity != tt.want {
				t.Fatalf("gaps = %+v, want one %s", st.Gaps, tt.want)
			}
		})
	}
}

func TestMergeFindingsCarriesBackReferences(t *testing.T) {
	st := &status.Status{}
	mergeFindings(st, nil, []status.Finding{{Category: status.CategoryOutputMismatch, Line: 20, Lines: []int{31, 20, 26},
		CauseLine: 12, CauseQuote: "Create `app.py`:", Tolerant: true}}, 1)
	mergeFindings(st, nil, []status.Finding{{Category: status.CategoryOutputMismatch, Line: 20, Lines: []int{40, 26}}}, 2)
	mergeFindings(st, nil, []status.Finding{{Category: status.CategoryEnvironment, Line: 7, Command: "curl https://example.org"}}, 2)
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
