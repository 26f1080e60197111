package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// apply's last words say the run's coverage; an inconclusive run's reason
// says it, and its gap-lines form says it is inconclusive, not that the
// loop failed to complete.
func TestApplySaysCoverage(t *testing.T) {
	run := status.NewRun("quickstart", "uid", "run.yaml", t0)
	completed(run)
	var out bytes.Buffer
	printResult(&out, run)
	if !strings.Contains(out.String(), "coverage: SMILE exercised 9 of 14 code blocks (64%)") {
		t.Errorf("apply printed:\n%s", out.String())
	}

	run.Status.Phase, run.Status.Reason = status.PhaseInconclusive, status.ReasonLowCoverage
	run.Status.Message = "SMILE exercised 0 of 6 code blocks: it could not follow this page, less than the 50% minCoverage asks for"
	out.Reset()
	printResult(&out, run)
	if !strings.Contains(out.String(), "inconclusive after 2 iteration(s)") || !strings.Contains(out.String(), "reason: SMILE exercised 0 of 6 code blocks") {
		t.Errorf("apply printed for an inconclusive run:\n%s", out.String())
	}
	out.Reset()
	printEnd(&out, "docs/db.md", run.Status)
	if got := out.String(); got != "docs/db.md: [inconclusive] "+run.Status.Message+"\n" {
		t.Errorf("gap lines end with %q", got)
	}
}
