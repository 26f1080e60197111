package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/report/suggest"
)

func TestFrontMatterTitle(t *testing.T) {
	tests := []struct {
		name, content, title, want string
	}{
		{"yaml front matter wins over the H1", "---\ntitle: \"Deploy a Web App\"\nlayout: post\n---\n# Intro\n", "Intro", "Deploy a Web App"},
		{"single-quoted", "---\ntitle: 'Hello: world'\n---\n", "", "Hello: world"},
		{"toml front matter", "+++\ndraft = false\ntitle = \"Rust in 10 minutes\"\n+++\n", "", "Rust in 10 minutes"},
		{"front matter without a title uses the H1", "---\nlayout: post\n---\n# Intro\n", "Intro", "Intro"},
		{"no front matter uses the H1", "# Intro\n\n---\ntitle: no\n---\n", "Intro", "Intro"},
		{"nothing uses the file name", "Some text.\n", "", "getting-started"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := status.NewRun("r", "u", "run.yaml", t0)
			r := BuildReport(run, ReportInput{TutorialPath: "docs/getting-started.md", TutorialTitle: tt.title, TutorialContent: tt.content, Now: at(1)})
			if r.TutorialName != tt.want {
				t.Errorf("name = %q, want %q", r.TutorialName, tt.want)
			}
		})
	}
}

// causeRun is a run whose gaps carry every kind of cause: the environment,
// repeated lines, a skipped block, example output, a failed workaround.
func causeRun() (*status.Run, ReportInput) {
	run := status.NewRun("mn-cause", "u1", "run.yaml", t0)
	finished := at(400)
	answer := "Line 9 (`cat settings.ini`): the tutorial shows the file's content at line 12.\n\n" +
		"Workaround, run before line 9:\n````sh\ncat > notes.md <<'SMILE_EOF'\n# Notes\n\n```sh\nmake\n```\nSMILE_EOF\n````\n"
	run.Status = status.Status{
		Phase: status.PhaseBlocker, Iteration: 2, StartedAt: t0, UpdatedAt: finished, FinishedAt: &finished,
		Reason: "StudentBlocked", Message: "the Student cannot reach the network",
		Gaps: []status.Gap{
			{ID: 1, Title: "Environment, not the tutorial: go build ./...", Category: status.CategoryEnvironment, Severity: status.SeverityMinor,
				Location: status.GapLocation{LineNumber: 7, Quote: "go build ./..."}, Iteration: 1, Command: "go build ./...",
				Problem:      "the image lacks `go`, which the tutorial lists as a prerequisite (line 3): bash: go: command not found",
				SuggestedFix: "Nothing to fix in the tutorial: run it with a `containerImage` that has `go` installed."},
			{ID: 2, Title: "Missing file: cat settings.ini", Category: status.CategoryMissingFile, Severity: status.SeverityMajor,
				Location: status.GapLocation{LineNumber: 9, Quote: "cat settings.ini"}, Iteration: 1, Command: "cat settings.ini",
				Problem: "`settings.ini` does not exist", CauseLine: 5, CauseQuote: "On macOS, create it with:"},
			{ID: 3, Title: "Output differs from the tutorial", Category: status.CategoryOutputMismatch, Severity: status.SeverityMinor,
				Location: status.GapLocation{LineNumber: 20, Quote: "took 1.2s"}, Iteration: 2, Lines: []int{26, 31}, Tolerant: true,
				Problem: "the tutorial shows `took 1.2s`, but it printed: took 0.4s"},
		},
		MentorNotes: []status.MentorNote{{Iteration: 1, Line: 9, Question: "Where does settings.ini come from?", Answer: answer,
			Resolution: status.ResolutionWorkaround, Workaround: "cat > notes.md <<'SMILE_EOF'\n# Notes\n\n```sh\nmake\n```\nSMILE_EOF"}},
		History: []status.IterationRecord{
			{Iteration: 1, StudentOutput: status.StudentOutput{Skipped: []status.SkippedBlock{{Line: 4, EndLine: 6, Reason: "for macOS", Quote: "brew install go"}}}},
			{Iteration: 2, StudentOutput: status.StudentOutput{Skipped: []status.SkippedBlock{
				{Line: 4, EndLine: 6, Reason: "for macOS", Quote: "brew install go"},
				{Line: 15, Reason: "a syntax template, not a command", Quote: "go run <file>"}}}},
		},
	}
	in := ReportInput{
		TutorialPath: "tutorial.md", TutorialContent: "---\ntitle: Build a Go service\n---\n", Now: at(401),
		Audits: []status.Audit{{Commands: []status.AuditCommand{
			{Iteration: 2, Role: status.RoleStudent, Line: 7, Command: "apt-get update && apt-get install -y golang-go", ExitCode: 137, TimedOut: true, DurationMs: 300000, Workaround: true, StartedAt: at(100)},
			{Iteration: 2, Role: status.RoleStudent, Line: 7, Command: "go build ./...", ExitCode: 127, Output: "bash: go: command not found\n", StartedAt: at(400)},
			{Iteration: 2, Role: status.RoleStudent, Line: 9, Command: "cat > notes.md <<'SMILE_EOF'", ExitCode: 1, Output: "sh: can't create notes.md: Read-only file system\n", Workaround: true, StartedAt: at(401)},
		}}},
	}
	return run, in
}

// TestReportCauseGolden pins how the Markdown report shows causes, skipped
// blocks and a Mentor's code. After an intended change: go test ./status/
// -run TestReportCauseGolden -update, then read the diff.
func TestReportCauseGolden(t *testing.T) {
	r := BuildReport(causeRun())
	got := RenderMarkdown(r)
	path := filepath.Join("testdata", "report-cause.md.golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the rendering (run with -update if intended)\n--- got ---\n%s", path, got)
	}
}

func TestReportCause(t *testing.T) {
	r := BuildReport(causeRun())
	md := string(RenderMarkdown(r))
	for _, want := range []string{
		"# SMILE Loop Report: Build a Go service\n",
		"## Skipped\n",
		"| 4-6 | for macOS | `brew install go` |\n",
		"| 15 | a syntax template, not a command | `go run <file>` |\n",
		"- **Environment**: the container lacked this",
		"- **Lines**: 20, 26, 31\n",
		"- **Likely Cause**: the block at line 5 (On macOS, create it with:)\n",
		"- **Tolerance**: the tutorial shows this output as an example",
		"did not finish within its time limit and was stopped after 5m.",
		"failed with exit code 1: sh: can't create notes.md: Read-only file system.",
		// The Mentor's code block is whole: its inner fence and blank line too.
		"cat > notes.md <<'SMILE_EOF'\n# Notes\n\n```sh\nmake\n```\nSMILE_EOF\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	doc := parseMD(t, []byte(md))
	var h2 []string
	for _, h := range doc.headings {
		if h.level == 2 {
			h2 = append(h2, h.text)
		}
	}
	if strings.Join(h2, "|") != "Summary|Gaps Identified|Skipped|Timeline|Mentor Notes|Audit Trail|Recommendations" {
		t.Errorf("sections = %v", h2)
	}

	js, err := RenderJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Skipped) != 2 || back.Gaps[2].Lines[1] != 31 || back.Gaps[1].CauseLine != 5 || !back.Gaps[2].Tolerant ||
		!strings.Contains(back.Gaps[0].WorkaroundResult, "did not finish") {
		t.Errorf("JSON lost a field:\n%s", js)
	}
}

// The CI formats agree: what the container lacked is a note (SARIF), a
// notice (GitHub) and a skipped case (JUnit), never an error.
func TestEnvironmentGapLevels(t *testing.T) {
	r := BuildReport(causeRun())
	sarif, err := RenderSARIF(r)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID, Level string
				Message       struct{ Text string }
			}
		}
	}
	if err := json.Unmarshal(sarif, &log); err != nil {
		t.Fatal(err)
	}
	levels := map[string]string{}
	for _, res := range log.Runs[0].Results {
		levels[res.RuleID] = res.Level
		if res.RuleID == "environment" && !strings.Contains(res.Message.Text, "Environment: the container lacked this") {
			t.Errorf("environment message = %q", res.Message.Text)
		}
		if res.RuleID == "missing_file" && !strings.Contains(res.Message.Text, "Likely cause: the block at line 5 (On macOS, create it with:).") {
			t.Errorf("missing_file message = %q", res.Message.Text)
		}
	}
	if levels["environment"] != "note" || levels["missing_file"] != "error" || levels["output_mismatch"] != "warning" {
		t.Errorf("SARIF levels = %v", levels)
	}

	gh := string(RenderGitHub(r))
	if !strings.Contains(gh, "::notice file=tutorial.md,line=7,") || !strings.Contains(gh, "::error file=tutorial.md,line=9,") {
		t.Errorf("GitHub annotations:\n%s", gh)
	}

	r.Steps = []ReportStep{{Line: 7, Kind: StepCommand, Text: "go build ./..."}, {Line: 9, Kind: StepCommand, Text: "cat settings.ini"}}
	junit, err := RenderJUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	j := string(junit)
	if !strings.Contains(j, `<skipped message="environment: the image lacks`) || strings.Count(j, "<failure") != 2 {
		t.Errorf("JUnit:\n%s", j)
	}
}

func TestRecommendEnvironment(t *testing.T) {
	gaps := []status.Gap{{ID: 1, Category: status.CategoryEnvironment, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 7, Quote: "curl https://example.org"}, Command: "curl https://example.org"}}
	recs := recommend(ReportSummary{Status: ReportBlocker}, gaps, stuckStep{Line: 7})
	if len(recs) != 2 || !strings.Contains(recs[0].Description, "not because of the tutorial") ||
		recs[1].Category != "environment" || !strings.Contains(recs[1].Description, "studentNetwork") {
		t.Errorf("recommendations = %+v", recs)
	}
}

func TestNoSuggestedChangeForEnvironment(t *testing.T) {
	for _, c := range []status.Category{status.CategoryEnvironment, status.CategoryMissingDependency} {
		t.Run(string(c), func(t *testing.T) {
			g := status.Gap{Category: c, Location: status.GapLocation{LineNumber: 9, Quote: "apt-get install -y jq"}, Command: "apt-get install -y jq",
				SuggestedFix: "Add `apt-get update` before line 9."}
			_, ok := suggest.For(g, "apt-get install -y jq", nil)
			if ok != (c != status.CategoryEnvironment) {
				t.Errorf("suggestion offered = %v", ok)
			}
		})
	}
}
