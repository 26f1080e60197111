package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// The summary carries the clean replay's verdict, in JSON and in words;
// without a replay, verified is absent.
func TestSummaryVerified(t *testing.T) {
	for _, tc := range []struct {
		name     string
		v        *status.Verification
		want     string // the JSON value of verified, "" for absent
		sentence string
	}{
		{"no replay needed", nil, "", ""},
		{"replay under way", &status.Verification{Iteration: 3, Fixes: 2}, "", ""},
		{"verified", &status.Verification{Iteration: 3, Fixes: 2, Done: true, Verified: true}, "true",
			"Verified: with the 2 suggested fixes the tutorial completes from a clean start."},
		{"not verified", &status.Verification{Iteration: 3, Fixes: 1, Done: true, Line: 14}, "false",
			"Not verified: with the 1 suggested fix, a clean start stops at line 14, where the fixes do not work together."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &status.Run{Status: status.Status{Phase: status.PhaseCompleted, Iteration: 3, Verification: tc.v}}
			rep := BuildReport(run, ReportInput{Now: t0})
			js, err := json.Marshal(rep.Summary)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			_ = json.Unmarshal(js, &m)
			got, ok := m["verified"]
			switch {
			case tc.want == "" && ok:
				t.Errorf("verified = %v, want absent", got)
			case tc.want != "" && (!ok || strings.ToLower(strings.TrimSpace(string(mustJSON(t, got)))) != tc.want):
				t.Errorf("verified = %v (present %v), want %s", got, ok, tc.want)
			}
			if rep.Summary.Verification != tc.sentence {
				t.Errorf("verification = %q, want %q", rep.Summary.Verification, tc.sentence)
			}
			if md := string(RenderMarkdown(rep)); tc.sentence != "" && !strings.Contains(md, "- **Verified**: "+tc.sentence) {
				t.Errorf("Markdown lacks the verdict:\n%s", md)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
