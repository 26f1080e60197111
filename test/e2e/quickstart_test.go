package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec"
)

// TestQuickstartCommand runs README command 1 exactly as a user would: it
// builds everything, checks examples/quickstart in a real container with the
// literal learner, and says where the report is.
func TestQuickstartCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: needs Docker (skipped with -short)")
	}
	root := repoRoot(t)
	cmd := exec.Command("bash", "hack/quickstart.sh")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("hack/quickstart.sh: %v\n%s", err, out)
	}
	dir := filepath.Join(root, "examples", "quickstart")
	t.Cleanup(func() { removeRunContainers(dir) })
	// SMILE's own repository is the example's workspace: its run keeps its
	// files there, in .smile/runs/quickstart, out of the example's folder.
	own := filepath.Join(spec.FindWorkspace(dir), ".smile", "runs", "quickstart")
	if !strings.Contains(string(out), "report: "+filepath.Join(own, "smile-report.md")) {
		t.Errorf("the command does not print where the report is:\n%s", out)
	}
	r := readReport(t, filepath.Join(own, "smile-report.json"))
	line := lineOf(t, filepath.Join(dir, "tutorial.md"), "./count.sh words.txt")
	if r.Summary.Status != "completed" || r.Summary.Iterations != 2 {
		t.Errorf("status %s after %d iterations, want completed after 2 (the Mentor's chmod +x)", r.Summary.Status, r.Summary.Iterations)
	}
	if len(r.Gaps) != 1 || r.Gaps[0].Category != "permission_denied" || r.Gaps[0].Location.LineNumber != line {
		t.Fatalf("gaps %+v, want one permission_denied at line %d", r.Gaps, line)
	}
	if !strings.Contains(r.Gaps[0].SuggestedFix, "chmod +x") {
		t.Errorf("fix %q should tell the author to add chmod +x", r.Gaps[0].SuggestedFix)
	}
	// Its coverage is shown: the Student followed every block of the page.
	if c := r.Coverage; c == nil || c.Blocks == 0 || c.Exercised != c.Blocks {
		t.Errorf("coverage %+v, want every code block of the quickstart exercised", c)
	}
	if !strings.Contains(string(out), "coverage: SMILE exercised ") {
		t.Errorf("apply does not say the run's coverage:\n%s", out)
	}
}
