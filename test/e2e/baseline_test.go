package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBaseline: a team accepts a run's gap with `smile baseline`; apply then
// passes on it, also after an edit above it moves it down, and SARIF says
// unchanged; a gap the baseline does not hold fails again.
func TestBaseline(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "blocker")
	apply := func(want int) result {
		t.Helper()
		res := smile(t, dir, nil, 4*time.Minute, "apply", "-f", "run.yaml", "--wait", "--format", "sarif")
		if res.code != want {
			t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", res.code, want, res.stdout, res.stderr)
		}
		return res
	}
	apply(2)
	res := smile(t, dir, nil, time.Minute, "baseline")
	if res.code != 0 || !strings.Contains(res.stdout, "blocker: 1 gap(s)") {
		t.Fatalf("smile baseline: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	data, err := os.ReadFile(filepath.Join(dir, "smile-baseline.json"))
	if err != nil || !strings.Contains(string(data), `"tutorial": "tutorial.md"`) || !strings.Contains(string(data), "undefined_variable") {
		t.Fatalf("baseline file: %s (%v)", data, err)
	}
	// The same run, and then the page edited above the gap: accepted.
	if out := apply(0).stdout; !strings.Contains(out, "baseline: 1 gap(s) accepted") {
		t.Errorf("apply does not say what the baseline accepted:\n%s", out)
	}
	tut := filepath.Join(dir, "tutorial.md")
	page, _ := os.ReadFile(tut)
	edited := strings.Replace(string(page), "# Deploy the app\n", "# Deploy the app\n\nA new paragraph above the step.\n", 1)
	if err := os.WriteFile(tut, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	apply(0)
	if state := sarifStates(t, runFile(dir, "blocker", "smile-report.sarif")); strings.Join(state, ",") != "unchanged" {
		t.Errorf("SARIF baseline states %v, want the one gap unchanged", state)
	}
	// A gap the baseline does not hold counts again.
	if err := os.WriteFile(tut, []byte(strings.Replace(edited, `cd "$APP_HOME"`, `cd "$APP_ROOT"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	apply(2)
	if state := sarifStates(t, runFile(dir, "blocker", "smile-report.sarif")); strings.Join(state, ",") != "new,absent" {
		t.Errorf("SARIF baseline states %v, want the new gap and the accepted one absent", state)
	}
}

func sarifStates(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF %s: %v", path, err)
	}
	var out []string
	for _, r := range log.Runs[0].Results {
		out = append(out, r.BaselineState)
	}
	return out
}
