package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEnvironment: what the container lacks is the environment's gap, never
// the tutorial's and never critical. A tool the tutorial lists as a
// prerequisite is installed by the Mentor and the run completes, and the
// note does not fail the gate (exit 0: --fail-on counts the tutorial's gaps
// unless it names environment, issue 23); a network
// that is not there ends the run Inconclusive (exit 3: the page was not shown
// to fail, the rest was not tested) on a major gap that is a note in SARIF.
func TestEnvironment(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	tests := []struct {
		name, status, severity, line, problem, fix, sarifLevel string
		exit                                                   int
	}{
		{name: "mn-prereq", status: "completed", severity: "minor", line: "tree -d demo",
			problem: "the image lacks `tree`, which the tutorial lists as a prerequisite", fix: "containerImage", sarifLevel: "note", exit: 0},
		{name: "mn-network", status: "inconclusive", exit: 3, severity: "major", line: "exec 3<>/dev/tcp/smile-no-such-host.invalid/80",
			problem: "the container lacks network access", fix: "studentNetwork", sarifLevel: "note"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, tc.name)
			res := smile(t, dir, nil, 8*time.Minute, "apply", "-f", "run.yaml", "--wait", "--format", "sarif")
			if res.code != tc.exit {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, tc.exit, res.stdout, res.stderr)
			}
			if !strings.Contains(res.stdout, "1 environment note") {
				t.Errorf("the summary does not count the environment note apart:\n%s", res.stdout)
			}
			r := readReport(t, runFile(dir, tc.name, "smile-report.json"))
			line := lineOf(t, filepath.Join(dir, "tutorial.md"), tc.line)
			if r.Summary.Status != tc.status || len(r.Gaps) != 1 {
				t.Fatalf("status %s with gaps %+v, want %s with one gap", r.Summary.Status, r.Gaps, tc.status)
			}
			g := r.Gaps[0]
			if g.Category != "environment" || g.Location.LineNumber != line || g.Severity != tc.severity ||
				!strings.Contains(g.Problem, tc.problem) || !strings.Contains(g.SuggestedFix, tc.fix) {
				t.Errorf("gap = %+v, want environment at line %d, %s, naming %q and %s", g, line, tc.severity, tc.problem, tc.fix)
			}
			md, err := os.ReadFile(runFile(dir, tc.name, "smile-report.md"))
			if err != nil || !strings.Contains(string(md), "- **Environment**: the container lacked this") {
				t.Errorf("the Markdown report does not say it was the environment (%v)", err)
			}
			data, err := os.ReadFile(runFile(dir, tc.name, "smile-report.sarif"))
			if err != nil {
				t.Fatal(err)
			}
			var sarif struct {
				Runs []struct{ Results []struct{ Level string } }
			}
			if err := json.Unmarshal(data, &sarif); err != nil || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 ||
				sarif.Runs[0].Results[0].Level != tc.sarifLevel {
				t.Errorf("SARIF results %s (%v), want one at level %s", data, err, tc.sarifLevel)
			}
			if tc.name == "mn-prereq" && !strings.HasPrefix(string(md), "# SMILE Loop Report: Look at a folder tree\n") {
				t.Errorf("the report is not named by the front matter's title:\n%s", strings.SplitN(string(md), "\n", 2)[0])
			}
		})
	}
}
