package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

func smileRun(name string) string {
	return fmt.Sprintf("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: %s\nspec:\n  llmProvider: literal\n", name)
}

func targetNames(ts []target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.name())
	}
	return out
}

// -f takes files, folders (top level; -R descends, hidden folders never),
// multi-document files and several -f; files that are not SmileRuns are
// skipped quietly in folders, a broken manifest is not.
func TestCollectTargets(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "docs/run.yaml", smileRun("top"))
	writeFile(t, dir, "docs/smile.json", `{"llmProvider": "literal"}`)
	writeFile(t, dir, "docs/.pre-commit-config.yaml", "repos:\n  - repo: local\n")
	writeFile(t, dir, "docs/notes.txt", smileRun("not-a-yaml-name"))
	writeFile(t, dir, "docs/a/runs.yml", smileRun("a-one")+"---\n"+smileRun("a-two"))
	writeFile(t, dir, "docs/b/run.json", `{"apiVersion": "smile.dev/v1alpha1", "kind": "SmileRun", "metadata": {"name": "b"}}`)
	writeFile(t, dir, "docs/.smile/stdin/hidden.yaml", smileRun("hidden"))
	writeFile(t, dir, "other.yaml", smileRun("other"))

	ts, err := collectTargets([]string{filepath.Join(dir, "docs")}, false, nil)
	if err != nil || !slices.Equal(targetNames(ts), []string{"top"}) {
		t.Errorf("folder = %v, %v; want only top", targetNames(ts), err)
	}
	ts, err = collectTargets([]string{filepath.Join(dir, "docs"), filepath.Join(dir, "other.yaml")}, true, nil)
	if err != nil || !slices.Equal(targetNames(ts), []string{"a-one", "a-two", "b", "top", "other"}) {
		t.Errorf("-R and a file = %v, %v", targetNames(ts), err)
	}
	for _, tt := range ts {
		if multi := tt.name() == "a-one" || tt.name() == "a-two"; multi != (tt.doc != "") {
			t.Errorf("%s: doc %q (a file of several SmileRuns is applied by name)", tt.name(), tt.doc)
		}
	}
	// The same file twice is once; one name in two files is an error.
	if ts, err := collectTargets([]string{filepath.Join(dir, "other.yaml"), filepath.Join(dir, "other.yaml")}, false, nil); err != nil || len(ts) != 1 {
		t.Errorf("same file twice = %v, %v", targetNames(ts), err)
	}
	writeFile(t, dir, "dup/run.yaml", smileRun("other"))
	if _, err := collectTargets([]string{filepath.Join(dir, "other.yaml"), filepath.Join(dir, "dup")}, false, nil); err == nil || !strings.Contains(err.Error(), "run other is defined in") {
		t.Errorf("same name in two files: error %v", err)
	}
	writeFile(t, dir, "broken/run.yaml", smileRun("x")+"  maxIterations: lots\n")
	if _, err := collectTargets([]string{filepath.Join(dir, "broken")}, false, nil); err == nil || !strings.Contains(err.Error(), "run.yaml:7:3: spec.maxIterations") {
		t.Errorf("broken manifest in a folder: error %v", err)
	}
	if _, err := collectTargets([]string{filepath.Join(dir, "docs", "a", "..", "b", "..", "..", "dup", "none")}, false, nil); err == nil {
		t.Error("missing file: error nil")
	}
	empty := t.TempDir()
	writeFile(t, empty, "smile.json", "{}")
	if _, err := collectTargets([]string{empty}, true, nil); err == nil || !strings.Contains(err.Error(), "no SmileRun manifest") {
		t.Errorf("folder without manifests: error %v", err)
	}
}

// -f - reads manifests from stdin and keeps each under .smile/stdin/ with
// its paths pointing back at the current folder.
func TestCollectTargetsStdin(t *testing.T) {
	dir := t.TempDir()
	if err := exec.Command("git", "init", "-q", dir).Run(); err != nil {
		t.Skipf("git: %v", err)
	}
	writeFile(t, dir, "docs/tutorial.md", "# T\n")
	writeFile(t, dir, "docs/smile.json", `{"outputDir": "reports"}`)
	t.Chdir(filepath.Join(dir, "docs"))
	in := strings.NewReader(smileRun("one") + "---\n" + smileRun("two") + "  stateFile: st/two.json\n")
	ts, err := collectTargets([]string{"-"}, false, in)
	if err != nil || !slices.Equal(targetNames(ts), []string{"one", "two"}) {
		t.Fatalf("stdin = %v, %v", targetNames(ts), err)
	}
	for _, tt := range ts {
		d, err := resolveTarget(tt)
		if err != nil {
			t.Fatalf("%s: %v", tt.name(), err)
		}
		docs, _ := filepath.EvalSymlinks(filepath.Join(dir, "docs"))
		if d.Paths.Tutorial != filepath.Join(docs, "tutorial.md") || d.Paths.OutputDir != filepath.Join(docs, "reports") {
			t.Errorf("%s: tutorial %s, outputDir %s; want the current folder's", tt.name(), d.Paths.Tutorial, d.Paths.OutputDir)
		}
		want := filepath.Join(docs, ".smile", "stdin", "one", "state.json")
		if tt.name() == "two" {
			want = filepath.Join(docs, "st", "two.json")
		}
		if d.Paths.StateFile != want {
			t.Errorf("%s: stateFile %s, want %s", tt.name(), d.Paths.StateFile, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "docs", ".smile", "stdin", "two.yaml")); err != nil {
		t.Errorf("stdin manifest not kept: %v", err)
	}
	t.Chdir(t.TempDir()) // no Git repository around
	if _, err := collectTargets([]string{"-"}, false, strings.NewReader(smileRun("one"))); err == nil || !strings.Contains(err.Error(), "Git repository") {
		t.Errorf("stdin outside a repository: error %v", err)
	}
}

// Several runs share one display: every line says whose it is.
func TestMultiProgressPrefixesRunNames(t *testing.T) {
	var buf bytes.Buffer
	m := newMultiProgress(&buf, true)
	for _, n := range []string{"alpha", "beta"} {
		run := &status.Run{Metadata: status.Metadata{Name: n}, Status: status.Status{Phase: status.PhaseRunningStudent, Iteration: 1, Attempt: &status.Attempt{},
			Timeline: []status.TimelineEntry{{Event: "Started", Iteration: 1, Details: "starting " + n}}}}
		m.update(run, "step of "+n)
	}
	m.done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), buf.String())
	}
	for _, l := range lines {
		name := strings.SplitN(l, " | ", 2)[0]
		if (name != "alpha" && name != "beta") || !strings.Contains(l, name) || strings.Count(l, " | ") != 1 {
			t.Errorf("line without its run's name: %q", l)
		}
		if strings.Contains(l, "alpha") && strings.Contains(l, "beta") {
			t.Errorf("line mixes two runs: %q", l)
		}
	}
}

// The exit of many runs is the worst: 1 (not run) over 2 (gaps) over 0.
func TestWorstExit(t *testing.T) {
	done := func(phase status.Phase, sev ...status.Severity) *applied {
		run := &status.Run{Status: status.Status{Phase: phase}}
		for _, s := range sev {
			run.Status.Gaps = append(run.Status.Gaps, status.Gap{Severity: s})
		}
		return &applied{run: run}
	}
	code := func(err error) int {
		var ee *exitError
		if err == nil {
			return 0
		}
		if errors.As(err, &ee) {
			return ee.code
		}
		return -1
	}
	clean := done(status.PhaseCompleted)
	gaps := done(status.PhaseCompleted, status.SeverityMajor)
	broken := done(status.PhaseError)
	failed := &applied{failed: errors.New("loop already running")}
	for _, tt := range []struct {
		runs []*applied
		on   status.Severity
		want int
	}{
		{[]*applied{clean, clean}, status.SeverityMinor, 0},
		{[]*applied{clean, gaps}, status.SeverityMinor, 2},
		{[]*applied{clean, gaps}, status.SeverityCritical, 0},
		{[]*applied{gaps, broken, clean}, status.SeverityMinor, 1},
		{[]*applied{broken, gaps}, status.SeverityMinor, 1},
		{[]*applied{clean, failed}, status.SeverityMinor, 1},
		{[]*applied{clean, done(status.PhaseMaxIterations)}, status.SeverityCritical, 2},
	} {
		if got := code(worstExit(tt.runs, tt.on, nil)); got != tt.want {
			t.Errorf("worstExit(%d runs, fail-on %s) = %d, want %d", len(tt.runs), tt.on, got, tt.want)
		}
	}
}
