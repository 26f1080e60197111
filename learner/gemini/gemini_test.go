package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/gemini"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

const tutorial = "# Weather CLI\n\n```bash\npip install weather-cli\nweather --city Paris\n```\n"

const fakeKey = "AIzaSyFAKEFAKEFAKEFAKEFAKEFAKEFAKE01234"

func run(t *testing.T, role status.Role, scenario any, llm *wire.TaskLLM, env ...string) (*fakebin.Sandbox, any, []time.Duration, error) {
	t.Helper()
	return runIn(t, fakebin.NewSandbox(t, tutorial, scenario), role, llm, env...)
}

// runIn runs role in a sandbox made ready (a tutorial with images, say).
func runIn(t *testing.T, sb *fakebin.Sandbox, role status.Role, llm *wire.TaskLLM, env ...string) (*fakebin.Sandbox, any, []time.Duration, error) {
	t.Helper()
	full := sb.Env(env...)
	var waits []time.Duration
	r := agent.Runner{
		Backend:  gemini.Backend{Path: fakebin.Path(t, "gemini")},
		Getenv:   func(k string) string { return fakebin.Getenv(full, k) },
		Environ:  func() []string { return full },
		Sleep:    func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		LookPath: func(string) (string, error) { return "gemini", nil },
	}
	task := sb.Task(t, role, 1, spec.ProviderGemini, llm)
	penv := provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()}
	if role == status.RoleMentor {
		task.StudentOutput = &status.StudentOutput{Status: status.StudentAskMentor, Line: 4}
		res, err := r.Mentor(context.Background(), task, penv)
		return sb, res, waits, err
	}
	res, err := r.Student(context.Background(), task, penv)
	return sb, res, waits, err
}

var answer = "Here is my report.\n```json\n" + `{"status": "cannot_complete", "current_step": "install", "reason": "pip cannot reach the package index", "quote": "pip install weather-cli", "category": "missing_dependency"}` + "\n```"

func TestStudentSettingsPolicyAndTokens(t *testing.T) {
	sb, res, _, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{
		"run": []string{"echo installing"}, "web": "weather-cli docs", "answer": answer, "inputTokens": 9000, "outputTokens": 700, "model": "gemini-2.5-flash",
	}}}, &wire.TaskLLM{MaxTurns: 25}, "GEMINI_API_KEY="+fakeKey)
	if err != nil {
		t.Fatal(err)
	}
	out := res.(*wire.StudentResultRequest)
	if so := out.StudentOutput; so.Status != status.StudentCannotComplete || so.Line != 4 || so.Reason != "pip cannot reach the package index" {
		t.Errorf("output = %+v", so)
	}
	if c := out.Audit.LLMCalls[0]; c.Model != "gemini-2.5-flash" || c.InputTokens != 9000 || c.OutputTokens != 700 || !c.NoPrice {
		t.Errorf("llm call = %+v", c)
	}
	r := fakebin.Records(t, sb.Logs, "gemini")[0]
	if r.Flag("-o") != "json" || !r.Has("--skip-trust") || r.Flag("--approval-mode") != "yolo" || !strings.HasPrefix(r.Flag("-p"), "You are the Student") {
		t.Errorf("argv = %q", r.Argv)
	}
	var settings struct {
		Model struct{ MaxSessionTurns int } `json:"model"`
		Tools struct{ Exclude []string }    `json:"tools"`
	}
	if err := json.Unmarshal(r.Settings, &settings); err != nil || settings.Model.MaxSessionTurns != 25 || strings.Join(settings.Tools.Exclude, ",") != "google_web_search,web_fetch" {
		t.Errorf("settings = %s (%v)", r.Settings, err)
	}
	if !strings.Contains(r.Policies["smile-student.toml"], `toolName = "google_web_search"`) || strings.Join(r.Denied, ",") != "google_web_search" || len(r.Ran) != 1 {
		t.Errorf("policies %v denied %q ran %q", r.Policies, r.Denied, r.Ran)
	}
}

func TestMentorCannotRunShell(t *testing.T) {
	sb, res, _, err := run(t, status.RoleMentor, map[string]any{"mentor-1": []map[string]any{{
		"run": []string{"touch should-not-exist"}, "web": "weather-cli pip",
		"answer": `{"notes": "The package is not on PyPI under that name.", "resolution": "unresolvable"}`,
	}}}, nil, "GEMINI_API_KEY="+fakeKey)
	if err != nil {
		t.Fatal(err)
	}
	if a := res.(*wire.MentorResultRequest).Advice; a.Resolution != status.ResolutionUnresolvable || a.Line != 4 {
		t.Errorf("advice = %+v", a)
	}
	r := fakebin.Records(t, sb.Logs, "gemini")[0]
	if r.Flag("--approval-mode") != "default" || len(r.Ran) != 0 || strings.Join(r.Denied, ",") != "run_shell_command" {
		t.Errorf("approval %q ran %q denied %q", r.Flag("--approval-mode"), r.Ran, r.Denied)
	}
}

func TestExit41IsAnAuthFailure(t *testing.T) {
	_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"answer": answer}}}, nil)
	if !errors.Is(err, agent.ErrAuth) || len(waits) != 0 {
		t.Fatalf("error = %v waits %v", err, waits)
	}
	if r := res.(*wire.StudentResultRequest).StudentOutput.Reason; !strings.Contains(r, "Please set an Auth method") || !strings.Contains(r, "Set GEMINI_API_KEY") {
		t.Errorf("reason = %q", r)
	}
}

// TestGoogleAPIKeyAloneIsNoAuth: the Gemini CLI reads GOOGLE_API_KEY only
// for Vertex AI, so with it alone the run fails auth at once (exit 41) and
// the reason names GEMINI_API_KEY, the variable to set.
func TestGoogleAPIKeyAloneIsNoAuth(t *testing.T) {
	_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"answer": answer}}}, nil, "GOOGLE_API_KEY="+fakeKey)
	if !errors.Is(err, agent.ErrAuth) || len(waits) != 0 {
		t.Fatalf("error = %v waits %v, want an auth failure, not retried", err, waits)
	}
	if r := res.(*wire.StudentResultRequest).StudentOutput.Reason; !strings.Contains(r, "GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI") || !strings.Contains(r, "Set GEMINI_API_KEY") {
		t.Errorf("reason = %q", r)
	}
}

func TestResourceExhaustedIsRetried(t *testing.T) {
	_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"fail": "rate_limit"}, {"answer": answer}}}, nil, "GEMINI_API_KEY="+fakeKey)
	if err != nil || len(waits) != 1 || res.(*wire.StudentResultRequest).StudentOutput.Status != status.StudentCannotComplete {
		t.Fatalf("err %v waits %v", err, waits)
	}
}

func TestTurnLimitExit53(t *testing.T) {
	_, res, _, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"fail": "max_turns"}, {"answer": answer}}}, nil, "GEMINI_API_KEY="+fakeKey)
	if err != nil || res.(*wire.StudentResultRequest).StudentOutput.Line != 4 {
		t.Fatalf("err %v result %+v", err, res)
	}
}

// TestFakeCLIFailures runs the fake CLI's documented failures through the
// whole runner: what is retried, and what is reported at once.
func TestFakeCLIFailures(t *testing.T) {
	cases := []struct {
		fail      string
		want      error
		wantWaits int
	}{
		{fail: "bad_key", want: agent.ErrAuth, wantWaits: 0},
		{fail: "server_error", wantWaits: 1},
		{fail: "invalid_stream", wantWaits: 1},
		{fail: "network", wantWaits: 1},
		// INVALID_STREAM that asking again would not change: reported at
		// once in the CLI's words, not retried as an unavailable API.
		{fail: "safety_blocked", want: agent.ErrFailed, wantWaits: 0},
		{fail: "max_tokens", want: agent.ErrFailed, wantWaits: 0},
	}
	for _, c := range cases {
		t.Run(c.fail, func(t *testing.T) {
			_, res, waits, err := run(t, status.RoleStudent, map[string]any{"student-1": []map[string]any{{"fail": c.fail}, {"answer": answer}}}, nil, "GEMINI_API_KEY="+fakeKey)
			if c.want != nil {
				if !errors.Is(err, c.want) || len(waits) != c.wantWaits {
					t.Fatalf("error = %v waits %v, want %v", err, waits, c.want)
				}
				words := map[string]string{"bad_key": "API key not valid", "safety_blocked": "blocked due to safety settings", "max_tokens": "exceeded the token limit"}[c.fail]
				if r := res.(*wire.StudentResultRequest).StudentOutput.Reason; !strings.Contains(r, words) || strings.Contains(r, "E11") {
					t.Errorf("reason = %q, want %q and no E11", r, words)
				}
				return
			}
			if err != nil || len(waits) != c.wantWaits || res.(*wire.StudentResultRequest).StudentOutput.Line != 4 {
				t.Fatalf("err %v waits %v result %+v", err, waits, res)
			}
		})
	}
}

// TestFailuresAfterToolCalls: a persistent 429 the CLI reports late (after
// its own retries, after commands ran) and a timeout mid-session.
func TestFailuresAfterToolCalls(t *testing.T) {
	for _, c := range fakebin.MidSessionCases(map[string]any{"answer": answer}) {
		t.Run(c.Name, func(t *testing.T) {
			sb, res, waits, _ := run(t, status.RoleStudent, c.Scenario, &wire.TaskLLM{TimeoutSeconds: c.TimeoutSeconds}, "GEMINI_API_KEY="+fakeKey)
			c.Check(t, sb, "gemini", res.(*wire.StudentResultRequest).StudentOutput.Reason, len(waits))
		})
	}
}
