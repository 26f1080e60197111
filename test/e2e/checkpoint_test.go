package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// checkpointReport is what TestCheckpointResume reads of a report.
type checkpointReport struct {
	Summary struct {
		Status       string `json:"status"`
		Iterations   int    `json:"iterations"`
		Verified     *bool  `json:"verified"`
		Verification string `json:"verification"`
	} `json:"summary"`
	Gaps []struct {
		Category string `json:"category"`
		Location struct {
			LineNumber int `json:"lineNumber"`
		} `json:"location"`
	} `json:"gaps"`
	AuditTrail struct {
		Commands []struct {
			Iteration  int    `json:"iteration"`
			Line       int    `json:"line"`
			Command    string `json:"command"`
			Workaround bool   `json:"workaround"`
		} `json:"commands"`
	} `json:"auditTrail"`
}

// TestCheckpointResume: with resume checkpoint, the second iteration starts
// from the checkpoint kept just before the step that stopped the first (the
// slow first step is not run again), the gaps are those a replay from the
// top finds, the clean replay verifies the fixes; after an edit at the end
// the next generation keeps the notes about the unchanged lines and goes on
// from the clean replay's checkpoint in one iteration; smile delete removes
// every snapshot.
func TestCheckpointResume(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	resumed := copyFixture(t, "checkpoint")
	fromStart := copyFixture(t, "checkpoint")
	manifest, err := os.ReadFile(filepath.Join(fromStart, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest = []byte(strings.Replace(string(manifest), "resume: checkpoint", "resume: fromStart", 1))
	if err := os.WriteFile(filepath.Join(fromStart, "run.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	reports := map[string]checkpointReport{}
	for name, dir := range map[string]string{"checkpoint": resumed, "fromStart": fromStart} {
		res := smile(t, dir, nil, 8*time.Minute, "apply", "-f", "run.yaml", "--wait")
		if res.code != 2 {
			t.Fatalf("%s: exit %d, want 2 (gaps found)\nstdout:\n%s\nstderr:\n%s", name, res.code, res.stdout, res.stderr)
		}
		var r checkpointReport
		data, err := os.ReadFile(runFile(dir, "checkpoint", "smile-report.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		if r.Summary.Status != "completed" {
			t.Fatalf("%s: status %s, want completed", name, r.Summary.Status)
		}
		reports[name] = r
	}
	cp, top := reports["checkpoint"], reports["fromStart"]

	tutorial := filepath.Join(resumed, "tutorial.md")
	slow, stuck := lineOf(t, tutorial, `sleep 4 && mkdir -p parts && echo ready > parts/status && printf 'port: 8080\n' > config.yaml && export SERVICE_NAME=demo`), lineOf(t, tutorial, "cat conifg.yaml")
	first := map[int]int{} // iteration -> line of its first tutorial command
	for _, c := range cp.AuditTrail.Commands {
		if _, ok := first[c.Iteration]; !ok && !c.Workaround {
			first[c.Iteration] = c.Line
		}
	}
	if first[1] != slow {
		t.Errorf("iteration 1 started at line %d, want the top (line %d)", first[1], slow)
	}
	if first[2] != stuck {
		t.Errorf("iteration 2 started at line %d, want the stuck step's line %d (not the top)", first[2], stuck)
	}
	if last := cp.Summary.Iterations; first[last] != slow {
		t.Errorf("the last iteration (%d, the clean replay) started at line %d, want the top (line %d)", last, first[last], slow)
	}

	if got, want := gapLines(cp), gapLines(top); !slices.Equal(got, want) || len(got) != 3 {
		t.Errorf("gaps with checkpoints %v, from the start %v: want the same three", got, want)
	}
	if v := cp.Summary.Verified; v == nil || !*v {
		t.Errorf("verified = %v, want true", v)
	}
	if want := "Verified: with the 3 suggested fixes the tutorial completes from a clean start."; cp.Summary.Verification != want {
		t.Errorf("verification %q, want %q", cp.Summary.Verification, want)
	}
	if top.Summary.Verified != nil {
		t.Errorf("fromStart: verified = %v, want absent (its last iteration ran from the top)", *top.Summary.Verified)
	}
	if len(snapshotsOf(t, "checkpoint")) == 0 {
		t.Errorf("no snapshot kept after the run: the next generation has no cache")
	}

	// An edit below the slow step: the new generation's first iteration
	// starts from the cache, at the stuck step, not the top.
	f, err := os.OpenFile(tutorial, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n## 6. Done\n\n```bash\necho done\n```\n")
	f.Close()
	if res := smile(t, resumed, nil, 8*time.Minute, "apply", "-f", "run.yaml", "--wait"); res.code != 2 {
		t.Fatalf("second generation: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	var again checkpointReport
	data, err := os.ReadFile(runFile(resumed, "checkpoint", "smile-report.json"))
	if err != nil || json.Unmarshal(data, &again) != nil {
		t.Fatalf("read the second report: %v", err)
	}
	for _, c := range again.AuditTrail.Commands {
		if c.Iteration == 1 {
			if c.Line < stuck {
				t.Errorf("after the edit, iteration 1 started at line %d, want a cached checkpoint's (line %d or below)", c.Line, stuck)
			}
			break
		}
	}
	// The notes about the unchanged lines came with the cache: one iteration
	// finds the same gaps, and it went on from a clean replay's checkpoint.
	if got := gapLines(again); !slices.Equal(got, gapLines(cp)) {
		t.Errorf("gaps after the edit %v, want %v", got, gapLines(cp))
	}
	if again.Summary.Iterations != 1 || again.Summary.Verified == nil || !*again.Summary.Verified {
		t.Errorf("after the edit: %d iterations, verified %v; want 1, verified", again.Summary.Iterations, again.Summary.Verified)
	}
	if res := smile(t, resumed, nil, time.Minute, "delete", "checkpoint"); res.code != 0 {
		t.Fatalf("delete: exit %d\n%s", res.code, res.stderr)
	}
	if ids := snapshotsOf(t, "checkpoint"); len(ids) != 0 {
		t.Errorf("snapshots left after smile delete: %v", ids)
	}
}

func snapshotsOf(t *testing.T, run string) []string {
	t.Helper()
	out, err := exec.Command("docker", "images", "-q", "--filter", "label=smile.dev/run="+run, "--filter", "label=smile.dev/kind=snapshot").Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))
}

func gapLines(r checkpointReport) []string {
	var out []string
	for _, g := range r.Gaps {
		out = append(out, g.Category+"@"+strconv.Itoa(g.Location.LineNumber))
	}
	slices.Sort(out)
	return out
}
