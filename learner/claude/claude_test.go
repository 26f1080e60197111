package claude_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/claude"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

const tutorial = `# Greeting service

Create the greeting:

` + "```bash" + `
echo hello > greeting.txt
cat config.yaml
` + "```" + `

Then start it with ` + "`./serve`" + `.
`

const fakeKey = "sk-ant-api03-FAKEKEYFAKEKEYFAKEKEY0123456789"

type harness struct {
	sb       *fakebin.Sandbox
	env      []string
	runner   agent.Runner
	mu       sync.Mutex
	progress []string
	waits    []time.Duration
}

func newHarness(t *testing.T, scenario any, extraEnv ...string) *harness {
	t.Helper()
	h := &harness{sb: fakebin.NewSandbox(t, tutorial, scenario)}
	h.env = h.sb.Env(append([]string{"SMILE_TOKEN=callback-secret"}, extraEnv...)...)
	h.runner = agent.Runner{
		Backend: claude.Backend{Path: fakebin.Path(t, "claude")},
		Getenv:  func(k string) string { return fakebin.Getenv(h.env, k) },
		Environ: func() []string { return h.env },
		Sleep: func(_ context.Context, d time.Duration) error {
			h.mu.Lock()
			h.waits = append(h.waits, d)
			h.mu.Unlock()
			return nil
		},
		LookPath: func(string) (string, error) { return fakebin.Path(t, "claude"), nil },
	}
	return h
}

func (h *harness) penv() provider.Env {
	return provider.Env{WorkDir: h.sb.Work, TutorialDir: h.sb.TutorialDir, LogsDir: h.sb.Logs, Log: logr.Discard(),
		Progress: func(_ context.Context, step string, _ int) {
			h.mu.Lock()
			h.progress = append(h.progress, step)
			h.mu.Unlock()
		}}
}

var askAnswer = map[string]any{
	"status": "ask_mentor", "currentStep": "Create the greeting", "attemptedActions": []string{"ran the two commands"},
	"problem": "cat: config.yaml: No such file or directory", "questionForMentor": "Where does config.yaml come from?",
	"summary": "Wrote greeting.txt; config.yaml is missing.", "filesCreated": []string{"greeting.txt"},
	"commandsRun": []string{"echo hello > greeting.txt", "cat config.yaml"}, "quote": "cat config.yaml", "category": "missing_file",
	"findings": []map[string]any{{"category": "ambiguous_instruction", "quote": "Then start it with `./serve`.", "problem": "./serve is never created"}},
}

func TestStudentFollowsTheTutorial(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{
		"run": []string{"echo hello > greeting.txt", "cat config.yaml"}, "answerJson": askAnswer,
		"inputTokens": 12000, "outputTokens": 800, "costUsd": 0.0421,
	}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, &wire.TaskLLM{MaxTurns: 40, TimeoutSeconds: 60})
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	out := res.StudentOutput
	if out.Status != status.StudentAskMentor || out.Line != 7 || out.Quote != "cat config.yaml" {
		t.Fatalf("output = %+v", out)
	}
	var lines []int
	for _, f := range out.Findings {
		lines = append(lines, f.Line)
		if f.Line == 7 && (!f.Asked || f.Category != status.CategoryMissingFile || f.ExitCode != 1 || !strings.Contains(f.Output, "No such file")) {
			t.Errorf("asked finding = %+v", f)
		}
	}
	if len(lines) != 2 || lines[0] != 10 || lines[1] != 7 {
		t.Errorf("finding lines = %v, want [10 7]", lines)
	}
	a := res.Audit
	if len(a.Commands) != 2 || a.Commands[0].Line != 6 || a.Commands[0].ExitCode != 0 || a.Commands[1].Line != 7 || a.Commands[1].ExitCode != 1 {
		t.Errorf("audit commands = %+v", a.Commands)
	}
	if len(a.LLMCalls) != 1 || a.LLMCalls[0].CostUSD != 0.0421 || a.LLMCalls[0].Estimated || a.LLMCalls[0].InputTokens != 12000 ||
		a.LLMCalls[0].Model != "claude-sonnet-4-5-20250929" || a.LLMCalls[0].Provider != "claude" {
		t.Errorf("llm calls = %+v", a.LLMCalls)
	}
	recs := fakebin.Records(t, h.sb.Logs, "claude")
	if len(recs) != 1 {
		t.Fatalf("%d invocations, want 1", len(recs))
	}
	r := recs[0]
	for flag, want := range map[string]string{
		"--output-format": "stream-json", "--permission-mode": "dontAsk", "--tools": "Bash,Read,Edit,Write,Glob,Grep",
		"--allowedTools": "Bash,Read,Edit,Write,Glob,Grep", "--disallowedTools": "WebSearch,WebFetch", "--max-turns": "41",
		"--add-dir": h.sb.TutorialDir,
	} {
		if got := r.Flag(flag); got != want {
			t.Errorf("%s = %q, want %q", flag, got, want)
		}
	}
	if !r.Has("--verbose") || !r.Has("--no-session-persistence") || !strings.Contains(r.Flag("--json-schema"), `"ask_mentor"`) || r.Argv[0] != "-p" {
		t.Errorf("argv = %q", r.Argv)
	}
	if r.Stdin != "devnull" || r.Cwd != h.sb.Work || r.Env["ANTHROPIC_API_KEY"] != "set" || r.Env["SMILE_TOKEN"] != "" || r.Env["BASH_DEFAULT_TIMEOUT_MS"] != "60000" {
		t.Errorf("stdin %q cwd %q env %v", r.Stdin, r.Cwd, r.Env)
	}
	if strings.Join(r.Ran, "|") != "echo hello > greeting.txt|cat config.yaml" {
		t.Errorf("ran %q", r.Ran)
	}
}

func TestMentorHasReadOnlyToolsAndTheWeb(t *testing.T) {
	h := newHarness(t, map[string]any{"mentor-1": []map[string]any{{
		"run": []string{"touch /tmp/should-not-exist"}, "web": "where does config.yaml come from",
		"answerJson": map[string]any{"notes": "The tutorial never creates config.yaml.", "resolution": "workaround",
			"workaround": "printf 'port: 8080\\n' > config.yaml", "quote": "cat config.yaml", "suggestedFix": "Add a step that writes config.yaml."},
	}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleMentor, 1, spec.ProviderClaude, nil)
	task.StudentOutput = &status.StudentOutput{Status: status.StudentAskMentor, Line: 7, QuestionForMentor: "Where does config.yaml come from?"}
	res, err := h.runner.Mentor(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	if res.Advice == nil || res.Advice.Resolution != status.ResolutionWorkaround || res.Advice.Line != 7 || !strings.Contains(res.Advice.Workaround, "config.yaml") ||
		res.MentorOutput != "The tutorial never creates config.yaml." {
		t.Errorf("mentor result = %+v %+v", res, res.Advice)
	}
	r := fakebin.Records(t, h.sb.Logs, "claude")[0]
	if r.Flag("--tools") != "Read,Glob,Grep,WebSearch,WebFetch" || !strings.Contains(r.Flag("--disallowedTools"), "Bash") || r.Flag("--max-turns") != "21" {
		t.Errorf("argv = %q", r.Argv)
	}
	if len(r.Denied) != 1 || r.Denied[0] != "Bash" || len(r.Ran) != 0 {
		t.Errorf("denied %q ran %q: the Mentor must not run commands", r.Denied, r.Ran)
	}
}

func TestAuthFailureIsReportedNotRetried(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"answerJson": askAnswer}}}) // no ANTHROPIC_API_KEY
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if !errors.Is(err, agent.ErrAuth) {
		t.Fatalf("error = %v, want an auth failure", err)
	}
	out := res.StudentOutput
	if out.Status != status.StudentCannotComplete || !strings.Contains(out.Reason, "Authentication failed for claude: Not logged in") || !strings.Contains(out.Reason, "ANTHROPIC_API_KEY") {
		t.Errorf("reason = %q", out.Reason)
	}
	if n := len(fakebin.Records(t, h.sb.Logs, "claude")); n != 1 || len(h.waits) != 0 {
		t.Errorf("%d invocations, waits %v: an auth failure must not be retried", n, h.waits)
	}
	if len(res.Audit.LLMCalls) != 1 || !strings.Contains(res.Audit.LLMCalls[0].Error, "authentication failed") {
		t.Errorf("llm calls = %+v", res.Audit.LLMCalls)
	}
}

func TestRateLimitIsRetriedWithBackoff(t *testing.T) {
	done := map[string]any{"status": "completed", "currentStep": "end", "summary": "done", "attemptedActions": []string{}, "filesCreated": []string{}, "commandsRun": []string{}}
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"fail": "rate_limit"}, {"fail": "network"}, {"answerJson": done}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil || res.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("result = %+v, %v", res.StudentOutput, err)
	}
	if len(h.waits) != 2 || h.waits[0] != 2*time.Second || h.waits[1] != 4*time.Second {
		t.Errorf("waits = %v, want [2s 4s]", h.waits)
	}
	calls := res.Audit.LLMCalls
	if len(calls) != 3 || !strings.Contains(calls[0].Error, "HTTP 429") || calls[2].Error != "" {
		t.Errorf("llm calls = %+v", calls)
	}
}

func TestRateLimitThatPersistsIsUnresolvable(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"fail": "rate_limit"}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if !errors.Is(err, agent.ErrTransient) {
		t.Fatalf("error = %v", err)
	}
	if want := []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second}; len(h.waits) != 4 || h.waits[3] != want[3] {
		t.Errorf("waits = %v, want %v", h.waits, want)
	}
	if !strings.Contains(res.StudentOutput.Reason, "unresolvable (E11)") || len(res.Audit.LLMCalls) != 5 {
		t.Errorf("reason %q, %d calls", res.StudentOutput.Reason, len(res.Audit.LLMCalls))
	}
}

func TestUnreadableAnswerIsRepaired(t *testing.T) {
	done := map[string]any{"status": "completed", "currentStep": "end", "summary": "all steps worked"}
	h := newHarness(t, map[string]any{"student-1": []map[string]any{
		{"answer": "I followed every step and it all worked."}, {"answer": "Sure! Everything worked."}, {"answerJson": done},
	}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil || res.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("result = %+v, %v", res.StudentOutput, err)
	}
	calls := res.Audit.LLMCalls
	if len(calls) != 3 || calls[0].RawOutput != "I followed every step and it all worked." || calls[1].RawOutput == "" || calls[2].RawOutput != "" {
		t.Errorf("llm calls = %+v", calls)
	}
	// The repair is one turn without tools, and its --json-schema answer
	// (the StructuredOutput tool) takes two: with --max-turns 1 Claude Code,
	// and the fake, end error_max_turns with no answer.
	recs := fakebin.Records(t, h.sb.Logs, "claude")
	if len(recs) != 3 || recs[1].Flag("--tools") != "Read" || recs[1].Flag("--max-turns") != "2" || !strings.Contains(recs[1].Argv[1], "could not be read as one") {
		t.Errorf("repair argv = %q", recs[1].Argv)
	}
}

func TestThreeUnreadableAnswersCannotComplete(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"answer": "Done!"}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	out := res.StudentOutput
	if out.Status != status.StudentCannotComplete || !strings.Contains(out.Reason, "could not be read (E20)") || !strings.Contains(out.Reason, "after 3 tries") {
		t.Errorf("reason = %q", out.Reason)
	}
	for i, c := range res.Audit.LLMCalls {
		if c.RawOutput != "Done!" {
			t.Errorf("call %d raw output = %q, want the answer kept (E12)", i, c.RawOutput)
		}
	}
}

func TestMaxTurnsThenRepair(t *testing.T) {
	done := map[string]any{"status": "completed", "currentStep": "end", "summary": "done"}
	h := newHarness(t, map[string]any{"student-1": []map[string]any{
		{"run": []string{"true", "true", "true"}, "answerJson": done}, {"answerJson": done},
	}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, &wire.TaskLLM{MaxTurns: 2})
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil || res.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("result = %+v, %v", res.StudentOutput, err)
	}
	// maxTurns 2 is --max-turns 3: three commands run, and no turn is left
	// for the structured answer.
	if recs := fakebin.Records(t, h.sb.Logs, "claude"); len(recs) != 2 || len(recs[0].Ran) != 3 {
		t.Errorf("records = %+v", recs)
	}
}

func TestInvocationTimeoutKillsTheCLIAndHeartbeatsContinue(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"sleepSeconds": 30, "answerJson": askAnswer}}}, "ANTHROPIC_API_KEY="+fakeKey)
	h.runner.Heartbeat = 100 * time.Millisecond
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, &wire.TaskLLM{TimeoutSeconds: 2})
	start := time.Now()
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("took %v: the CLI was not killed at the timeout", d)
	}
	if out := res.StudentOutput; out.Status != status.StudentCannotComplete || !strings.Contains(out.Reason, "did not answer within 2 seconds") || !strings.Contains(out.Reason, "E13") {
		t.Errorf("reason = %q", out.Reason)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.progress) < 10 {
		t.Errorf("%d heartbeats in 2 s at 100 ms, want at least 10: %q", len(h.progress), h.progress)
	}
}

func TestKeyNeverLeavesTheContainer(t *testing.T) {
	// A command that prints the environment: the key must not reach the result.
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{"run": []string{"env"}, "answerJson": askAnswer}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Audit.Commands) != 1 || strings.Contains(res.Audit.Commands[0].Output, fakeKey) || !strings.Contains(res.Audit.Commands[0].Output, status.Redacted) {
		t.Errorf("command output = %q", res.Audit.Commands[0].Output)
	}
	if strings.Contains(res.Audit.Commands[0].Output, "callback-secret") {
		t.Errorf("the callback token reached the CLI's commands")
	}
}

// TestStepTimeoutIsAKillNotABackgroundTask: a command that outlives the step
// timeout must end there and be recorded as timed out. Claude Code would
// otherwise move it to the background and report it as a success.
func TestStepTimeoutIsAKillNotABackgroundTask(t *testing.T) {
	h := newHarness(t, map[string]any{"student-1": []map[string]any{{
		"run": []string{"echo started; sleep 3; echo finished > late.txt"}, "answerJson": askAnswer,
	}}}, "ANTHROPIC_API_KEY="+fakeKey)
	task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, nil)
	task.Behavior.TimeoutSeconds = 1
	res, err := h.runner.Student(context.Background(), task, h.penv())
	if err != nil {
		t.Fatal(err)
	}
	cmds := res.Audit.Commands
	if len(cmds) != 1 || !cmds[0].TimedOut || cmds[0].ExitCode == 0 || !strings.Contains(cmds[0].Output, "started") {
		t.Fatalf("commands = %+v, want one timed-out command", cmds)
	}
	r := fakebin.Records(t, h.sb.Logs, "claude")[0]
	if r.Env["CLAUDE_CODE_DISABLE_BACKGROUND_TASKS"] != "1" || r.Env["BASH_DEFAULT_TIMEOUT_MS"] != "1000" {
		t.Errorf("env = %v", r.Env)
	}
	time.Sleep(3 * time.Second)
	if _, err := os.Stat(filepath.Join(h.sb.Work, "late.txt")); err == nil {
		t.Error("the command went on running after its timeout")
	}
}

// TestFailuresAfterToolCalls: a persistent 429 the CLI reports late (after
// its own retries, after commands ran) and a timeout mid-session.
func TestFailuresAfterToolCalls(t *testing.T) {
	for _, c := range fakebin.MidSessionCases(map[string]any{"answerJson": askAnswer}) {
		t.Run(c.Name, func(t *testing.T) {
			h := newHarness(t, c.Scenario, "ANTHROPIC_API_KEY="+fakeKey)
			task := h.sb.Task(t, status.RoleStudent, 1, spec.ProviderClaude, &wire.TaskLLM{TimeoutSeconds: c.TimeoutSeconds})
			res, _ := h.runner.Student(context.Background(), task, h.penv())
			c.Check(t, h.sb, "claude", res.StudentOutput.Reason, len(h.waits))
		})
	}
}
