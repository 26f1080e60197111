package reconcile

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/relay"
	"github.com/smile-loop/smile/runtime/fake"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

const testKey = "sk-ant-api03-TESTKEYTESTKEYTESTKEY"

// llmHarness is the harness with a model-backed provider and the
// controller's environment holding its key.
func llmHarness(t *testing.T, specYAML string) *harness {
	t.Helper()
	h := newHarness(t, "")
	manifest := "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec:\n  maxIterations: 3\n  timeout: 300\n" + specYAML
	write(t, filepath.Join(h.dir, "run.yaml"), manifest)
	m, err := runfile.Load(filepath.Join(h.dir, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h.rec.Runs = mapSource{"demo": {Manifest: m, Dir: h.dir, Path: filepath.Join(h.dir, "run.yaml")}}
	env := map[string]string{"ANTHROPIC_API_KEY": testKey, "TEAM_KEY": "team-secret-key", "CODEX_API_KEY": "not-for-claude"}
	h.rec.LookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	h.rec.Relays = relay.NewSet(h.rt, 50*time.Millisecond)
	t.Cleanup(h.rec.Relays.Close)
	return h
}

func TestLLMAttemptGetsItsKeyOnlyInTheEnvironment(t *testing.T) {
	h := llmHarness(t, "  llmProvider: claude\n  models: {student: claude-sonnet-4-5, mentor: claude-opus-4-1}\n  maxTurns: {student: 33}\n  prices: {x: {inputPerMillion: 1}}\n")
	run := h.settle()
	cs, ok := h.rt.Spec(run.Status.Attempt.Container)
	if !ok {
		t.Fatal("no Student container")
	}
	env := strings.Join(cs.Env, "\n")
	if !strings.Contains(env, "ANTHROPIC_API_KEY="+testKey) || strings.Contains(env, "CODEX_API_KEY") || strings.Contains(env, "TEAM_KEY") {
		t.Errorf("container env = %q: want the provider's key and no other", cs.Env)
	}
	if cs.Network != "bridge" || !cs.HostGateway {
		t.Errorf("network %q hostGateway %v", cs.Network, cs.HostGateway)
	}
	var task wire.Task
	readTask(t, h.attemptLogs(run), &task)
	if task.LLM == nil || task.LLM.Model != "claude-sonnet-4-5" || task.LLM.MaxTurns != 33 || task.LLM.TimeoutSeconds != 295 ||
		task.LLM.Network != spec.NetworkBridge || task.LLM.Prices["x"].InputPerMillion != 1 || task.LLM.APIKeyEnv != "" {
		t.Errorf("task.llm = %+v", task.LLM)
	}
	for _, f := range []string{filepath.Join(h.attemptLogs(run), wire.TaskFileName), h.stateFile()} {
		if data, _ := os.ReadFile(f); strings.Contains(string(data), testKey) {
			t.Errorf("%s holds the API key", f)
		}
	}
}

func TestStudentNetworkNoneUsesTheRelay(t *testing.T) {
	// The callback listener and an OpenAI-compatible endpoint, on the host.
	var got []string
	callback := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusNoContent)
	}))
	defer callback.Close()
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "models at "+r.URL.Path)
	}))
	defer model.Close()
	_, cbPort, _ := net.SplitHostPort(strings.TrimPrefix(callback.URL, "http://"))
	_, modelPort, _ := net.SplitHostPort(strings.TrimPrefix(model.URL, "http://"))

	h := llmHarness(t, "  llmProvider: openai\n  studentNetwork: none\n  models: {student: m, mentor: m}\n  openai: {baseUrl: \"http://host.docker.internal:"+modelPort+"/v1\", apiKeyEnv: TEAM_KEY}\n")
	h.rt.SetInfo(runtime.Info{ServerVersion: "20.10", APIVersion: "1.41", GatewayIP: "127.0.0.1", HostName: fake.DefaultHostName})
	h.rec.CallbackURL = "http://host.docker.internal:" + cbPort
	run := h.settle()
	name := run.Status.Attempt.Container
	cs, _ := h.rt.Spec(name)
	if cs.Network != "none" || cs.HostGateway {
		t.Fatalf("network %q hostGateway %v, want none without host.docker.internal", cs.Network, cs.HostGateway)
	}
	sock := ""
	for _, m := range cs.Mounts {
		if m.Target == wire.ContainerRelayDir {
			if !m.ReadOnly {
				t.Error("the relay folder must be mounted read-only")
			}
			sock = filepath.Join(m.Source, wire.RelaySocketName)
		}
	}
	if sock == "" || !strings.Contains(strings.Join(cs.Env, "\n"), wire.EnvRelaySocket+"=/opt/smile/relay/smile.sock") || !strings.Contains(strings.Join(cs.Env, "\n"), "TEAM_KEY=team-secret-key") {
		t.Fatalf("mounts %+v env %q", cs.Mounts, cs.Env)
	}
	ask := func(req string) string {
		t.Helper()
		c, err := net.Dial("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, _ = io.WriteString(c, req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.Status + " " + string(body)
	}
	// The wrapper's callbacks reach the controller, token and all.
	if r := ask("POST /api/progress HTTP/1.1\r\nHost: host.docker.internal\r\nAuthorization: Bearer tok\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"); !strings.HasPrefix(r, "204") {
		t.Errorf("callback through the relay = %q", r)
	}
	if len(got) != 1 || got[0] != "POST /api/progress Bearer tok" {
		t.Errorf("callback listener got %q", got)
	}
	// The model's endpoint is reachable, as a proxy request.
	if r := ask("GET http://host.docker.internal:" + modelPort + "/v1/models HTTP/1.1\r\nHost: host.docker.internal:" + modelPort + "\r\nConnection: close\r\n\r\n"); !strings.Contains(r, "200 OK models at /v1/models") {
		t.Errorf("model through the relay = %q", r)
	}
	// Nothing else is.
	for _, req := range []string{
		"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
		"GET http://example.com/ HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n",
		"GET /etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
	} {
		if r := ask(req); !strings.HasPrefix(r, "403") {
			t.Errorf("%q through the relay = %q, want 403", strings.SplitN(req, "\r\n", 2)[0], r)
		}
	}
	// The Mentor keeps the bridge: it researches.
	h.postStudent(askChmod)
	run = h.settle()
	ms, _ := h.rt.Spec(run.Status.Attempt.Container)
	if ms.Network != "bridge" || !ms.HostGateway {
		t.Errorf("mentor network %q", ms.Network)
	}
	// The relay goes with its container, once it has seen it (a relay opens
	// before its container is created, and waits for it).
	time.Sleep(200 * time.Millisecond) // four of the relay's polls
	h.rt.Vanish(name)
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(sock); os.IsNotExist(err) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("the relay outlived its container")
}

func TestBudgetEndsTheLoopBeforeTheNextCall(t *testing.T) {
	h := llmHarness(t, "  llmProvider: claude\n  budgetUsd: 0.5\n")
	run := h.settle()
	p := &planner.Posted{Attempt: run.Status.Attempt.Container, Role: status.RoleStudent, ReceivedAt: h.clock(),
		Student: &wire.StudentResultRequest{StudentOutput: askChmod, Timestamp: h.clock(), Audit: &status.Audit{
			LLMCalls: []status.LLMCall{{Provider: "claude", InputTokens: 90000, OutputTokens: 4000, CostUSD: 0.61}}}}}
	if err := h.box().PutResult(p); err != nil {
		t.Fatal(err)
	}
	run = h.settle()
	st := run.Status
	if st.Phase != status.PhaseError || st.Reason != status.ReasonBudgetExceeded || !strings.Contains(st.Message, "$0.6100") {
		t.Fatalf("phase %s reason %s message %q", st.Phase, st.Reason, st.Message)
	}
	if st.Cost == nil || st.Cost.USD != 0.61 || st.Cost.InputTokens != 90000 {
		t.Errorf("cost = %+v", st.Cost)
	}
	cs, err := h.rt.List(context.Background(), map[string]string{runtime.LabelRole: "mentor"})
	if err != nil || len(cs) != 0 {
		t.Errorf("a Mentor was started after the budget was spent: %+v %v", cs, err)
	}
}
