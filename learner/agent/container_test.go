package agent_test

// These tests run the real wrapper binary in real containers of
// smile-fakes:latest (hack/build-test-image.sh: smile-base with the fake
// claude, codex and gemini CLIs), posting to a fake controller bound to the
// Docker bridge gateway, as the real one is. The openai provider talks to a
// fake OpenAI-compatible server on the same address. Skipped with -short.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

const fakesImage = "smile-fakes:latest"

var (
	setupOnce  sync.Once
	setupErr   error
	wrapperBin string
	gateway    string
)

func repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

func needImage(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs containers; skipped with -short")
	}
	setupOnce.Do(func() {
		for _, script := range []string{"build-image.sh", "build-test-image.sh"} {
			if out, err := exec.Command(filepath.Join(repo(), "hack", script)).CombinedOutput(); err != nil {
				setupErr = fmt.Errorf("%s: %v\n%s", script, err, out)
				return
			}
		}
		dir, err := os.MkdirTemp("", "smile-agent-test-")
		if err != nil {
			setupErr = err
			return
		}
		wrapperBin = filepath.Join(dir, "smile-wrapper")
		build := exec.Command("go", "build", "-o", wrapperBin, "./cmd/smile-wrapper")
		build.Dir = repo()
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			setupErr = fmt.Errorf("build the wrapper: %v\n%s", err, out)
			return
		}
		out, err := exec.Command("docker", "network", "inspect", "bridge", "--format", "{{(index .IPAM.Config 0).Gateway}}").Output()
		if err != nil {
			setupErr = fmt.Errorf("find the bridge gateway: %v", err)
			return
		}
		gateway = strings.TrimSpace(string(out))
	})
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	t.Parallel()
}

// listen serves h on the bridge gateway (never on all interfaces).
func listen(t *testing.T, h http.Handler) (*httptest.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(gateway, "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	return srv, port
}

// controller is a fake callback API: it keeps what the wrapper posts.
type controller struct {
	mu       sync.Mutex
	progress []wire.ProgressRequest
	results  map[string][]byte
	auth     []string
}

func (c *controller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	data, _ := io.ReadAll(r.Body)
	c.auth = append(c.auth, r.Header.Get("Authorization"))
	if r.URL.Path == wire.PathProgress {
		var p wire.ProgressRequest
		_ = json.Unmarshal(data, &p)
		c.progress = append(c.progress, p)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if c.results == nil {
		c.results = map[string][]byte{}
	}
	c.results[r.URL.Path] = data
	_ = json.NewEncoder(w).Encode(wire.ResultResponse{Acknowledged: true, NextAction: "continue"})
}

type box struct {
	sb    *fakebin.Sandbox
	ctl   *controller
	port  string
	image string
}

const tutorial = `# Word count

Create the words file:

` + "```bash" + `
printf 'a b c\n' > words.txt
wc -w words.txt
` + "```" + `

Then count with the helper:

` + "```bash" + `
./count.sh words.txt
` + "```" + `
`

func newBox(t *testing.T, scenario any) *box {
	t.Helper()
	b := &box{sb: fakebin.NewSandbox(t, tutorial, scenario), ctl: &controller{}, image: fakesImage}
	_, b.port = listen(t, b.ctl)
	for _, d := range []string{b.sb.Work, b.sb.Logs} {
		_ = os.Chmod(d, 0o777)
	}
	return b
}

// run runs the wrapper on task; env is the container's extra environment.
func (b *box) run(t *testing.T, task wire.Task, workReadOnly bool, env ...string) (int, string) {
	t.Helper()
	task.Tutorial = wire.ContainerTutorialDir + "/tutorial.md"
	task.Attempt = "test-" + string(task.Role)
	if task.Behavior.TimeoutSeconds == 0 {
		task.Behavior = spec.DefaultConfig().StudentBehavior
	}
	data, _ := json.Marshal(task)
	if err := os.WriteFile(filepath.Join(b.sb.Logs, wire.TaskFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	work := b.sb.Work + ":" + wire.ContainerWorkDir
	if workReadOnly {
		work += ":ro"
	}
	args := []string{"run", "--rm", "--init", "--add-host", "host.docker.internal:host-gateway",
		"-v", b.sb.TutorialDir + ":" + wire.ContainerTutorialDir + ":ro",
		"-v", work,
		"-v", b.sb.Logs + ":" + wire.ContainerLogsDir,
		"-v", wrapperBin + ":" + wire.ContainerWrapperPath + ":ro",
		"-w", wire.ContainerWorkDir,
		"-e", wire.EnvTask + "=" + wire.ContainerLogsDir + "/" + wire.TaskFileName,
		"-e", wire.EnvCallbackURL + "=http://host.docker.internal:" + b.port,
		"-e", wire.EnvToken + "=run-token-123",
	}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, b.image, wire.ContainerWrapperPath)
	var stderr bytes.Buffer
	cmd := exec.Command("docker", args...)
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stderr.String()
}

func (b *box) student(t *testing.T) wire.StudentResultRequest {
	t.Helper()
	b.ctl.mu.Lock()
	defer b.ctl.mu.Unlock()
	var res wire.StudentResultRequest
	data, ok := b.ctl.results[wire.PathStudentResult]
	if !ok {
		t.Fatalf("no Student result posted; posts: %v", b.ctl.results)
	}
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// noSecret checks nothing the wrapper wrote or posted holds secret.
func (b *box) noSecret(t *testing.T, stderr string, secrets ...string) {
	t.Helper()
	b.ctl.mu.Lock()
	var posted []string
	for _, d := range b.ctl.results {
		posted = append(posted, string(d))
	}
	b.ctl.mu.Unlock()
	files, _ := filepath.Glob(filepath.Join(b.sb.Logs, "*"))
	for _, s := range secrets {
		if strings.Contains(stderr, s) || strings.Contains(strings.Join(posted, "\n"), s) {
			t.Errorf("the secret %q reached the wrapper's stderr or a posted result", s[:6])
		}
		for _, f := range files {
			if data, _ := os.ReadFile(f); strings.Contains(string(data), s) {
				t.Errorf("the secret %q is in %s", s[:6], filepath.Base(f))
			}
		}
	}
}

const anthropicKey = "sk-ant-api03-CONTAINERTESTKEY-0123456789"

func TestClaudeStudentInAContainer(t *testing.T) {
	needImage(t)
	answer := map[string]any{"status": "ask_mentor", "currentStep": "count with the helper", "problem": "./count.sh: No such file or directory",
		"questionForMentor": "Where is count.sh?", "summary": "made words.txt", "quote": "./count.sh words.txt", "category": "missing_file",
		"attemptedActions": []string{"ran the first block", "ran ./count.sh"}, "filesCreated": []string{"words.txt"}, "commandsRun": []string{}}
	b := newBox(t, map[string]any{"student-1": []map[string]any{{
		"run": []string{"printf 'a b c\\n' > words.txt", "wc -w words.txt", "./count.sh words.txt", "env"}, "sleepSeconds": 2,
		"answerJson": answer, "inputTokens": 5000, "outputTokens": 400, "costUsd": 0.0123,
	}}})
	code, stderr := b.run(t, wire.Task{Run: "t", Role: status.RoleStudent, Provider: spec.ProviderClaude, Iteration: 1,
		LLM: &wire.TaskLLM{MaxTurns: 30, TimeoutSeconds: 60}}, false, "ANTHROPIC_API_KEY="+anthropicKey)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	res := b.student(t)
	out := res.StudentOutput
	if out.Status != status.StudentAskMentor || out.Line != 13 || out.Quote != "./count.sh words.txt" || out.Findings[0].ExitCode != 127 {
		t.Errorf("output = %+v", out)
	}
	var lines []int
	for _, c := range res.Audit.Commands {
		lines = append(lines, c.Line)
	}
	if fmt.Sprint(lines) != "[6 7 13 0]" || res.Audit.Commands[1].Output != "3 words.txt\n" {
		t.Errorf("audit commands = %+v", res.Audit.Commands)
	}
	if data, _ := os.ReadFile(filepath.Join(b.sb.Work, "words.txt")); string(data) != "a b c\n" {
		t.Errorf("words.txt = %q: the commands must run in the container's work folder", data)
	}
	r := fakebin.Records(t, b.sb.Logs, "claude")[0]
	if r.Stdin != "devnull" || r.UID != 0 || r.Cwd != wire.ContainerWorkDir || r.Flag("--add-dir") != wire.ContainerTutorialDir ||
		r.Env["ANTHROPIC_API_KEY"] != "set" || r.Env["SMILE_TOKEN"] != "" || r.Flag("--permission-mode") != "dontAsk" {
		t.Errorf("record = %+v", r)
	}
	b.ctl.mu.Lock()
	n := len(b.ctl.progress)
	for _, a := range b.ctl.auth {
		if a != "Bearer run-token-123" {
			t.Errorf("a callback without the run's token: %q", a)
		}
	}
	b.ctl.mu.Unlock()
	if n < 3 {
		t.Errorf("%d progress posts during a 2 s call, want heartbeats", n)
	}
	b.noSecret(t, stderr, anthropicKey, "run-token-123")
}

func TestCodexMentorCannotChangeTheWorkFolder(t *testing.T) {
	needImage(t)
	b := newBox(t, map[string]any{"mentor-1": []map[string]any{{
		"run":        []string{"ls", "touch mentor-was-here"},
		"answerJson": map[string]any{"notes": "count.sh is never created.", "resolution": "unresolvable", "workaround": nil, "quote": "./count.sh words.txt", "line": nil, "category": "missing_file", "suggestedFix": "Add count.sh."},
	}}})
	code, stderr := b.run(t, wire.Task{Run: "t", Role: status.RoleMentor, Provider: spec.ProviderCodex, Iteration: 1,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: 13, QuestionForMentor: "Where is count.sh?"}}, true, "CODEX_API_KEY=sk-proj-CODEXCONTAINERKEY0123456789")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	b.ctl.mu.Lock()
	var res wire.MentorResultRequest
	_ = json.Unmarshal(b.ctl.results[wire.PathMentorResult], &res)
	b.ctl.mu.Unlock()
	if res.Advice == nil || res.Advice.Resolution != status.ResolutionUnresolvable || res.Advice.Line != 13 {
		t.Fatalf("mentor result = %+v", res)
	}
	touch := res.Audit.Commands[1]
	if touch.ExitCode == 0 || !strings.Contains(touch.Output, "Read-only file system") {
		t.Errorf("touch = %+v: the work folder must be read-only for the Mentor", touch)
	}
	if _, err := os.Stat(filepath.Join(b.sb.Work, "mentor-was-here")); err == nil {
		t.Error("the Mentor changed the work folder")
	}
	r := fakebin.Records(t, b.sb.Logs, "codex")[0]
	if r.Flag("-c") != `web_search="live"` || !r.Has("--dangerously-bypass-approvals-and-sandbox") {
		t.Errorf("argv = %q", r.Argv)
	}
}

func TestGeminiAuthFailureInAContainer(t *testing.T) {
	needImage(t)
	b := newBox(t, map[string]any{"student-1": []map[string]any{{"answer": "{}"}}})
	code, stderr := b.run(t, wire.Task{Run: "t", Role: status.RoleStudent, Provider: spec.ProviderGemini, Iteration: 1}, false)
	if code != 3 {
		t.Errorf("exit %d, want 3 (the provider could not run)\n%s", code, stderr)
	}
	out := b.student(t).StudentOutput
	if out.Status != status.StudentCannotComplete || !strings.Contains(out.Reason, "Authentication failed for gemini") || !strings.Contains(out.Reason, "GEMINI_API_KEY") {
		t.Errorf("reason = %q", out.Reason)
	}
	if !strings.Contains(stderr, "Authentication failed for gemini") {
		t.Errorf("stderr does not say why:\n%s", stderr)
	}
}

func TestMissingCLIIsNamed(t *testing.T) {
	needImage(t)
	b := newBox(t, map[string]any{})
	b.image = "smile-base:latest" // no CLIs in it
	code, _ := b.run(t, wire.Task{Run: "t", Role: status.RoleStudent, Provider: spec.ProviderCodex, Iteration: 1}, false)
	if out := b.student(t).StudentOutput; code != 3 || out.Reason != "LLM CLI not available: codex" {
		t.Errorf("exit %d reason %q", code, out.Reason)
	}
}

func TestInvocationTimeoutInAContainer(t *testing.T) {
	needImage(t)
	b := newBox(t, map[string]any{"student-1": []map[string]any{{"run": []string{"wc -w words.txt || true"}, "sleepSeconds": 60, "answer": "{}"}}})
	start := time.Now()
	code, stderr := b.run(t, wire.Task{Run: "t", Role: status.RoleStudent, Provider: spec.ProviderClaude, Iteration: 1,
		Behavior: spec.StudentBehavior{TimeoutSeconds: 2, PatienceLevel: spec.PatienceLow, MaxRetriesBeforeHelp: 3},
		LLM:      &wire.TaskLLM{TimeoutSeconds: 3}}, false, "ANTHROPIC_API_KEY="+anthropicKey)
	if d := time.Since(start); code != 0 || d > 20*time.Second {
		t.Fatalf("exit %d after %v\n%s", code, d, stderr)
	}
	if out := b.student(t).StudentOutput; !strings.Contains(out.Reason, "(E13)") {
		t.Errorf("reason = %q", out.Reason)
	}
}

// openaiServer scripts an OpenAI-compatible endpoint: each answer in turn.
type openaiServer struct {
	mu       sync.Mutex
	answers  []func(w http.ResponseWriter, req map[string]any)
	requests []map[string]any
}

func (s *openaiServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var req map[string]any
	_ = json.NewDecoder(r.Body).Decode(&req)
	s.requests = append(s.requests, req)
	if len(s.answers) == 0 {
		http.Error(w, "script ended", http.StatusInternalServerError)
		return
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	a(w, req)
}

func toolCalls(calls ...[3]string) func(http.ResponseWriter, map[string]any) {
	return func(w http.ResponseWriter, _ map[string]any) {
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c[0], "type": "function", "function": map[string]any{"name": c[1], "arguments": c[2]}})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"model": "llama3.1:8b", "choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": tcs}, "finish_reason": "tool_calls"}},
			"usage": map[string]any{"prompt_tokens": 800, "completion_tokens": 60}})
	}
}

func TestOpenAIStudentRunsToolsInTheContainer(t *testing.T) {
	needImage(t)
	srv := &openaiServer{answers: []func(http.ResponseWriter, map[string]any){
		toolCalls([3]string{"a", "run_command", `{"command": "printf 'a b c\\n' > words.txt"}`}),
		func(w http.ResponseWriter, _ map[string]any) {
			w.Header().Set("Retry-After", "1")
			http.Error(w, `{"error":{"message":"rate limited"}}`, http.StatusTooManyRequests)
		},
		toolCalls([3]string{"b", "run_command", `{"command": wc -w words.txt}`}), // invalid JSON
		toolCalls([3]string{"c", "run_command", `{"command": "wc -w words.txt"}`}, [3]string{"d", "run_command", `{"command": "cat /etc/debian_version >/dev/null && echo in-container; echo key=$OPENAI_API_KEY"}`}),
		func(w http.ResponseWriter, _ map[string]any) {
			_ = json.NewEncoder(w).Encode(map[string]any{"model": "llama3.1:8b", "choices": []any{map[string]any{"message": map[string]any{"role": "assistant",
				"content": "```json\n{\"status\": \"completed\", \"current_step\": \"end\", \"summary\": \"counted 3 words\", \"findings\": [{\"category\": \"missing_file\", \"quote\": \"./count.sh words.txt\", \"problem\": \"count.sh does not exist\"}]}\n```"}, "finish_reason": "stop"}},
				"usage": map[string]any{"prompt_tokens": 900, "completion_tokens": 80}})
		},
	}}
	_, port := listen(t, srv)
	b := newBox(t, map[string]any{})
	const key = "sk-OPENAICONTAINERKEY-0123456789abcdef"
	code, stderr := b.run(t, wire.Task{Run: "t", Role: status.RoleStudent, Provider: spec.ProviderOpenAI, Iteration: 1,
		LLM: &wire.TaskLLM{Model: "llama3.1:8b", BaseURL: "http://host.docker.internal:" + port + "/v1", APIKeyEnv: "OPENAI_API_KEY", MaxTurns: 10}},
		false, "OPENAI_API_KEY="+key)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	res := b.student(t)
	if out := res.StudentOutput; out.Status != status.StudentCompleted || len(out.Findings) != 1 || out.Findings[0].Line != 13 {
		t.Errorf("output = %+v", out)
	}
	var cmds []string
	for _, c := range res.Audit.Commands {
		cmds = append(cmds, fmt.Sprintf("%d:%s=>%d:%s", c.Line, c.Command, c.ExitCode, strings.TrimSpace(c.Output)))
	}
	want := []string{"6:printf 'a b c\\n' > words.txt=>0:", "7:wc -w words.txt=>0:3 words.txt", "0:cat /etc/debian_version >/dev/null && echo in-container; echo key=$OPENAI_API_KEY=>0:in-container\nkey="}
	if strings.Join(cmds, "|") != strings.Join(want, "|") {
		t.Errorf("commands =\n%q\nwant\n%q", cmds, want)
	}
	srv.mu.Lock()
	n := len(srv.requests)
	srv.mu.Unlock()
	if n != 5 || len(res.Audit.LLMCalls) != 5 || !strings.Contains(res.Audit.LLMCalls[1].Error, "HTTP 429") {
		t.Errorf("%d requests, llm calls %+v", n, res.Audit.LLMCalls)
	}
	b.noSecret(t, stderr, key)
}
