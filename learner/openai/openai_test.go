package openai_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/openai"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/test/fakes/fakebin"
)

const tutorial = "# Env demo\n\n![arch](arch.png)\n\n```bash\nmkdir -p app && cd app\nexport GREETING=hi\necho \"$GREETING\" > out.txt\n```\n"

const fakeKey = "sk-FAKEOPENAIKEY0123456789abcdefgh"

// step is one scripted answer of the fake endpoint.
type step struct {
	status    int
	header    map[string]string
	body      string
	toolCalls []map[string]any
	content   string
	checkLast func(t *testing.T, req map[string]any) // checks the request it answers
	// finish is the answer's finish_reason ("" means stop, or tool_calls).
	finish string
	// extra are top-level fields added to a successful answer.
	extra map[string]any
	// delay holds the answer back (a server still working at the timeout).
	delay time.Duration
}

// server is a fake OpenAI-compatible endpoint that answers from a script
// and keeps every request. Its shapes are the servers' documented ones: a
// chat.completion object {id, object, model, choices[{index, message{role,
// content, tool_calls[{id, type:"function", function{name, arguments: a
// JSON string}}]}, finish_reason: stop|tool_calls|length}], usage{
// prompt_tokens, completion_tokens, total_tokens}} (OpenAI's API reference,
// "The chat completion object"; Ollama's openai/openai.go ToChatCompletion
// at 00988753 builds the same), errors as {"error":{message, type, param,
// code}} (OpenAI's error codes guide; Ollama's NewError), and GET /models
// as {"object":"list","data":[{id, object:"model", created, owned_by}]}.
// The scripts of servers_test.go add each server's own error texts.
type server struct {
	t        *testing.T
	mu       sync.Mutex
	steps    []step
	requests []map[string]any
	auth     []string
	// models is the body of GET /v1/models ("" answers 404).
	models string
	// modelsHeader are its headers.
	modelsHeader map[string]string
	// numCtx, when set, is an Ollama context: the messages that do not fit
	// are dropped before the model (and checkLast) sees the request, as
	// Ollama does (ollamaFit); dropped counts them per request.
	numCtx  int
	dropped []int
}

// ollamaFit is what the model sees of msgs with Ollama's context policy
// (chatPrompt in server/prompt.go, ollama/ollama v0.33.0-rc2 at fb307609;
// truncateNativeChatMessages in server/routes.go does the same): from the
// front, the oldest messages are dropped until the rest fits num_ctx,
// except that every system message among them is kept, and the last
// message is kept whatever its size. Nothing tells the client. Ollama
// counts the tokens of the rendered template; the fake counts a token per
// four bytes of each message's JSON.
func ollamaFit(msgs []any, numCtx int) (kept []any, dropped int) {
	tokens := func(ms []any) int {
		n := 0
		for _, m := range ms {
			data, _ := json.Marshal(m)
			n += len(data) / 4
		}
		return n
	}
	for i := range msgs {
		var system []any
		for _, m := range msgs[:i] {
			if m.(map[string]any)["role"] == "system" {
				system = append(system, m)
			}
		}
		kept = append(system, msgs[i:]...)
		if tokens(kept) <= numCtx || i == len(msgs)-1 {
			return kept, i - len(system)
		}
	}
	return msgs, 0
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.URL.Path == "/v1/models" && r.Method == http.MethodGet && s.models != "" {
		for k, v := range s.modelsHeader {
			w.Header().Set(k, v)
		}
		_, _ = w.Write([]byte(s.models))
		return
	}
	if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	data, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(data, &req); err != nil {
		s.t.Errorf("request is not JSON: %s", data)
	}
	s.requests = append(s.requests, req)
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	if len(s.steps) == 0 {
		s.t.Errorf("unexpected request %d", len(s.requests))
		http.Error(w, "script ended", http.StatusInternalServerError)
		return
	}
	st := s.steps[0]
	s.steps = s.steps[1:]
	if s.numCtx > 0 {
		kept, dropped := ollamaFit(req["messages"].([]any), s.numCtx)
		req["messages"] = kept
		s.dropped = append(s.dropped, dropped)
	}
	if st.checkLast != nil {
		st.checkLast(s.t, req)
	}
	time.Sleep(st.delay)
	for k, v := range st.header {
		w.Header().Set(k, v)
	}
	if st.status != 0 && st.status != 200 {
		w.WriteHeader(st.status)
		_, _ = w.Write([]byte(st.body))
		return
	}
	msg := map[string]any{"role": "assistant", "content": st.content}
	finish := "stop"
	if len(st.toolCalls) > 0 {
		msg["tool_calls"], msg["content"], finish = st.toolCalls, nil, "tool_calls"
	}
	if st.finish != "" {
		finish = st.finish
	}
	answer := map[string]any{"id": "chatcmpl-1", "object": "chat.completion", "model": "qwen3-coder:30b",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}}
	for k, v := range st.extra {
		answer[k] = v
	}
	_ = json.NewEncoder(w).Encode(answer)
}

func call(id, name, args string) map[string]any {
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
}

// lastTool is the content of the last tool message of a request.
func lastTool(req map[string]any) string {
	msgs := req["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i].(map[string]any)
		if m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	return ""
}

func toolNames(req map[string]any) []string {
	var out []string
	tools, _ := req["tools"].([]any)
	for _, x := range tools {
		out = append(out, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return out
}

func setup(t *testing.T, steps []step) (*server, *fakebin.Sandbox, agent.Runner, *[]time.Duration) {
	t.Helper()
	srv := &server{t: t, steps: steps}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	sb := fakebin.NewSandbox(t, tutorial, map[string]any{})
	if err := os.WriteFile(filepath.Join(sb.TutorialDir, "arch.png"), []byte("\x89PNG\r\n\x1a\nfake"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := sb.Env("TEAM_KEY="+fakeKey, "SMILE_TOKEN=callback-secret")
	waits := &[]time.Duration{}
	r := agent.Runner{
		Backend: openai.Backend{Getenv: func(k string) string { return fakebin.Getenv(env, k) }, Environ: func() []string { return env }},
		Getenv:  func(k string) string { return fakebin.Getenv(env, k) },
		Environ: func() []string { return env },
		Sleep:   func(_ context.Context, d time.Duration) error { *waits = append(*waits, d); return nil },
	}
	_ = hs
	t.Setenv("SMILE_TEST_BASEURL", hs.URL+"/v1")
	return srv, sb, r, waits
}

func llm(t *testing.T) *wire.TaskLLM {
	return &wire.TaskLLM{Model: "qwen3-coder:30b", BaseURL: os.Getenv("SMILE_TEST_BASEURL"), APIKeyEnv: "TEAM_KEY", MaxTurns: 20,
		Prices: map[string]spec.Price{"qwen3-coder": {InputPerMillion: 0.5, OutputPerMillion: 1}}}
}

func TestStudentToolLoop(t *testing.T) {
	done := `{"status": "completed", "currentStep": "end", "summary": "ran the block", "commandsRun": ["mkdir -p app && cd app"], "findings": [{"category": "output_mismatch", "quote": "echo \"$GREETING\" > out.txt", "problem": "nothing shows the file's content"}]}`
	srv, sb, r, waits := setup(t, []step{
		{toolCalls: []map[string]any{call("c1", "run_command", `{"command": "mkdir -p app && cd app"}`)},
			checkLast: func(t *testing.T, req map[string]any) {
				if got := strings.Join(toolNames(req), ","); got != "run_command,write_file,read_file,list_dir" {
					t.Errorf("student tools = %s", got)
				}
				msgs := req["messages"].([]any)
				system, user := msgs[0].(map[string]any), msgs[1].(map[string]any)
				if text, _ := system["content"].(string); system["role"] != "system" || !strings.Contains(text, "# Env demo") {
					t.Errorf("first message = %v, want the prompt with the tutorial as the system message", system)
				}
				parts, ok := user["content"].([]any)
				if !ok || len(parts) != 2 || user["role"] != "user" || !strings.HasPrefix(parts[1].(map[string]any)["image_url"].(map[string]any)["url"].(string), "data:image/png;base64,") {
					t.Errorf("second message = %v, want the user's opening and the image", user)
				}
			}},
		{status: 429, header: map[string]string{"Retry-After": "3"}, body: `{"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}`},
		{toolCalls: []map[string]any{call("c2", "run_command", `{"command": "export GREETING=hi`)}}, // invalid JSON
		{toolCalls: []map[string]any{call("c3", "run_command", `{"command": "export GREETING=hi"}`), call("c4", "run_command", `{"command": "pwd; echo \"$GREETING\" > out.txt; echo $TEAM_KEY $SMILE_TOKEN end"}`)},
			checkLast: func(t *testing.T, req map[string]any) {
				if got := lastTool(req); !strings.Contains(got, "not valid JSON") {
					t.Errorf("tool answer to invalid arguments = %q", got)
				}
			}},
		{toolCalls: []map[string]any{call("c5", "write_file", `{"path": "notes.md", "content": "hello\n"}`), call("c6", "list_dir", `{"path": "."}`), call("c7", "read_file", `{"path": "out.txt"}`)},
			checkLast: func(t *testing.T, req map[string]any) {
				// The session carried the cd and the variable; keys never reach commands.
				if got := lastTool(req); !strings.Contains(got, "/app\n") || strings.Contains(got, fakeKey) || strings.Contains(got, "callback-secret") {
					t.Errorf("run_command answer = %q", got)
				}
			}},
		{content: done, checkLast: func(t *testing.T, req map[string]any) {
			if got := lastTool(req); got != "hi\n" {
				t.Errorf("read_file answer = %q (relative to the shell's folder)", got)
			}
		}},
	})
	task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 1 || out.Findings[0].Line != 8 {
		t.Errorf("output = %+v", out)
	}
	if len(*waits) != 1 || (*waits)[0] != 3*time.Second {
		t.Errorf("waits = %v, want the Retry-After of 3s", *waits)
	}
	var cmds []string
	for _, c := range res.Audit.Commands {
		cmds = append(cmds, c.Command)
	}
	if len(cmds) != 3 || res.Audit.Commands[0].Line != 6 || res.Audit.Commands[1].Line != 7 {
		t.Errorf("commands = %q %+v", cmds, res.Audit.Commands)
	}
	if len(res.Audit.Files) != 1 || res.Audit.Files[0].Path != "app/notes.md" {
		t.Errorf("files = %+v", res.Audit.Files)
	}
	calls := res.Audit.LLMCalls
	if len(calls) != 6 || calls[1].Error == "" || !strings.Contains(calls[1].Error, "HTTP 429") || calls[0].Model != "qwen3-coder:30b" ||
		!calls[0].Estimated || calls[0].CostUSD < 0.000599 || calls[0].CostUSD > 0.000601 {
		t.Errorf("llm calls = %+v", calls)
	}
	for i, a := range srv.auth {
		if a != "Bearer "+fakeKey {
			t.Errorf("request %d Authorization = %q", i, a)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(sb.Work, "app", "notes.md")); string(data) != "hello\n" {
		t.Errorf("notes.md = %q", data)
	}
}

func TestMentorGetsOnlyReadTools(t *testing.T) {
	_, sb, r, _ := setup(t, []step{
		{toolCalls: []map[string]any{call("c1", "run_command", `{"command": "touch x"}`)}, checkLast: func(t *testing.T, req map[string]any) {
			if got := strings.Join(toolNames(req), ","); got != "read_file,list_dir" {
				t.Errorf("mentor tools = %s", got)
			}
		}},
		{content: `{"notes": "Run it from app/.", "resolution": "proceed", "quote": "export GREETING=hi"}`, checkLast: func(t *testing.T, req map[string]any) {
			if got := lastTool(req); !strings.Contains(got, `no tool "run_command" for the mentor`) {
				t.Errorf("tool answer = %q", got)
			}
		}},
	})
	task := sb.Task(t, status.RoleMentor, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Mentor(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Advice.Line != 7 || res.Advice.Resolution != status.ResolutionProceed || len(res.Audit.Commands) != 0 {
		t.Errorf("advice %+v commands %+v", res.Advice, res.Audit.Commands)
	}
	if _, err := os.Stat(filepath.Join(sb.Work, "x")); err == nil {
		t.Error("the Mentor ran a command")
	}
}

func TestImagesDroppedWhenRefused(t *testing.T) {
	srv, sb, r, _ := setup(t, []step{
		{status: 400, body: `{"error": {"message": "this model does not support image input"}}`},
		{content: `{"status": "completed", "currentStep": "end", "summary": "ok"}`, checkLast: func(t *testing.T, req map[string]any) {
			if _, isText := req["messages"].([]any)[1].(map[string]any)["content"].(string); !isText {
				t.Error("the images were sent again")
			}
		}},
	})
	task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if err != nil || res.StudentOutput.Status != status.StudentCompleted || len(srv.requests) != 2 {
		t.Fatalf("result %+v err %v requests %d", res.StudentOutput, err, len(srv.requests))
	}
}

func TestUnauthorizedIsAnAuthFailure(t *testing.T) {
	_, sb, r, waits := setup(t, []step{{status: 401, body: `{"error": {"message": "Incorrect API key provided"}}`}})
	task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if !errors.Is(err, agent.ErrAuth) || len(*waits) != 0 || !strings.Contains(res.StudentOutput.Reason, "TEAM_KEY") {
		t.Fatalf("err %v waits %v reason %q", err, *waits, res.StudentOutput.Reason)
	}
}

func TestPersistent429IsUnresolvable(t *testing.T) {
	var steps []step
	for range 5 {
		steps = append(steps, step{status: 429, body: `{"error": {"message": "Rate limit reached"}}`})
	}
	srv, sb, r, waits := setup(t, steps)
	task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if !errors.Is(err, agent.ErrTransient) || len(srv.requests) != 5 || len(*waits) != 4 {
		t.Fatalf("err %v requests %d waits %v", err, len(srv.requests), *waits)
	}
	if !strings.Contains(res.StudentOutput.Reason, "E11") {
		t.Errorf("reason = %q", res.StudentOutput.Reason)
	}
}

// TestOllamaContextKeepsTheTutorial: Ollama drops the oldest messages that
// do not fit its context, silently, but keeps system messages. The
// conversation outgrows a small context after a few commands with long
// output; the model must still see the instructions and the tutorial.
func TestOllamaContextKeepsTheTutorial(t *testing.T) {
	long := `{"command": "head -c 6000 /dev/zero | tr '\\0' a"}`
	sees := func(t *testing.T, req map[string]any) {
		var seen strings.Builder
		for _, m := range req["messages"].([]any) {
			data, _ := json.Marshal(m)
			seen.Write(data)
		}
		if !strings.Contains(seen.String(), "# Env demo") || !strings.Contains(seen.String(), "You are the Student") {
			t.Errorf("the model no longer sees the instructions and the tutorial: %d messages kept", len(req["messages"].([]any)))
		}
	}
	srv, sb, r, _ := setup(t, []step{
		{toolCalls: []map[string]any{call("c1", "run_command", long)}, checkLast: sees},
		{toolCalls: []map[string]any{call("c2", "run_command", long)}, checkLast: sees},
		{toolCalls: []map[string]any{call("c3", "run_command", long)}, checkLast: sees},
		{content: `{"status": "completed", "currentStep": "end", "summary": "ok"}`, checkLast: sees},
	})
	srv.numCtx = 4096
	task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
	res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if err != nil || res.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("result %+v err %v", res.StudentOutput, err)
	}
	if last := srv.dropped[len(srv.dropped)-1]; last == 0 {
		t.Errorf("dropped %v: the conversation never outgrew the context, so the test shows nothing", srv.dropped)
	}
}

// TestFailuresAfterToolCalls: the openai loop retries the one request that
// failed, never the conversation, so a command the model ran is not run
// again: a 429 that persists after a command is E11, a server still working
// at the invocation timeout is E13, and the command ran once in each.
func TestFailuresAfterToolCalls(t *testing.T) {
	write := step{toolCalls: []map[string]any{call("c1", "run_command", `{"command": "echo first >> first-run.txt"}`)}}
	limited := step{status: 429, body: `{"error": {"message": "Rate limit reached", "type": "rate_limit_error"}}`}
	cases := []struct {
		name           string
		steps          []step
		timeoutSeconds int
		want, forbid   string
		requests       int
	}{
		{name: "a 429 after a command is E11", steps: []step{write, limited, limited, limited, limited, limited}, timeoutSeconds: 60,
			want: "(E11)", forbid: "(E13)", requests: 6},
		{name: "a timeout after a command is E13", steps: []step{write, {content: "{}", delay: 4 * time.Second}}, timeoutSeconds: 2,
			want: "(E13)", forbid: "(E11)", requests: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, sb, r, _ := setup(t, c.steps)
			l := llm(t)
			l.TimeoutSeconds = c.timeoutSeconds
			task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, l)
			res, _ := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
			if reason := res.StudentOutput.Reason; !strings.Contains(reason, c.want) || strings.Contains(reason, c.forbid) {
				t.Errorf("reason = %q, want %s", reason, c.want)
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			if data, _ := os.ReadFile(filepath.Join(sb.Work, "first-run.txt")); len(srv.requests) != c.requests || string(data) != "first\n" {
				t.Errorf("%d requests, first-run.txt %q: want %d requests and the command run once", len(srv.requests), data, c.requests)
			}
		})
	}
}
