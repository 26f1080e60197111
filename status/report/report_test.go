package report

import (
	"encoding/json"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func at(sec float64) time.Time { return t0.Add(time.Duration(sec * float64(time.Second))) }

const sampleToken = "tok-3f9a1c2e7b5d"

// sampleRun is a run that ended on a blocker after two iterations: four gaps
// of three categories and every severity, two Mentor notes, a timeline.
func sampleRun() *status.Run {
	run := status.NewRun("quickstart", "2b7e0c", "run.yaml", t0)
	finished := at(72)
	mentor := "jq is not installed in the image."
	run.Status = status.Status{
		Phase:      status.PhaseBlocker,
		Iteration:  2,
		StartedAt:  t0,
		UpdatedAt:  finished,
		FinishedAt: &finished,
		Reason:     "StudentBlocked",
		Message:    "the Student cannot run ./run.sh",
		Token:      sampleToken,
		Gaps: []status.Gap{
			{
				ID: 1, Title: "Missing dependency: jq .name data.json", Category: status.CategoryMissingDependency, Severity: status.SeverityMajor,
				Location:     status.GapLocation{LineNumber: 12, Quote: "jq .name data.json"},
				Problem:      "bash: jq: command not found (exit 127)",
				SuggestedFix: "Install jq before this step:\n\n```sh\napt-get update && apt-get install -y jq\n```\n",
				Iteration:    1, Command: "jq .name data.json",
			},
			{
				ID: 2, Title: "Output differs from the tutorial", Category: status.CategoryOutputMismatch, Severity: status.SeverityMinor,
				Location:     status.GapLocation{LineNumber: 14, Quote: `{"name": "smile"}`},
				Problem:      `the tutorial shows {"name": "smile"} but jq printed "smile"`,
				SuggestedFix: "Show the output jq prints: \"smile\".",
				Iteration:    2,
			},
			{
				ID: 3, Title: "Missing dependency: python3 app.py", Category: status.CategoryMissingDependency, Severity: status.SeverityMajor,
				Location:  status.GapLocation{LineNumber: 20, Quote: "python3 app.py"},
				Problem:   "bash: python3: command not found",
				Iteration: 2, Command: "python3 app.py",
			},
			{
				ID: 4, Title: "Permission denied: ./run.sh", Category: status.CategoryPermissionDenied, Severity: status.SeverityCritical,
				Location:     status.GapLocation{LineNumber: 30, Quote: "./run.sh"},
				Problem:      "bash: ./run.sh: Permission denied",
				SuggestedFix: "Add `chmod +x run.sh` before running it.",
				Iteration:    2, Command: "./run.sh",
			},
		},
		MentorNotes: []status.MentorNote{
			{
				Iteration: 1, Question: "jq: command not found at line 12. What should I do?",
				Answer:    "jq is not installed in the image.\n\n```sh\napt-get install -y jq\n```",
				Timestamp: at(20), Line: 12, Category: status.CategoryMissingDependency,
				Resolution: status.ResolutionWorkaround, Workaround: "apt-get install -y jq",
				SuggestedFix: "Add jq to the prerequisites.",
			},
			{
				Iteration: 2, Question: "./run.sh: Permission denied. How do I run it?",
				Answer:    "The tutorial never makes run.sh executable; I know no way past without changing it.",
				Timestamp: at(65), Line: 30, Resolution: status.ResolutionUnresolvable,
			},
		},
		History: []status.IterationRecord{
			{Iteration: 1, StartedAt: t0, EndedAt: at(15), MentorOutput: &mentor, StudentOutput: status.StudentOutput{
				Status: status.StudentAskMentor, CurrentStep: "Parse the data", Line: 12, Quote: "jq .name data.json",
			}},
			{Iteration: 2, StartedAt: at(25), EndedAt: at(60), StudentOutput: status.StudentOutput{
				Status: status.StudentCannotComplete, CurrentStep: "Run the app", Line: 30, Quote: "./run.sh",
			}},
		},
		Timeline: []status.TimelineEntry{
			{Timestamp: t0, Iteration: 0, Event: "RunStarted", Details: "generation 1 of tutorial.md with provider literal"},
			{Timestamp: at(1), Iteration: 1, Event: "StudentStarted", Details: "container smile-quickstart-student-1"},
			{Timestamp: at(15), Iteration: 1, Event: "StudentReported", Details: "ask_mentor at line 12"},
			{Timestamp: at(16), Iteration: 1, Event: "MentorStarted", Details: "callback token " + sampleToken},
			{Timestamp: at(20), Iteration: 1, Event: "MentorAnswered", Details: "jq is not installed in the image."},
			{Timestamp: at(25), Iteration: 2, Event: "StudentStarted", Details: "container smile-quickstart-student-2"},
			{Timestamp: at(60), Iteration: 2, Event: "StudentReported", Details: "cannot_complete at line 30"},
			{Timestamp: at(72), Iteration: 2, Event: "LoopEnded", Details: "blocker: the Student cannot run ./run.sh"},
		},
	}
	return run
}

func sampleInput() ReportInput {
	return ReportInput{
		TutorialPath:  "tutorial.md",
		TutorialTitle: "Quickstart: Hello SMILE",
		Now:           at(75),
		Audits: []status.Audit{
			{ // Student, iteration 1
				Commands: []status.AuditCommand{
					{Iteration: 1, Role: status.RoleStudent, Line: 8, Command: "cat > data.json <<'EOF'\n{\"name\": \"smile\"}\nEOF", ExitCode: 0, DurationMs: 4, StartedAt: at(2)},
					{Iteration: 1, Role: status.RoleStudent, Line: 12, Command: "jq .name data.json", ExitCode: 127, DurationMs: 35, Output: "bash: jq: command not found\n", StartedAt: at(3)},
				},
				Files: []status.AuditFile{{Iteration: 1, Line: 8, Path: "data.json", Action: "create", Bytes: 18, WrittenAt: at(2.5)}},
			},
			{ // Mentor, iteration 1
				Commands: []status.AuditCommand{},
				LLMCalls: []status.LLMCall{{Iteration: 1, Role: status.RoleMentor, Provider: "claude", Model: "claude-sonnet-4-5", InputTokens: 1200, OutputTokens: 300, CostUSD: 0.0081, DurationMs: 4200, StartedAt: at(17)}},
			},
			{ // Student, iteration 2
				Commands: []status.AuditCommand{
					{Iteration: 2, Role: status.RoleStudent, Line: 12, Command: "apt-get install -y jq", ExitCode: 0, DurationMs: 5300, Output: "Setting up jq (1.7.1-3) ...\n", StartedAt: at(26), Workaround: true},
					{Iteration: 2, Role: status.RoleStudent, Line: 12, Command: "jq .name data.json", ExitCode: 0, DurationMs: 12, Output: "\"smile\"\n", StartedAt: at(32)},
					{Iteration: 2, Role: status.RoleStudent, Line: 20, Command: "python3 app.py", ExitCode: 127, DurationMs: 3, Output: "bash: python3: command not found\n", StartedAt: at(33)},
					{Iteration: 2, Role: status.RoleStudent, Line: 30, Command: "./run.sh", ExitCode: 126, DurationMs: 2, Output: "bash: ./run.sh: Permission denied\nOPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx\n", StartedAt: at(34)},
				},
				Files:    []status.AuditFile{{Iteration: 2, Line: 26, Path: "run.sh", Action: "create", Bytes: 42, WrittenAt: at(33.5)}},
				LLMCalls: []status.LLMCall{},
			},
		},
	}
}

// decode renders a report's JSON and decodes it as a reader would.
func decode(t *testing.T, r *Report) (map[string]any, string) {
	t.Helper()
	data, err := RenderJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("report JSON does not decode: %v\n%s", err, data)
	}
	return m, string(data)
}

func keys(t *testing.T, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("want an object, got %T (%v)", v, v)
	}
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return sortedStrings(out)
}

func sortedStrings(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func TestReportJSONFieldNames(t *testing.T) {
	m, _ := decode(t, BuildReport(sampleRun(), sampleInput()))

	gap := m["gaps"].([]any)[0]
	audit := m["auditTrail"]
	for _, tc := range []struct {
		name string
		obj  any
		want []string
	}{
		{"report", m, []string{"auditTrail", "gaps", "generatedAt", "mentorNotes", "recommendations", "skipped", "summary", "timeline", "tutorialName"}},
		{"summary", m["summary"], []string{"cost", "durationSeconds", "gapCounts", "iterations", "message", "reason", "status", "tutorialPath"}},
		{"cost", m["summary"].(map[string]any)["cost"], []string{"calls", "inputTokens", "outputTokens", "usd"}},
		{"gapCounts", m["summary"].(map[string]any)["gapCounts"], []string{"critical", "environment", "major", "minor"}},
		{"gap", gap, []string{"category", "command", "id", "iteration", "location", "problem", "severity", "suggestedFix", "title"}},
		{"location", gap.(map[string]any)["location"], []string{"lineNumber", "quote"}},
		{"auditTrail", audit, []string{"commands", "files", "llmCalls"}},
		{"recommendation", m["recommendations"].([]any)[0], []string{"category", "description", "priority"}},
		{"timelineEntry", m["timeline"].([]any)[0], []string{"details", "event", "iteration", "timestamp"}},
		{"command", audit.(map[string]any)["commands"].([]any)[1], []string{"command", "durationMs", "exitCode", "iteration", "line", "output", "role", "startedAt"}},
		{"file", audit.(map[string]any)["files"].([]any)[0], []string{"action", "bytes", "iteration", "line", "path", "writtenAt"}},
		{"llmCall", audit.(map[string]any)["llmCalls"].([]any)[0], []string{"costUsd", "durationMs", "inputTokens", "iteration", "model", "outputTokens", "provider", "role", "startedAt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := keys(t, tc.obj); !reflect.DeepEqual(got, sortedStrings(tc.want)) {
				t.Errorf("keys = %v, want %v", got, sortedStrings(tc.want))
			}
		})
	}

	camel := regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				if !camel.MatchString(k) {
					t.Errorf("%s.%s is not camelCase", path, k)
				}
				walk(path+"."+k, e)
			}
		case []any:
			for _, e := range v {
				walk(path+"[]", e)
			}
		}
	}
	walk("report", m)
}

func TestReportJSONValues(t *testing.T) {
	m, raw := decode(t, BuildReport(sampleRun(), sampleInput()))
	get := func(path ...string) any {
		var v any = m
		for _, p := range path {
			switch c := v.(type) {
			case map[string]any:
				v = c[p]
			case []any:
				i, err := strconv.Atoi(p)
				if err != nil || i >= len(c) {
					t.Fatalf("no element %q in %v", p, path)
				}
				v = c[i]
			}
		}
		return v
	}
	for _, tc := range []struct {
		path []string
		want any
	}{
		{[]string{"tutorialName"}, "Quickstart: Hello SMILE"},
		{[]string{"summary", "status"}, "blocker"},
		{[]string{"summary", "iterations"}, 2.0},
		{[]string{"summary", "durationSeconds"}, 72.0},
		{[]string{"summary", "tutorialPath"}, "tutorial.md"},
		{[]string{"summary", "gapCounts", "critical"}, 1.0},
		{[]string{"summary", "gapCounts", "major"}, 2.0},
		{[]string{"summary", "gapCounts", "minor"}, 1.0},
		{[]string{"summary", "reason"}, "StudentBlocked"},
		{[]string{"summary", "message"}, "the Student cannot run ./run.sh"},
		{[]string{"gaps", "0", "id"}, 1.0},
		{[]string{"gaps", "0", "category"}, "missing_dependency"},
		{[]string{"gaps", "0", "severity"}, "major"},
		{[]string{"gaps", "0", "location", "lineNumber"}, 12.0},
		{[]string{"gaps", "0", "location", "quote"}, "jq .name data.json"},
		{[]string{"gaps", "0", "iteration"}, 1.0},
		{[]string{"gaps", "3", "severity"}, "critical"},
		{[]string{"gaps", "3", "suggestedFix"}, "Add `chmod +x run.sh` before running it."},
		{[]string{"timeline", "7", "event"}, "LoopEnded"},
		{[]string{"mentorNotes", "0", "answer"}, "jq is not installed in the image.\n\n```sh\napt-get install -y jq\n```"},
		{[]string{"auditTrail", "commands", "1", "exitCode"}, 127.0},
		{[]string{"auditTrail", "commands", "1", "durationMs"}, 35.0},
		{[]string{"auditTrail", "commands", "2", "workaround"}, true},
		{[]string{"auditTrail", "llmCalls", "0", "inputTokens"}, 1200.0},
		{[]string{"recommendations", "0", "priority"}, 1.0},
		{[]string{"recommendations", "0", "category"}, "blocker"},
		{[]string{"generatedAt"}, "2026-11-22T10:01:15Z"},
	} {
		if got := get(tc.path...); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s = %#v, want %#v", strings.Join(tc.path, "."), got, tc.want)
		}
	}
	if n := len(get("auditTrail", "commands").([]any)); n != 6 {
		t.Errorf("auditTrail.commands has %d entries, want all 6", n)
	}
	if strings.Contains(raw, sampleToken) {
		t.Errorf("report JSON holds the run's token")
	}
}

func TestReportArraysNeverNull(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *Report
	}{
		{"built from an empty run", BuildReport(&status.Run{Status: status.Status{Phase: status.PhaseCompleted}}, ReportInput{Now: t0})},
		{"built by hand", &Report{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, raw := decode(t, tc.r)
			if strings.Contains(raw, "null") {
				t.Errorf("JSON has a null:\n%s", raw)
			}
			for _, path := range [][]string{{"gaps"}, {"timeline"}, {"mentorNotes"}, {"recommendations"}, {"auditTrail", "commands"}, {"auditTrail", "files"}, {"auditTrail", "llmCalls"}} {
				var v any = m
				for _, p := range path {
					v = v.(map[string]any)[p]
				}
				if a, ok := v.([]any); !ok || len(a) != 0 {
					t.Errorf("%s = %#v, want []", strings.Join(path, "."), v)
				}
			}
		})
	}
}

func TestReportSummaryStatus(t *testing.T) {
	for _, tc := range []struct {
		phase      status.Phase
		status     string
		wantReason string
	}{
		{status.PhaseCompleted, "completed", "Because"},
		{status.PhaseMaxIterations, "max_iterations", "Because"},
		{status.PhaseBlocker, "blocker", "Because"},
		{status.PhaseTimeout, "timeout", "Because"},
		{status.PhaseError, "error", "Because"},
		// A loop cut short is not one of the five: the report says error.
		{status.PhaseRunningStudent, "error", "NotFinished"},
		{status.PhaseWaitingForMentor, "error", "NotFinished"},
	} {
		t.Run(string(tc.phase), func(t *testing.T) {
			run := sampleRun()
			run.Status.Phase, run.Status.Reason = tc.phase, "Because"
			m, _ := decode(t, BuildReport(run, sampleInput()))
			sum := m["summary"].(map[string]any)
			if sum["status"] != tc.status || sum["reason"] != tc.wantReason {
				t.Errorf("status, reason = %v, %v; want %s, %s", sum["status"], sum["reason"], tc.status, tc.wantReason)
			}
		})
	}
}

func TestReportDuration(t *testing.T) {
	run := sampleRun()
	run.Status.FinishedAt = nil // still running when built: measured to Now
	if got := BuildReport(run, sampleInput()).Summary.DurationSeconds; got != 75 {
		t.Errorf("durationSeconds = %d, want 75 (to Now)", got)
	}
	run.Status.StartedAt = time.Time{}
	if got := BuildReport(run, sampleInput()).Summary.DurationSeconds; got != 0 {
		t.Errorf("durationSeconds = %d for a run that never started, want 0", got)
	}
}

func TestReportTutorialName(t *testing.T) {
	for _, tc := range []struct {
		title, path, run, want string
	}{
		{"Quickstart:  Hello\nSMILE", "docs/quickstart.md", "qs", "Quickstart: Hello SMILE"},
		{"", "docs/getting-started.md", "qs", "getting-started"},
		{"", "README", "qs", "README"},
		{"", "", "qs", "qs"},
		{"", "", "", "tutorial"},
	} {
		run := &status.Run{Metadata: status.Metadata{Name: tc.run}}
		if got := BuildReport(run, ReportInput{TutorialTitle: tc.title, TutorialPath: tc.path}).TutorialName; got != tc.want {
			t.Errorf("tutorialName(%q, %q, %q) = %q, want %q", tc.title, tc.path, tc.run, got, tc.want)
		}
	}
}

func TestReportFillsGapIDAndTitle(t *testing.T) {
	run := &status.Run{Status: status.Status{Phase: status.PhaseCompleted, Gaps: []status.Gap{
		{Category: status.CategoryMissingFile, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 9}},
	}}}
	g := BuildReport(run, ReportInput{}).Gaps[0]
	if g.ID != 1 || g.Title != "Missing file at line 9" {
		t.Errorf("gap id, title = %d, %q; want 1, %q", g.ID, g.Title, "Missing file at line 9")
	}
	if run.Status.Gaps[0].ID != 0 {
		t.Errorf("BuildReport changed the run's gaps")
	}
}

func TestReportExcerptsOutput(t *testing.T) {
	in := ReportInput{Audits: []status.Audit{{Commands: []status.AuditCommand{{Command: "yes", Output: strings.Repeat("y\n", 5000)}}}}}
	out := BuildReport(&status.Run{}, in).AuditTrail.Commands[0].Output
	if len(out) > status.MaxOutputExcerpt+100 || !strings.Contains(out, "output shortened") {
		t.Errorf("output kept %d bytes, want an excerpt of about %d", len(out), status.MaxOutputExcerpt)
	}
}

// Environment findings are counted apart from the tutorial's gaps in every
// summary: the report's, the job summary's badges and the GitHub line.
func TestEnvironmentNotesAreCountedApart(t *testing.T) {
	run := sampleRun()
	run.Status.Gaps = []status.Gap{
		{ID: 1, Title: "No network", Category: status.CategoryEnvironment, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 7}},
		{ID: 2, Title: "Not executable", Category: status.CategoryPermissionDenied, Severity: status.SeverityMinor, Location: status.GapLocation{LineNumber: 9}},
	}
	r := BuildReport(run, sampleInput())
	if want := (GapCounts{Minor: 1, Environment: 1}); r.Summary.GapCounts != want {
		t.Errorf("gapCounts = %+v, want %+v", r.Summary.GapCounts, want)
	}
	for name, want := range map[string][]string{
		"md":      {"- **Gaps**: 1 (0 critical, 0 major, 1 minor)\n", "- **Environment**: 1 environment note: what the container lacked, not gaps of the tutorial\n"},
		"summary": {"`gaps: 1`", "`environment notes: 1`"},
		"github":  {": 1 gap (0 critical, 0 major, 1 minor), 1 environment note"},
	} {
		data, err := RenderFormat(name, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(data), w) {
				t.Errorf("%s lacks %q:\n%s", name, w, data)
			}
		}
	}
}
