package applyset

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func smileRun(name string) string {
	return fmt.Sprintf("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: %s\nspec:\n  llmProvider: literal\n", name)
}

func targetNames(ts []Target) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Name())
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

	ts, err := Collect([]string{filepath.Join(dir, "docs")}, false, nil)
	if err != nil || !slices.Equal(targetNames(ts), []string{"top"}) {
		t.Errorf("folder = %v, %v; want only top", targetNames(ts), err)
	}
	ts, err = Collect([]string{filepath.Join(dir, "docs"), filepath.Join(dir, "other.yaml")}, true, nil)
	if err != nil || !slices.Equal(targetNames(ts), []string{"a-one", "a-two", "b", "top", "other"}) {
		t.Errorf("-R and a file = %v, %v", targetNames(ts), err)
	}
	for _, tt := range ts {
		if multi := tt.Name() == "a-one" || tt.Name() == "a-two"; multi != (tt.Doc != "") {
			t.Errorf("%s: doc %q (a file of several SmileRuns is applied by name)", tt.Name(), tt.Doc)
		}
	}
	// The same file twice is once; one name in two files is an error.
	if ts, err := Collect([]string{filepath.Join(dir, "other.yaml"), filepath.Join(dir, "other.yaml")}, false, nil); err != nil || len(ts) != 1 {
		t.Errorf("same file twice = %v, %v", targetNames(ts), err)
	}
	writeFile(t, dir, "dup/run.yaml", smileRun("other"))
	if _, err := Collect([]string{filepath.Join(dir, "other.yaml"), filepath.Join(dir, "dup")}, false, nil); err == nil || !strings.Contains(err.Error(), "run other is defined in") {
		t.Errorf("same name in two files: error %v", err)
	}
	writeFile(t, dir, "broken/run.yaml", smileRun("x")+"  maxIterations: lots\n")
	if _, err := Collect([]string{filepath.Join(dir, "broken")}, false, nil); err == nil || !strings.Contains(err.Error(), "run.yaml:7:3: spec.maxIterations") {
		t.Errorf("broken manifest in a folder: error %v", err)
	}
	if _, err := Collect([]string{filepath.Join(dir, "docs", "a", "..", "b", "..", "..", "dup", "none")}, false, nil); err == nil {
		t.Error("missing file: error nil")
	}
	empty := t.TempDir()
	writeFile(t, empty, "smile.json", "{}")
	if _, err := Collect([]string{empty}, true, nil); err == nil || !strings.Contains(err.Error(), "no SmileRun manifest") {
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
	ts, err := Collect([]string{"-"}, false, in)
	if err != nil || !slices.Equal(targetNames(ts), []string{"one", "two"}) {
		t.Fatalf("stdin = %v, %v", targetNames(ts), err)
	}
	for _, tt := range ts {
		d, err := tt.Resolve()
		if err != nil {
			t.Fatalf("%s: %v", tt.Name(), err)
		}
		docs, _ := filepath.EvalSymlinks(filepath.Join(dir, "docs"))
		if d.Paths.Tutorial != filepath.Join(docs, "tutorial.md") || d.Paths.OutputDir != filepath.Join(docs, "reports") {
			t.Errorf("%s: tutorial %s, outputDir %s; want the current folder's", tt.Name(), d.Paths.Tutorial, d.Paths.OutputDir)
		}
		want := filepath.Join(docs, ".smile", "stdin", "one", "state.json")
		if tt.Name() == "two" {
			want = filepath.Join(docs, "st", "two.json")
		}
		if d.Paths.StateFile != want {
			t.Errorf("%s: stateFile %s, want %s", tt.Name(), d.Paths.StateFile, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "docs", ".smile", "stdin", "two.yaml")); err != nil {
		t.Errorf("stdin manifest not kept: %v", err)
	}
	t.Chdir(t.TempDir()) // no Git repository around
	if _, err := Collect([]string{"-"}, false, strings.NewReader(smileRun("one"))); err == nil || !strings.Contains(err.Error(), "Git repository") {
		t.Errorf("stdin outside a repository: error %v", err)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
