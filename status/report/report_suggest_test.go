package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// The tutorial's text decides where a line may be inserted: only inside the
// fenced block the gap's line is in.
func TestSuggestionsFromTutorialContent(t *testing.T) {
	content := strings.Join([]string{
		"# Title",                     // 1
		"",                            // 2
		"Run ./count.sh to count.",    // 3
		"",                            // 4
		"1. Run it:",                  // 5
		"",                            // 6
		"   ```bash",                  // 7
		"   ./count.sh words.txt",     // 8
		"   ```",                      // 9
		"",                            // 10
		"    ./count.sh indented.txt", // 11: indented code, not fenced
	}, "\n")
	fix := "Add `chmod +x count.sh` before running it."
	gap := func(line int, quote string) status.Gap {
		return status.Gap{ID: line, Category: status.CategoryPermissionDenied, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: line, Quote: quote},
			Command: "./count.sh words.txt", SuggestedFix: fix}
	}
	run := &status.Run{Status: status.Status{Phase: status.PhaseCompleted, Gaps: []status.Gap{
		gap(3, "./count.sh"), gap(8, "./count.sh words.txt"), gap(11, "./count.sh indented.txt"), gap(50, "./count.sh"),
	}}}
	r := BuildReport(run, ReportInput{TutorialPath: "t.md", TutorialContent: content, Now: t0})
	var got []string
	for _, g := range r.Gaps {
		if s, ok := suggestionFor(r, g); ok {
			got = append(got, s.Text())
		}
	}
	want := []string{"   chmod +x count.sh\n   ./count.sh words.txt"}
	if !slices.Equal(got, want) {
		t.Errorf("suggestions = %q, want only the one inside the fenced block, indented like it: %q", got, want)
	}
}
