package codex_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/codex"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

const tutorial = "# Notes app\n\n![screen](screen.png)\n\n```bash\nmkdir notes && cd notes\nnpm init -y\nnode index.js\n```\n"

const fakeKey = "sk-proj-FAKEFAKEFAKEFAKE0123456789abcdef"

func run(t *testing.T, role status.Role, scenario any, llm *wire.TaskLLM, env ...string) (*fakebin.Sandbox, any, []time.Duration, error) {
	t.Helper()
	sb := fakebin.NewSandbox(t, tutorial, scenario)
	if err := os.WriteFile(filepath.Join(sb.TutorialDir, "screen.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := sb.Env(env...)
	var waits []time.Duration
	r := agent.Runner{
		Backend:  codex.Backend{Path: fakebin.Path(t, "codex")},
		Getenv:   func(k string) string { return fakebin.Getenv(full, k) },
		Environ:  func() []string { return full },
		Sleep:    func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		LookPath: func(string) (string, error) { return "codex", nil },
	}
	task := sb.Task(t, role, 1, spec.ProviderCodex, llm)
	penv := provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()}
	if role == status.RoleMentor {
		task.StudentOutput = &status.StudentOutput{Status: status.StudentAskMentor, Line: 8, QuestionForMentor: "node: command not found?"}
		res, err := r.Mentor(context.Background(), task, penv)
		return sb, res, waits, err
	}
	res, err := r.Student(context.Background(), task, penv)
	return sb, res, waits, err
}

func TestStudentEventsAndFlags(t *testing.T) {
	answer := map[string]any{"status": "ask_mentor", "currentStep": "start the app", "attemptedActions": []string{"ran the block"},
		"problem": "bash: node: command not found", "questionForMentor": "Is Node.js needed?", "summary": "stuck at node",
		"filesCreated": []string{}, "commandsRun": []string{}, "line": nil, "quote": "node index.js", "category": "missing_dependency", "findings": []any{}}
	sb, res, _, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{
		"run": []string{"mkdir -p notes && cd notes", "false"}, "write": []map[string]string{{"path": "notes/index.js", "content": "console.log(1)\n"}},
		"web": "how to install node", "answerJson": answer, "inputTokens": 20000, "outputTokens": 1500,
	}}}, &wire.TaskLLM{Model: "gpt-5-codex", Prices: map[string]spec.Price{"gpt-5": {InputPerMillion: 1.25, OutputPerMillion: 10}}}, "CODEX_API_KEY="+fakeKey)
	if err != nil {
		t.Fatal(err)
	}
	out := res.(*wire.StudentResultRequest)
	if out.StudentOutput.Status != status.StudentAskMentor || out.StudentOutput.Line != 8 || out.StudentOutput.Findings[0].Category != status.CategoryMissingDependency {
		t.Errorf("output = %+v", out.StudentOutput)
	}
	cmds := out.Audit.Commands
	if len(cmds) != 2 || cmds[0].Command != "mkdir -p notes && cd notes" || cmds[1].ExitCode != 1 {
		t.Errorf("commands = %+v (codex's bash -lc wrapper must be removed)", cmds)
	}
	if len(out.Audit.Files) != 1 || out.Audit.Files[0].Path != "notes/index.js" || out.Audit.Files[0].Action != "create" {
		t.Errorf("files = %+v", out.Audit.Files)
	}
	c := out.Audit.LLMCalls[0]
	// 20000 in at $1.25/M + 1500 out at $10/M, from the "gpt-5" price.
	if !c.Estimated || c.NoPrice || c.CostUSD < 0.0399 || c.CostUSD > 0.0401 || c.Model != "gpt-5-codex" {
		t.Errorf("llm call = %+v", c)
	}
	r := fakebin.Records(t, sb.Logs, "codex")[0]
	if r.Argv[0] != "exec" || !r.Has("--json") || !r.Has("--skip-git-repo-check") || !r.Has("--ephemeral") ||
		!r.Has("--dangerously-bypass-approvals-and-sandbox") || r.Flag("-C") != sb.Work || r.Flag("-c") != `web_search="disabled"` ||
		r.Flag("-m") != "gpt-5-codex" || !r.Has("--image="+filepath.Join(sb.TutorialDir, "screen.png")) || r.Argv[len(r.Argv)-2] != "--" {
		t.Errorf("argv = %q", r.Argv)
	}
	if r.Stdin != "devnull" || r.Env["CODEX_API_KEY"] != "set" || len(r.Denied) != 1 || r.Denied[0] != "web_search" {
		t.Errorf("stdin %q env %v denied %q", r.Stdin, r.Env, r.Denied)
	}
}

func TestMentorGetsWebSearch(t *testing.T) {
	sb, res, _, err := run(t, status.RoleMentor, map[string]any{"mentor-1": []map[string]any{{
		"web": "node install debian", "answerJson": map[string]any{"notes": "Install Node.js first.", "resolution": "workaround",
			"workaround": "apt-get install -y nodejs", "quote": nil, "line": nil, "category": nil, "suggestedFix": nil},
	}}}, nil, "CODEX_API_KEY="+fakeKey)
	if err != nil {
		t.Fatal(err)
	}
	m := res.(*wire.MentorResultRequest)
	if m.Advice.Resolution != status.ResolutionWorkaround || m.Advice.Line != 8 || m.Advice.Workaround != "apt-get install -y nodejs" {
		t.Errorf("advice = %+v", m.Advice)
	}
	r := fakebin.Records(t, sb.Logs, "codex")[0]
	if r.Flag("-c") != `web_search="live"` || len(r.Denied) != 0 || r.Flag("-m") != "" {
		t.Errorf("argv %q denied %q", r.Argv, r.Denied)
	}
	if c := m.Audit.LLMCalls[0]; !c.NoPrice || c.CostUSD != 0 {
		t.Errorf("a call without a model or price must be marked unpriced: %+v", c)
	}
}

func TestTurnFailedIsAnAuthFailure(t *testing.T) {
	_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"answer": "x"}}}, nil) // no CODEX_API_KEY
	if !errors.Is(err, agent.ErrAuth) || len(waits) != 0 {
		t.Fatalf("error = %v, waits %v", err, waits)
	}
	if r := res.(*wire.StudentResultRequest).StudentOutput.Reason; !strings.Contains(r, "401 Unauthorized") || !strings.Contains(r, "CODEX_API_KEY") {
		t.Errorf("reason = %q", r)
	}
}

func TestReconnectsThenRateLimitIsRetried(t *testing.T) {
	done := map[string]any{"status": "completed", "currentStep": "end", "summary": "ok", "attemptedActions": []string{}, "filesCreated": []string{}, "commandsRun": []string{}}
	_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"fail": "rate_limit"}, {"answerJson": done}}}, nil, "CODEX_API_KEY="+fakeKey)
	if err != nil || res.(*wire.StudentResultRequest).StudentOutput.Status != status.StudentCompleted || len(waits) != 1 {
		t.Fatalf("result %+v err %v waits %v", res, err, waits)
	}
}

// TestSchemaIsStrict: OpenAI's structured outputs refuse a schema unless
// every object in it, nested ones included, lists all its properties as
// required and allows no others.
func TestSchemaIsStrict(t *testing.T) {
	for _, tc := range []struct {
		role    status.Role
		objects int // object nodes in the schema, nested ones included
	}{
		{status.RoleStudent, 2}, // the answer and each finding
		{status.RoleMentor, 1},
	} {
		t.Run(string(tc.role), func(t *testing.T) {
			var schema map[string]any
			if err := json.Unmarshal(agent.AnswerSchema(tc.role, true), &schema); err != nil {
				t.Fatal(err)
			}
			if got := checkStrict(t, "$", schema); got != tc.objects {
				t.Errorf("checked %d object nodes, want %d", got, tc.objects)
			}
		})
	}
}

// checkStrict checks every object node under node and counts them.
func checkStrict(t *testing.T, path string, node map[string]any) int {
	t.Helper()
	count := 0
	if items, ok := node["items"].(map[string]any); ok {
		count += checkStrict(t, path+"[]", items)
	}
	props, ok := node["properties"].(map[string]any)
	if !ok {
		return count
	}
	count++
	if node["additionalProperties"] != false {
		t.Errorf("%s: additionalProperties = %v, want false", path, node["additionalProperties"])
	}
	var names, required []string
	for name, p := range props {
		names = append(names, name)
		count += checkStrict(t, path+"."+name, p.(map[string]any))
	}
	for _, r := range node["required"].([]any) {
		required = append(required, r.(string))
	}
	slices.Sort(names)
	slices.Sort(required)
	if !slices.Equal(names, required) {
		t.Errorf("%s: required = %v, want every property %v", path, required, names)
	}
	return count
}

// TestDeclinedCommandIsNotASuccess: a command codex refused to run must not
// enter the audit as exit 0.
func TestDeclinedCommandIsNotASuccess(t *testing.T) {
	answer := map[string]any{"status": "completed", "currentStep": "end", "summary": "done", "attemptedActions": []string{}, "filesCreated": []string{}, "commandsRun": []string{}}
	_, res, _, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{
		"decline": []string{"npm init -y"}, "answerJson": answer,
	}}}, nil, "CODEX_API_KEY="+fakeKey)
	if err != nil {
		t.Fatal(err)
	}
	cmds := res.(*wire.StudentResultRequest).Audit.Commands
	if len(cmds) != 1 || cmds[0].Command != "npm init -y" || cmds[0].ExitCode != codex.ExitDeclined || cmds[0].Line != 7 || !strings.Contains(cmds[0].Output, "declined") {
		t.Errorf("commands = %+v", cmds)
	}
}

// TestFailuresAfterToolCalls: a persistent 429 the CLI reports late (after
// its own retries, after commands ran) and a timeout mid-session.
func TestFailuresAfterToolCalls(t *testing.T) {
	final := map[string]any{"answerJson": map[string]any{"status": "completed", "currentStep": "end", "summary": "done"}}
	for _, c := range fakebin.MidSessionCases(final) {
		t.Run(c.Name, func(t *testing.T) {
			sb, res, waits, _ := run(t, status.RoleStudent, c.Scenario, &wire.TaskLLM{TimeoutSeconds: c.TimeoutSeconds}, "CODEX_API_KEY="+fakeKey)
			c.Check(t, sb, "codex", res.(*wire.StudentResultRequest).StudentOutput.Reason, len(waits))
		})
	}
}
