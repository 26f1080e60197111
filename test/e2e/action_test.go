package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"
)

// action is the part of action.yml a composite action runs.
type action struct {
	Inputs map[string]struct {
		Default string `json:"default"`
	} `json:"inputs"`
	Runs struct {
		Using string `json:"using"`
		Steps []struct {
			Name string            `json:"name"`
			Uses string            `json:"uses"`
			If   string            `json:"if"`
			Env  map[string]string `json:"env"`
			Run  string            `json:"run"`
		} `json:"steps"`
	} `json:"runs"`
}

var expression = regexp.MustCompile(`\$\{\{\s*([\w.-]+)\s*\}\}`)

// TestGitHubAction runs the composite action's shell steps as GitHub's
// runner would (the inputs and github.action_path substituted, GITHUB_PATH
// honoured) on a copy of the quickstart: with the default fail-on the gap
// fails the step with exit 2 and the reports are written; with fail-on none
// the step passes.
func TestGitHubAction(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	root := repoRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := runfile.UnmarshalYAML(data, &a, false); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using = %q, want composite", a.Runs.Using)
	}
	for _, tt := range []struct {
		failOn   string
		wantCode int
	}{{"", 2}, {"none", 0}} {
		t.Run("fail-on="+tt.failOn, func(t *testing.T) {
			work := t.TempDir()
			for _, f := range []string{"run.yaml", "smile.json", "tutorial.md"} { // not a local run's .smile/ or reports
				writeFile(t, filepath.Join(work, f), readFile(t, filepath.Join(root, "examples", "quickstart", f)))
			}
			inputs := map[string]string{"files": "run.yaml"}
			if tt.failOn != "" {
				inputs["fail-on"] = tt.failOn
			}
			code := runAction(t, a, root, work, inputs)
			if code != tt.wantCode {
				t.Fatalf("the action's check step exited %d, want %d", code, tt.wantCode)
			}
			for _, f := range []string{"smile-report.md", "smile-report.sarif"} {
				if _, err := os.Stat(runFile(work, "quickstart", f)); err != nil {
					t.Errorf("the action wrote no %s: %v", f, err)
				}
			}
		})
	}
}

// runAction runs every `run` step in order in folder work and returns the
// last step's exit code (a failing step ends the job, as on GitHub).
func runAction(t *testing.T, a action, root, work string, given map[string]string) int {
	t.Helper()
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		inputs[name] = in.Default
	}
	for k, v := range given {
		inputs[k] = v
	}
	temp := t.TempDir()
	githubPath := filepath.Join(temp, "github_path")
	if err := os.WriteFile(githubPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	eval := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			name := expression.FindStringSubmatch(m)[1]
			switch {
			case name == "github.action_path":
				return root
			case strings.HasPrefix(name, "inputs."):
				return inputs[strings.TrimPrefix(name, "inputs.")]
			}
			t.Fatalf("action.yml uses %s, which this test does not provide", m)
			return ""
		})
	}
	code := 0
	for _, step := range a.Runs.Steps {
		if step.Run == "" {
			continue // actions/setup-go: Go is already here
		}
		if strings.Contains(step.Run, "${{") {
			t.Fatalf("step %q pastes an expression into its script; pass it through env", step.Name)
		}
		if cond := step.If; cond != "" {
			name, want, ok := strings.Cut(strings.TrimPrefix(cond, "inputs."), " == ")
			if !ok {
				t.Fatalf("step %q: condition %q not understood by this test", step.Name, cond)
			}
			if inputs[name] != strings.Trim(want, "'") {
				continue
			}
		}
		extra, _ := os.ReadFile(githubPath)
		path := os.Getenv("PATH")
		for _, dir := range strings.Fields(string(extra)) {
			path = dir + string(os.PathListSeparator) + path
		}
		cmd := exec.Command("bash", "-e", "-c", step.Run)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "RUNNER_TEMP="+temp, "GITHUB_PATH="+githubPath, "PATH="+path)
		for k, v := range step.Env {
			cmd.Env = append(cmd.Env, k+"="+eval(v))
		}
		out, err := cmd.CombinedOutput()
		code = cmd.ProcessState.ExitCode()
		t.Logf("step %q: exit %d\n%s", step.Name, code, out)
		if err != nil && code < 0 {
			t.Fatalf("step %q did not run: %v", step.Name, err)
		}
		if code != 0 {
			return code
		}
	}
	return code
}
