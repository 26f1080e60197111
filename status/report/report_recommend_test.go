package report

import (
	"slices"
	"testing"

	"github.com/smile-loop/smile/status"
)

func descriptions(recs []Recommendation) []string {
	var out []string
	for i, r := range recs {
		if r.Priority != i+1 {
			t := r
			out = append(out, "BAD PRIORITY "+t.Category)
		}
		out = append(out, r.Category+": "+r.Description)
	}
	return out
}

func TestRecommendationsSample(t *testing.T) {
	got := descriptions(BuildReport(sampleRun(), sampleInput()).Recommendations)
	want := []string{
		`blocker: The Student could not get past line 30 ("./run.sh"): the Student cannot run ./run.sh. Fix this step first: the steps after it were never tried.`,
		"permission_denied: Make scripts executable in the tutorial (chmod +x) before running them: run.sh (line 30)",
		"missing_dependency: Add a Prerequisites section listing: jq (line 12), python3 (line 20)",
		"output_mismatch: Update the expected output shown at line 14 to match what the commands print (or say which parts may differ).",
	}
	if !slices.Equal(got, want) {
		t.Errorf("recommendations:\n%q\nwant:\n%q", got, want)
	}
}

func gap(c status.Category, s status.Severity, line int, quote, problem, command string) status.Gap {
	return status.Gap{Category: c, Severity: s, Location: status.GapLocation{LineNumber: line, Quote: quote}, Problem: problem, Command: command}
}

func TestRecommendationsByCategory(t *testing.T) {
	for _, tc := range []struct {
		name string
		gaps []status.Gap
		want []string
	}{
		{"dependencies named by the shell, merged by tool", []status.Gap{
			gap(status.CategoryMissingDependency, status.SeverityMajor, 30, "jq -r .id", "bash: line 1: jq: command not found", "jq -r .id"),
			gap(status.CategoryMissingDependency, status.SeverityMajor, 12, "jq .", "sh: 1: jq: not found", "jq ."),
			gap(status.CategoryMissingDependency, status.SeverityMajor, 20, "python3 -c 'import yaml'", "ModuleNotFoundError: No module named 'yaml'", "python3 -c 'import yaml'"),
			gap(status.CategoryMissingDependency, status.SeverityMajor, 25, "sudo make install", "the build needs make", "sudo make install"),
		}, []string{"missing_dependency: Add a Prerequisites section listing: jq (lines 12, 30), yaml (line 20), make (line 25)"}},
		{"scripts and privileges", []status.Gap{
			gap(status.CategoryPermissionDenied, status.SeverityMajor, 9, "mkdir /opt/app", "mkdir: cannot create directory '/opt/app': Permission denied", "mkdir /opt/app"),
			gap(status.CategoryPermissionDenied, status.SeverityMajor, 30, "./scripts/deploy.sh prod", "Permission denied", "./scripts/deploy.sh prod"),
		}, []string{
			"permission_denied: Say which steps need elevated privileges (sudo), or use paths the learner can write to: mkdir /opt/app (line 9)",
			"permission_denied: Make scripts executable in the tutorial (chmod +x) before running them: scripts/deploy.sh (line 30)",
		}},
		{"files", []status.Gap{
			gap(status.CategoryMissingFile, status.SeverityMajor, 8, "cat config.yaml", "cat: config.yaml: No such file or directory", "cat config.yaml"),
			gap(status.CategoryMissingFile, status.SeverityMajor, 15, "python3 load.py", "FileNotFoundError: [Errno 2] No such file or directory: 'data.csv'", "python3 load.py"),
		}, []string{"missing_file: Show how to create every file before it is used (its name, location and content): config.yaml (line 8), data.csv (line 15)"}},
		{"variables", []status.Gap{
			gap(status.CategoryUndefinedVariable, status.SeverityMajor, 15, "curl $API_URL/users", "bash: API_URL: unbound variable", "curl $API_URL/users"),
			gap(status.CategoryUndefinedVariable, status.SeverityMajor, 16, "echo ${TOKEN_FILE}", "empty output", "echo ${TOKEN_FILE}"),
		}, []string{"undefined_variable: Define these variables before they are used (export NAME=value) and say where their values come from: $API_URL (line 15), $TOKEN_FILE (line 16)"}},
		{"output, images, ambiguity, timeouts, failures", []status.Gap{
			gap(status.CategoryOutputMismatch, status.SeverityMinor, 22, "Hello, World", "", ""),
			gap(status.CategoryOutputMismatch, status.SeverityMinor, 14, "{}", "", ""),
			gap(status.CategoryMissingImage, status.SeverityMinor, 40, "![Architecture](images/arch.png)", "image not found", ""),
			gap(status.CategoryAmbiguousInstruction, status.SeverityMajor, 5, "Configure the server as usual.", "which server?", ""),
			gap(status.CategoryTimeout, status.SeverityMajor, 7, "npm install", "no output for 300s", "npm install"),
			gap(status.CategoryCommandFailure, status.SeverityCritical, 50, "make build", "make: *** [build] Error 2", "make build\nmake test"),
		}, []string{
			"command_failure: Fix the commands that fail as written, or show what the learner must do first: make build (line 50)",
			`ambiguous_instruction: Make these instructions explicit (the exact command, file and location): "Configure the server as usual." (line 5)`,
			"timeout: Say how long these steps take and how to tell when they are done, or make them faster: npm install (line 7)",
			"output_mismatch: Update the expected output shown at lines 14, 22 to match what the commands print (or say which parts may differ).",
			"missing_image: Add the missing images or fix their paths: images/arch.png (line 40)",
		}},
		{"an unknown category", []status.Gap{gap("network_flake", status.SeverityMinor, 3, "curl example.com", "", "")}, []string{
			`network_flake: Review the network flake gaps: "curl example.com" (line 3)`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &status.Run{Status: status.Status{Phase: status.PhaseCompleted, Gaps: tc.gaps}}
			if got := descriptions(BuildReport(run, ReportInput{}).Recommendations); !slices.Equal(got, tc.want) {
				t.Errorf("recommendations:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}

func TestRecommendationsForHowTheRunEnded(t *testing.T) {
	onLine := []status.Gap{gap(status.CategoryCommandFailure, status.SeverityMajor, 18, "make build", "Error 2", "make build")}
	for _, tc := range []struct {
		name    string
		phase   status.Phase
		gaps    []status.Gap
		history []status.IterationRecord
		want    []string
	}{
		{"completed without gaps", status.PhaseCompleted, nil, nil, nil},
		{"blocker at the Student's last line", status.PhaseBlocker, onLine, []status.IterationRecord{{StudentOutput: status.StudentOutput{Line: 18, Quote: "make build"}}}, []string{
			`blocker: The Student could not get past line 18 ("make build"): it failed. Fix this step first: the steps after it were never tried.`,
		}},
		{"timeout at the last gap", status.PhaseTimeout, onLine, nil, []string{
			`timeout: The run timed out at line 18 ("make build"): it failed. Make this step finish sooner or say how long it takes: the steps after it were never tried.`,
		}},
		{"max iterations at a named step", status.PhaseMaxIterations, nil, []status.IterationRecord{{StudentOutput: status.StudentOutput{CurrentStep: "Build the site"}}}, []string{
			`max_iterations: The Student was still stuck at the step "Build the site" after 3 iterations: it failed. Fix this step first, or raise maxIterations if every iteration got further.`,
		}},
		{"error", status.PhaseError, nil, nil, []string{
			"error: The run stopped with an error (Crashed: it failed) at a step it did not name, before the tutorial was fully tested. Fix the cause and run SMILE again.",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := &status.Run{Status: status.Status{Phase: tc.phase, Iteration: 3, Reason: "Crashed", Message: "it failed", Gaps: tc.gaps, History: tc.history}}
			got := descriptions(BuildReport(run, ReportInput{}).Recommendations)
			if len(got) > len(tc.want) {
				got = got[:len(tc.want)] // the gaps' own recommendations follow
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("recommendations:\n%q\nwant:\n%q", got, tc.want)
			}
		})
	}
}
