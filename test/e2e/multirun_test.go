package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// A docs repository checked with one command: a scratch Git repository with
// tutorials in three folders (two SmileRuns in one multi-document file, a
// pre-commit configuration and a smile.json that are no manifests), applied
// with `smile apply -f docs -R --wait --format sarif` from its root on the
// real engine. Every run completes, the table lists them all, the combined
// SARIF validates against the OASIS 2.1.0 schema with each gap on its
// tutorial's path from the repository root, and the exit code is the worst
// run's (2: one tutorial has a gap).
func TestApplyFolderManyRuns(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	repo := copyFixture(t, "docs-repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	res := smile(t, repo, nil, 5*time.Minute, "apply", "-f", "docs", "-R", "--wait", "--format", "sarif", "--parallel", "2")
	if res.code != 2 {
		t.Fatalf("exit %d, want 2 (one tutorial has a gap)\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	rows := tableRows(t, res.stdout)
	want := map[string][3]string{
		"count":  {"docs/a/tutorial.md", "completed", "none"},
		"hello":  {"docs/b/one.md", "completed", "none"},
		"add":    {"docs/b/two.md", "completed", "none"},
		"script": {"docs/c/tutorial.md", "completed", "1 major"},
	}
	if len(rows) != len(want) {
		t.Errorf("table has %d runs, want %d:\n%s", len(rows), len(want), res.stdout)
	}
	for name, w := range want {
		r, ok := rows[name]
		if !ok || r[0] != w[0] || r[1] != w[1] || r[2] != w[2] || r[3] != "-" {
			t.Errorf("row %s = %q, want %q and VERIFIED -", name, r, w)
		}
	}
	if !strings.Contains(res.stdout, "docs/c/tutorial.md:13: [major/permission_denied]") {
		t.Errorf("the gap is not listed at its line:\n%s", res.stdout)
	}
	// One progress display: every run's lines carry its name.
	for name := range want {
		if !strings.Contains(res.stderr, name+" | ") {
			t.Errorf("no progress line of %s:\n%s", name, res.stderr)
		}
	}
	checkCombinedSARIF(t, filepath.Join(repo, "smile-report.sarif"), len(want))
	// The two runs of one multi-document file are each their own to the
	// other verbs.
	res = smile(t, filepath.Join(repo, "docs", "b"), nil, 30*time.Second, "get", "-o", "wide")
	if res.code != 0 || !strings.Contains(res.stdout, " one.md") || !strings.Contains(res.stdout, " two.md") {
		t.Errorf("get -o wide in docs/b: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = smile(t, filepath.Join(repo, "docs", "b"), nil, 30*time.Second, "report", "add", "--stdout", "--format", "github")
	if res.code != 0 || !strings.Contains(res.stdout, "docs/b/two.md") {
		t.Errorf("report add: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	// The controller holds a run beyond --parallel in phase Queued, and
	// the display says so; both runs of the folder then complete.
	repo = copyFixture(t, "docs-repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	res = smile(t, repo, nil, 5*time.Minute, "apply", "-f", "docs/b", "--wait", "--parallel", "1")
	if res.code != 0 || !strings.Contains(res.stderr, "Queued ") || !strings.Contains(res.stderr, "at most 1 at once (--parallel)") {
		t.Errorf("apply -f docs/b --parallel 1: exit %d, want 0 with a run shown Queued\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
}

// tableRows reads apply's table: RUN -> TUTORIAL, STATUS, GAPS, VERIFIED.
func tableRows(t *testing.T, stdout string) map[string][4]string {
	t.Helper()
	lines := strings.Split(stdout, "\n")
	start := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "RUN ") })
	if start < 0 {
		t.Fatalf("no table in:\n%s", stdout)
	}
	head := lines[start]
	cols := []int{strings.Index(head, "TUTORIAL"), strings.Index(head, "STATUS"), strings.Index(head, "GAPS"), strings.Index(head, "VERIFIED")}
	rows := map[string][4]string{}
	for _, l := range lines[start+1:] {
		if len(l) < cols[3] || strings.Contains(l, ": [") { // the gap lines follow the table
			break
		}
		var r [4]string
		for i, c := range cols {
			end := len(l)
			if i+1 < len(cols) {
				end = cols[i+1]
			}
			r[i] = strings.TrimSpace(l[c:end])
		}
		rows[strings.TrimSpace(l[:cols[0]])] = r
	}
	return rows
}

// checkCombinedSARIF validates the one SARIF file of all runs against the
// OASIS schema and checks its results: the one gap, on its tutorial's path
// relative to the repository root, and an invocation per run.
func checkCombinedSARIF(t *testing.T, path string, runs int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(repoRoot(t), "status", "report", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-schema-2.1.0.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("the combined SARIF does not validate against the 2.1.0 schema: %v\n%s", err, data)
	}
	var log struct {
		Runs []struct {
			Invocations []struct{ Properties map[string]any }
			Results     []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           struct{ StartLine int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 || len(log.Runs[0].Invocations) != runs {
		t.Fatalf("SARIF: %d runs, want one with %d invocations", len(log.Runs), runs)
	}
	res := log.Runs[0].Results
	if len(res) != 1 {
		t.Fatalf("SARIF has %d results, want the one gap", len(res))
	}
	loc := res[0].Locations[0].PhysicalLocation
	if res[0].RuleID != "permission_denied" || loc.ArtifactLocation.URI != "docs/c/tutorial.md" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc.Region.StartLine != 13 {
		t.Errorf("SARIF result = %+v, want permission_denied at docs/c/tutorial.md:13 from %%SRCROOT%%", res[0])
	}
}

// Ctrl-C in apply --wait on several runs stops each of them: phase Stopped
// with a report, no container left, exit 1 and how to run them again.
func TestApplyManyCtrlC(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "many-slow")
	p := smileBackground(t, dir, nil, "apply", "-f", "runs.yaml", "--wait", "--parallel", "2")
	for _, n := range []string{"one", "two"} {
		waitState(t, filepath.Join(dir, ".smile", n+".json"), 2*time.Minute, "the Student at work", func(run *status.Run) bool {
			return run.Status.Phase == status.PhaseWaitingForStudent
		})
	}
	p.interrupt()
	code, _ := p.wait(time.Second)
	_, stderr := p.output()
	if code != 1 || !strings.Contains(stderr, "the runs stopped and their containers removed") || !strings.Contains(stderr, "smile apply -f runs.yaml --wait") {
		t.Fatalf("apply --wait on two runs after Ctrl-C: exit %d\nstderr:\n%s", code, stderr)
	}
	for _, n := range []string{"one", "two"} {
		run, err := store.Load(filepath.Join(dir, ".smile", n+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if run.Status.Phase != status.PhaseStopped || run.Status.Report == nil {
			t.Errorf("run %s after Ctrl-C: %s, report %v; want phase Stopped with a report", n, describeStatus(&run.Status), run.Status.Report)
		}
	}
	if cs := dirContainers(t, dir); len(cs) != 0 {
		t.Errorf("containers left after Ctrl-C: %v", containerNames(cs))
	}
}

// `-f -` reads the manifests from stdin: their paths are the current
// folder's, the run completes and its state is where its spec says.
func TestApplyStdin(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	repo := copyFixture(t, "docs-repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	dir := filepath.Join(repo, "docs", "b")
	manifests, err := os.ReadFile(filepath.Join(dir, "runs.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(smileBinaries(t), "smile"), "apply", "-f", "-", "--wait")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(string(manifests))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("apply -f -: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	rows := tableRows(t, stdout.String())
	if rows["hello"][1] != "completed" || rows["add"][1] != "completed" || rows["add"][0] != "docs/b/two.md" {
		t.Errorf("table rows = %q\n%s", rows, stdout.String())
	}
	for _, n := range []string{"hello", "add"} {
		run, err := store.Load(filepath.Join(dir, ".smile", n+".json"))
		if err != nil || run.Status.Phase != status.PhaseCompleted {
			t.Errorf("run %s: %v %v", n, err, run)
		}
	}
}
