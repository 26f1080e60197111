package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	Skipped []struct {
		Line   int    `json:"line"`
		Reason string `json:"reason"`
	} `json:"skipped"`
	Timeline []struct {
		Iteration int    `json:"iteration"`
		Event     string `json:"event"`
		Details   string `json:"details"`
	} `json:"timeline"`
	Gaps       []reportGap `json:"gaps"`
	AuditTrail struct {
		Commands []struct {
			Iteration  int    `json:"iteration"`
			Line       int    `json:"line"`
			Command    string `json:"command"`
			Workaround bool   `json:"workaround"`
		} `json:"commands"`
	} `json:"auditTrail"`
}

type reportGap struct {
	Category string `json:"category"`
	Lines    []int  `json:"lines"`
	Location struct {
		LineNumber int `json:"lineNumber"`
	} `json:"location"`
}

// TestCheckpointResume: with resume checkpoint, the second iteration starts
// from the checkpoint kept just before the step that stopped the first (the
// slow first step is not run again), the gaps are those a replay from the
// top finds, the clean replay verifies the fixes; what the Student learned
// above the checkpoint (an output difference met again later, a note that
// output may differ, the files it wrote) is in the resumed attempt's result
// as in a replay from the top; after an edit at the end
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
	cp, fromTop := reports["checkpoint"], reports["fromStart"]

	tutorial := filepath.Join(resumed, "tutorial.md")
	top, stuck := lineOf(t, tutorial, "cat greeting.txt"), lineOf(t, tutorial, "cat conifg.yaml")
	first := map[int]int{} // iteration -> line of its first tutorial command
	for _, c := range cp.AuditTrail.Commands {
		if _, ok := first[c.Iteration]; !ok && !c.Workaround {
			first[c.Iteration] = c.Line
		}
	}
	if first[1] != top {
		t.Errorf("iteration 1 started at line %d, want the top (line %d)", first[1], top)
	}
	if first[2] != stuck {
		t.Errorf("iteration 2 started at line %d, want the stuck step's line %d (not the top)", first[2], stuck)
	}
	if last := cp.Summary.Iterations; first[last] != top {
		t.Errorf("the last iteration (%d, the clean replay) started at line %d, want the top (line %d)", last, first[last], top)
	}

	if got, want := gapLines(cp), gapLines(fromTop); !slices.Equal(got, want) || len(got) != 4 {
		t.Errorf("gaps with checkpoints %v, from the start %v: want the same four", got, want)
	}
	// The Student resumed below the output difference at the top remembers
	// it: the same difference at the end is one more line of that gap.
	again := lineOf(t, tutorial, "cat ./greeting.txt")
	for name, r := range map[string]checkpointReport{"checkpoint": cp, "fromStart": fromTop} {
		if g := gapAt(r, "output_mismatch", top+6); g == nil || !slices.Contains(g.Lines, again+6) {
			t.Errorf("%s: the output difference at line %d does not list line %d: %+v", name, top+6, again+6, r.Gaps)
		}
	}
	// The attempt that completed from the checkpoint says what one from the
	// top says: the same steps, commands, files and problems.
	want := completions(fromTop)
	if got := completions(cp); len(want) != 1 || len(got) != 2 || got[0] != want[0] || got[1] != want[0] {
		t.Errorf("completed with checkpoints:\n  %q\nfrom the start:\n  %q\nwant the resumed attempt and the clean replay to say what the start's last said", got, want)
	}
	if v := cp.Summary.Verified; v == nil || !*v {
		t.Errorf("verified = %v, want true", v)
	}
	if want := "Verified: with the 3 suggested fixes the tutorial completes from a clean start."; cp.Summary.Verification != want {
		t.Errorf("verification %q, want %q", cp.Summary.Verification, want)
	}
	if fromTop.Summary.Verified != nil {
		t.Errorf("fromStart: verified = %v, want absent (its last iteration ran from the top)", *fromTop.Summary.Verified)
	}
	kept := snapshotsOf(t, "checkpoint")
	if len(kept) == 0 {
		t.Errorf("no snapshot kept after the run: the next generation has no cache")
	}
	pruneKeepsWhatRunsNeed(t, resumed, kept)

	// A smaller checkpointDisk with the edit below: the next generation's
	// checkpoints fit it, the least recently used gone.
	manifest, err = os.ReadFile(filepath.Join(resumed, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	manifest = []byte(strings.Replace(string(manifest), "resume: checkpoint", "resume: checkpoint\n  checkpointDisk: 1b", 1))
	if err := os.WriteFile(filepath.Join(resumed, "run.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}

	// An edit below the slow step: the new generation's first iteration
	// starts from the cache, at the stuck step, not the top.
	f, err := os.OpenFile(tutorial, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString("\n## 9. Done\n\n```bash\necho done\n```\n")
	f.Close()
	if res := smile(t, resumed, nil, 8*time.Minute, "apply", "-f", "run.yaml", "--wait"); res.code != 2 {
		t.Fatalf("second generation: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	var edited checkpointReport
	data, err := os.ReadFile(runFile(resumed, "checkpoint", "smile-report.json"))
	if err != nil || json.Unmarshal(data, &edited) != nil {
		t.Fatalf("read the second report: %v", err)
	}
	for _, c := range edited.AuditTrail.Commands {
		if c.Iteration == 1 {
			if c.Line < stuck {
				t.Errorf("after the edit, iteration 1 started at line %d, want a cached checkpoint's (line %d or below)", c.Line, stuck)
			}
			break
		}
	}
	// The notes about the unchanged lines came with the cache: one iteration
	// finds the same gaps, and it went on from a clean replay's checkpoint.
	if got := gapLines(edited); !slices.Equal(got, gapLines(cp)) {
		t.Errorf("gaps after the edit %v, want %v", got, gapLines(cp))
	}
	if edited.Summary.Iterations != 1 || edited.Summary.Verified == nil || !*edited.Summary.Verified {
		t.Errorf("after the edit: %d iterations, verified %v; want 1, verified", edited.Summary.Iterations, edited.Summary.Verified)
	}
	// Its one attempt went on from a checkpoint: it still lists what it
	// did not follow above it (the output that may differ), and counts the
	// steps, commands and files above it, with the new step's one more.
	if got, want := skippedOf(edited), skippedOf(fromTop); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("skipped after the edit %q, from the start %q: want the same", got, want)
	}
	if got, want := completions(edited), oneMoreStep(t, want[0]); len(got) != 1 || got[0] != want {
		t.Errorf("after the edit the attempt says %q, want %q", got, want)
	}
	if ids := snapshotsOf(t, "checkpoint"); len(ids) != 1 {
		t.Errorf("with checkpointDisk 1b, %d snapshots left after the run, want only the newest", len(ids))
	}
	if !slices.ContainsFunc(edited.Timeline, func(e struct {
		Iteration int    `json:"iteration"`
		Event     string `json:"event"`
		Details   string `json:"details"`
	}) bool {
		return e.Event == "CheckpointEvicted"
	}) {
		t.Errorf("no CheckpointEvicted event in the timeline: %+v", edited.Timeline)
	}
	if res := smile(t, resumed, nil, time.Minute, "delete", "checkpoint"); res.code != 0 {
		t.Fatalf("delete: exit %d\n%s", res.code, res.stderr)
	}
	if ids := snapshotsOf(t, "checkpoint"); len(ids) != 0 {
		t.Errorf("snapshots left after smile delete: %v", ids)
	}
}

// pruneKeepsWhatRunsNeed: with every checkpoint recorded by its finished
// run, prune has nothing to remove; a snapshot of the run that its status
// does not record (an attempt cut short) is removed, and only it.
func pruneKeepsWhatRunsNeed(t *testing.T, dir string, kept []string) {
	t.Helper()
	if res := smile(t, dir, nil, time.Minute, "prune", "--dry-run"); res.code != 0 || !strings.Contains(res.stdout, "nothing to prune") {
		t.Fatalf("prune --dry-run after a finished run: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	const stray = "smile-checkpoint:checkpoint-stray"
	name := fmt.Sprintf("smile-e2e-stray-%d", time.Now().UnixNano())
	for _, args := range [][]string{{"create", "--name", name, kept[0], "true"}, {"commit", name, stray}, {"rm", name}} {
		if out, err := exec.Command("docker", args...).CombinedOutput(); err != nil {
			t.Fatalf("docker %v: %v\n%s", args, err, out)
		}
	}
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", stray).Run() })
	res := smile(t, dir, nil, time.Minute, "prune")
	if res.code != 0 || !strings.Contains(res.stdout, "removed "+stray+" (run checkpoint") || strings.Count(res.stdout, "removed smile-checkpoint:") != 1 {
		t.Fatalf("prune with one stray snapshot: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if err := exec.Command("docker", "image", "inspect", stray).Run(); err == nil {
		t.Errorf("%s is still there after prune", stray)
	}
	if got := snapshotsOf(t, "checkpoint"); !slices.Equal(got, kept) {
		t.Errorf("after prune the run has %v, want what it had: %v", got, kept)
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

// gapAt is the report's gap of that category at that line, nil if none.
func gapAt(r checkpointReport, category string, line int) *reportGap {
	for i := range r.Gaps {
		if g := &r.Gaps[i]; g.Category == category && g.Location.LineNumber == line {
			return g
		}
	}
	return nil
}

// completions are what the Student said, in order, each time it completed.
func completions(r checkpointReport) []string {
	var out []string
	for _, e := range r.Timeline {
		if e.Event == "StudentReported" && strings.HasPrefix(e.Details, "completed: ") {
			out = append(out, e.Details)
		}
	}
	return out
}

func skippedOf(r checkpointReport) []string {
	var out []string
	for _, s := range r.Skipped {
		out = append(out, strconv.Itoa(s.Line)+": "+s.Reason)
	}
	return out
}

// oneMoreStep is a completion's sentence with one more step and command.
func oneMoreStep(t *testing.T, s string) string {
	t.Helper()
	m := regexp.MustCompile(`in (\d+) steps: ran (\d+) commands`).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no step and command counts in %q", s)
	}
	steps, _ := strconv.Atoi(m[1])
	cmds, _ := strconv.Atoi(m[2])
	return strings.Replace(s, m[0], fmt.Sprintf("in %d steps: ran %d commands", steps+1, cmds+1), 1)
}
