package literal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Student shows the rules behind a block it runs and one it skips: the
// action it records before running a Python session, and the reason it
// lists a PowerShell command under.
func TestStudentShowsEvidence(t *testing.T) {
	tutorial := "# Two prompts\n" + // 1
		"\n" +
		"```\nPS C:\\> Get-Date\n```\n" + // 3-5
		"\n" +
		"```python\n>>> 1 + 1\n2\n```\n" // 7-10
	path := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(path, []byte(tutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := walkOnce(t, path, nil)
	ran := false
	for _, a := range res.StudentOutput.AttemptedActions {
		if strings.Contains(a, "read line 8") && strings.Contains(a, `prompt.python (line 8: ">>> ")`) {
			ran = true
		}
	}
	if !ran {
		t.Errorf("no action names the rule behind the Python session: %q", res.StudentOutput.AttemptedActions)
	}
	skipped := false
	for _, s := range res.StudentOutput.Skipped {
		if s.Line == 4 && strings.Contains(s.Reason, "prompt.shell.powershell") {
			skipped = true
		}
	}
	if !skipped {
		t.Errorf("the PowerShell block's skip does not name its rule: %+v", res.StudentOutput.Skipped)
	}
}
