package e2e

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestInconclusive runs a page SMILE can barely follow (one shell command,
// then four PowerShell blocks for another platform) on the real engine: the
// run is Inconclusive, exits 3, and every report says it is a finding about
// SMILE's reading rather than a pass or a gap. With minCoverage 0 the same
// page completes, as it did before coverage was measured.
func TestInconclusive(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "inconclusive")

	res := smile(t, dir, nil, 4*time.Minute, "apply", "-f", "run.yaml", "--wait", "--format", "junit,sarif")
	if res.code != 3 {
		t.Fatalf("exit %d, want 3 (inconclusive)\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"smilerun.smile.dev/inconclusive inconclusive after 1 iteration(s): 0 gap(s)",
		"reason: SMILE exercised 1 of 5 code blocks (20%)", "less than the 50% minCoverage"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("apply's output lacks %q:\n%s", want, res.stdout)
		}
	}
	r := readReport(t, runFile(dir, "inconclusive", "smile-report.json"))
	if r.Summary.Status != "inconclusive" || len(r.Gaps) != 0 {
		t.Errorf("status %s with %d gaps, want inconclusive and none", r.Summary.Status, len(r.Gaps))
	}
	if c := r.Coverage; c == nil || c.Blocks != 5 || c.Exercised != 1 || c.Skipped != 4 || len(c.SkippedBy) != 1 || c.SkippedBy[0].Blocks != 4 ||
		!strings.Contains(c.SkippedBy[0].Reason, "powershell") {
		t.Errorf("coverage %+v, want 1 of 5 blocks, the 4 PowerShell blocks skipped for one reason", c)
	}
	md, err := os.ReadFile(runFile(dir, "inconclusive", "smile-report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## Coverage", "neither a pass nor a gap of the tutorial", "SMILE could not follow most of this page"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("smile-report.md lacks %q", want)
		}
	}
	junit, err := os.ReadFile(runFile(dir, "inconclusive", "smile-report.junit.xml"))
	if err != nil || !strings.Contains(string(junit), `failures="0"`) || !strings.Contains(string(junit), "<skipped message=\"The run is inconclusive") {
		t.Errorf("JUnit (%v) should skip the run as inconclusive, with no failure:\n%s", err, junit)
	}

	get := smile(t, dir, nil, time.Minute, "get", "inconclusive")
	rows := strings.Split(strings.TrimSpace(get.stdout), "\n")
	if len(rows) != 2 || strings.Join(strings.Fields(rows[0]), " ") != "NAME PHASE RESULT ITERATION GAPS COVERAGE AGE" {
		t.Fatalf("smile get printed:\n%s", get.stdout)
	}
	if f := strings.Fields(rows[1]); len(f) < 6 || f[1] != "Inconclusive" || f[2] != "Inconclusive" || f[5] != "1/5" {
		t.Errorf("smile get row %q, want phase and result Inconclusive, coverage 1/5", rows[1])
	}

	off := smile(t, dir, nil, 4*time.Minute, "apply", "-f", "run-off.yaml", "--wait")
	if off.code != 0 || !strings.Contains(off.stdout, "completed after 1 iteration(s)") || !strings.Contains(off.stdout, "coverage: SMILE exercised 1 of 5 code blocks") {
		t.Errorf("with minCoverage 0: exit %d\n%s%s", off.code, off.stdout, off.stderr)
	}
}
