package e2e

// The model-backed providers, end to end: the real smile CLI and controller,
// the real wrapper in real containers of smile-fakes:latest (smile-base with
// faithful fakes of the claude, codex and gemini CLIs,
// hack/build-test-image.sh), and for openai a fake OpenAI-compatible server
// on the Docker bridge gateway. Each test checks the commands the CLI ran,
// the flags the wrapper passed, what the wrapper posted (through the report)
// and the gap lines, and that the API key never lands in a file.

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	fakesOnce sync.Once
	fakesErr  error
)

// fakesImage builds smile-fakes:latest (cached by its recipe label).
func fakesImage(t *testing.T) {
	t.Helper()
	smileBinaries(t)
	baseImage(t)
	fakesOnce.Do(func() {
		cmd := exec.Command("bash", filepath.Join(repoRoot(t), "hack", "build-test-image.sh"))
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			fakesErr = errors.New(string(out) + err.Error())
		}
	})
	if fakesErr != nil {
		t.Fatalf("build smile-fakes:latest: %v", fakesErr)
	}
}

// fakeRecord is what a fake CLI wrote about one invocation.
type fakeRecord struct {
	CLI        string            `json:"cli"`
	Invocation int               `json:"invocation"`
	Scenario   string            `json:"scenario"`
	Argv       []string          `json:"argv"`
	Stdin      string            `json:"stdin"`
	Env        map[string]string `json:"env"`
	Settings   json.RawMessage   `json:"settings"`
	Ran        []string          `json:"ran"`
	Denied     []string          `json:"denied"`
	Exit       int               `json:"exit"`
	dir        string
}

func (r fakeRecord) flag(name string) string {
	for i, a := range r.Argv {
		if a == name && i+1 < len(r.Argv) {
			return r.Argv[i+1]
		}
	}
	return ""
}

func (r fakeRecord) has(arg string) bool {
	for _, a := range r.Argv {
		if a == arg {
			return true
		}
	}
	return false
}

// fakeRecords reads the records of a run's containers, by scenario key
// (student-1, mentor-1, ...), in invocation order.
func fakeRecords(t *testing.T, dir, cli string) map[string][]fakeRecord {
	t.Helper()
	// A run's working folders are beside its state file: under internal/ of
	// its own folder .smile/runs/NAME by default, .smile/runs/NAME for a state
	// file set in .smile/.
	files, _ := filepath.Glob(filepath.Join(dir, ".smile", "runs", "*", "internal", "g*", "logs", "*", "fake-"+cli+"-*.json"))
	set, _ := filepath.Glob(filepath.Join(dir, ".smile", "runs", "*", "g*", "logs", "*", "fake-"+cli+"-*.json"))
	files = append(files, set...)
	out := map[string][]fakeRecord{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var r fakeRecord
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r.dir = filepath.Dir(f)
		out[r.Scenario] = append(out[r.Scenario], r)
	}
	for k := range out {
		sort.Slice(out[k], func(i, j int) bool { return out[k][i].Invocation < out[k][j].Invocation })
	}
	return out
}

// noKeyAnywhere walks every file SMILE wrote under dir (state, reports,
// audit log, task files, results, the wrapper's copies of CLI output, the
// controller's log) and fails if one holds the key.
func noKeyAnywhere(t *testing.T, dir, key string) {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSocket != 0 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		n++
		if strings.Contains(string(data), key) {
			t.Errorf("%s holds the API key", path)
		}
		return nil
	})
	if err != nil || n < 10 {
		t.Errorf("walked %d files (%v)", n, err)
	}
}

// providerReport is the part of smile-report.json these tests read beyond
// the shared report type.
type providerReport struct {
	Summary struct {
		Status string `json:"status"`
		Reason string `json:"reason"`
		Cost   *struct {
			Calls     int     `json:"calls"`
			USD       float64 `json:"usd"`
			Estimated bool    `json:"estimated"`
			Unpriced  int     `json:"unpriced"`
		} `json:"cost"`
	} `json:"summary"`
	AuditTrail struct {
		Commands []struct {
			Role    string `json:"role"`
			Line    int    `json:"line"`
			Command string `json:"command"`
			Output  string `json:"output"`
		} `json:"commands"`
		LLMCalls []struct {
			Iteration    int     `json:"iteration"`
			Role         string  `json:"role"`
			Provider     string  `json:"provider"`
			Model        string  `json:"model"`
			InputTokens  int64   `json:"inputTokens"`
			CostUSD      float64 `json:"costUsd"`
			Estimated    bool    `json:"estimated"`
			Error        string  `json:"error"`
			RawOutput    string  `json:"rawOutput"`
			NoPrice      bool    `json:"noPrice"`
			OutputTokens int64   `json:"outputTokens"`
		} `json:"llmCalls"`
	} `json:"auditTrail"`
}

func readProviderReport(t *testing.T, path string) providerReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r providerReport
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func gapsAt(r report) []string {
	var out []string
	for _, g := range r.Gaps {
		out = append(out, g.Category+"@"+itoa(g.Location.LineNumber)+":"+g.Severity)
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

const claudeKey = "sk-ant-api03-E2EFAKEKEY-DO-NOT-LEAK-0123456789"

// TestProvidersClaude: ask, a workaround from the Mentor, completion.
func TestProvidersClaude(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-claude")
	res := smile(t, dir, []string{"ANTHROPIC_API_KEY=" + claudeKey}, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d, want 2 (completed with gaps)\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	tut := filepath.Join(dir, "tutorial.md")
	r := readReport(t, runFile(dir, "claude", "smile-report.json"))
	if r.Summary.Status != "completed" || r.Summary.Iterations != 2 {
		t.Errorf("status %s after %d iterations, want completed after 2", r.Summary.Status, r.Summary.Iterations)
	}
	want := []string{"missing_file@" + itoa(lineOf(t, tut, "./count.sh words.txt")) + ":major",
		"output_mismatch@" + itoa(lineOf(t, tut, "wc -w words.txt")) + ":minor"}
	if got := gapsAt(r); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("gaps = %v, want %v", got, want)
	}
	if len(r.MentorNotes) != 1 || r.MentorNotes[0].Resolution != "workaround" || !strings.Contains(r.MentorNotes[0].Workaround, "chmod +x count.sh") ||
		r.MentorNotes[0].Line != lineOf(t, tut, "./count.sh words.txt") {
		t.Errorf("mentor notes = %+v", r.MentorNotes)
	}
	for _, g := range r.Gaps {
		if g.Category == "missing_file" && !strings.Contains(g.SuggestedFix, "creates count.sh") {
			t.Errorf("the Mentor's fix is not on the gap: %+v", g)
		}
	}
	pr := readProviderReport(t, runFile(dir, "claude", "smile-report.json"))
	var ran []string
	for _, c := range pr.AuditTrail.Commands {
		ran = append(ran, c.Role+":"+itoa(c.Line)+":"+c.Command)
	}
	count := lineOf(t, tut, "./count.sh words.txt")
	for _, w := range []string{"student:" + itoa(lineOf(t, tut, "wc -w words.txt")) + ":wc -w words.txt", "student:" + itoa(count) + ":./count.sh words.txt"} {
		found := false
		for _, c := range ran {
			found = found || c == w
		}
		if !found {
			t.Errorf("audit commands %q lack %q", ran, w)
		}
	}
	for _, c := range pr.AuditTrail.Commands {
		if c.Command == "ls /sys/class/net" && !strings.Contains(c.Output, "eth0") {
			t.Errorf("on the bridge the Student has a network: %q", c.Output)
		}
	}
	if n := len(pr.AuditTrail.LLMCalls); n != 3 || pr.Summary.Cost == nil || pr.Summary.Cost.Calls != 3 || pr.Summary.Cost.Estimated ||
		pr.Summary.Cost.USD < 0.1415 || pr.Summary.Cost.USD > 0.1417 {
		t.Errorf("llm calls %+v, cost %+v: want Claude's own 0.0612 + 0.0305 + 0.0499", pr.AuditTrail.LLMCalls, pr.Summary.Cost)
	}
	md, _ := os.ReadFile(runFile(dir, "claude", "smile-report.md"))
	if !strings.Contains(string(md), "**Cost**: \\$0.1416 for 3 LLM calls") {
		t.Errorf("the Markdown report has no cost line")
	}
	recs := fakeRecords(t, dir, "claude")
	s1, m1, s2 := recs["student-1"], recs["mentor-1"], recs["student-2"]
	if len(s1) != 1 || len(m1) != 1 || len(s2) != 1 {
		t.Fatalf("invocations: %d student-1, %d mentor-1, %d student-2", len(s1), len(m1), len(s2))
	}
	st, mt := s1[0], m1[0]
	if st.flag("--tools") != "Bash,Read,Edit,Write,Glob,Grep" || st.flag("--disallowedTools") != "WebSearch,WebFetch" || st.flag("--model") != "claude-sonnet-4-5" ||
		st.flag("--max-turns") != "31" || st.flag("--permission-mode") != "dontAsk" || st.flag("--output-format") != "stream-json" || !st.has("--verbose") ||
		st.Stdin != "devnull" || st.Env["ANTHROPIC_API_KEY"] != "set" || st.Env["SMILE_TOKEN"] != "" || st.Env["BASH_DEFAULT_TIMEOUT_MS"] != "20000" {
		t.Errorf("student invocation = %+v", st)
	}
	if mt.flag("--tools") != "Read,Glob,Grep,WebSearch,WebFetch" || mt.flag("--model") != "claude-opus-4-1" || mt.flag("--max-turns") != "9" ||
		strings.Join(mt.Denied, ",") != "Bash" || len(mt.Ran) != 0 {
		t.Errorf("mentor invocation = %+v", mt)
	}
	if !strings.Contains(strings.Join(s2[0].Ran, "\n"), "chmod +x count.sh") {
		t.Errorf("the second Student did not run the workaround: %q", s2[0].Ran)
	}
	noKeyAnywhere(t, dir, claudeKey)
}

// TestProvidersStudentNetworkNone: no network in the Student's container; the
// wrapper still reports through the relay and the CLI gets its proxy.
func TestProvidersStudentNetworkNone(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-claude")
	res := smile(t, dir, []string{"ANTHROPIC_API_KEY=" + claudeKey}, 4*time.Minute, "apply", "-f", "run-none.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	r := readReport(t, filepath.Join(dir, "out-none", "smile-report.json"))
	if r.Summary.Status != "completed" || r.Summary.Iterations != 2 {
		t.Errorf("status %s iterations %d: the results must reach the controller through the relay", r.Summary.Status, r.Summary.Iterations)
	}
	pr := readProviderReport(t, filepath.Join(dir, "out-none", "smile-report.json"))
	probed := false
	for _, c := range pr.AuditTrail.Commands {
		if c.Command == "ls /sys/class/net" {
			probed = true
			if strings.TrimSpace(c.Output) != "lo" {
				t.Errorf("network interfaces of the Student: %q, want only lo", c.Output)
			}
		}
	}
	if !probed {
		t.Error("the network probe did not run")
	}
	recs := fakeRecords(t, dir, "claude")
	if p := recs["student-1"][0].Env["HTTPS_PROXY"]; !strings.HasPrefix(p, "http://127.0.0.1:") {
		t.Errorf("the Student's CLI proxy = %q, want the wrapper's loopback forwarder", p)
	}
	if p := recs["mentor-1"][0].Env["HTTPS_PROXY"]; p != "" {
		t.Errorf("the Mentor has the bridge and no proxy, got %q", p)
	}
	noKeyAnywhere(t, dir, claudeKey)
}

// TestProvidersBudgetEndsTheLoop: the first Student call costs more than budgetUsd.
func TestProvidersBudgetEndsTheLoop(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-claude")
	res := smile(t, dir, []string{"ANTHROPIC_API_KEY=" + claudeKey}, 4*time.Minute, "apply", "-f", "run-budget.yaml", "--wait")
	// A spent budget is a limit the loop hit, like its timeout: exit 2, not 1.
	if res.code != 2 || !strings.Contains(res.stdout+res.stderr, "budgetUsd of $0.05") {
		t.Fatalf("exit %d, want 2 with the budget named\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	pr := readProviderReport(t, filepath.Join(dir, "out-budget", "smile-report.json"))
	if pr.Summary.Status != "error" || pr.Summary.Reason != "BudgetExceeded" || len(pr.AuditTrail.LLMCalls) != 1 {
		t.Errorf("summary %+v, %d calls: the Mentor must not run once the budget is spent", pr.Summary, len(pr.AuditTrail.LLMCalls))
	}
	if len(fakeRecords(t, dir, "claude")["mentor-1"]) != 0 {
		t.Error("the Mentor ran")
	}
}

const codexKey = "sk-proj-E2ECODEXKEY-DO-NOT-LEAK-0123456789"

// TestProvidersCodex: an unreadable answer is repaired; the Student cannot
// complete; the gap the run ends on is critical.
func TestProvidersCodex(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-codex")
	res := smile(t, dir, []string{"CODEX_API_KEY=" + codexKey}, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	tut := filepath.Join(dir, "tutorial.md")
	r := readReport(t, runFile(dir, "codex", "smile-report.json"))
	if want := []string{"missing_file@" + itoa(lineOf(t, tut, "./count.sh words.txt")) + ":critical"}; r.Summary.Status != "blocker" || strings.Join(gapsAt(r), " ") != strings.Join(want, " ") {
		t.Errorf("status %s gaps %v, want blocker with %v", r.Summary.Status, gapsAt(r), want)
	}
	pr := readProviderReport(t, runFile(dir, "codex", "smile-report.json"))
	calls := pr.AuditTrail.LLMCalls
	if len(calls) != 2 || !strings.Contains(calls[0].RawOutput, "the helper script is missing") || !calls[0].Estimated ||
		calls[0].CostUSD < 0.0257 || calls[0].CostUSD > 0.0258 {
		t.Errorf("llm calls = %+v: want the unreadable answer kept and the cost estimated from gpt-5's price", calls)
	}
	recs := fakeRecords(t, dir, "codex")["student-1"]
	if len(recs) != 2 {
		t.Fatalf("%d codex invocations, want the answer and one repair", len(recs))
	}
	s := recs[0]
	if s.Argv[0] != "exec" || !s.has("--json") || !s.has("--skip-git-repo-check") || !s.has("--dangerously-bypass-approvals-and-sandbox") ||
		s.flag("-C") != "/workspace/work" || s.flag("-c") != `web_search="disabled"` || s.flag("-m") != "gpt-5-codex" || s.flag("--output-schema") == "" ||
		s.Stdin != "devnull" || s.Env["CODEX_API_KEY"] != "set" || len(s.Ran) != 3 || len(s.Denied) != 0 {
		t.Errorf("student invocation = %+v", s)
	}
	md, _ := os.ReadFile(runFile(dir, "codex", "smile-audit.log"))
	if !strings.Contains(string(md), "    I ran everything I could; the helper script is missing, so I stopped.") {
		t.Error("the audit log does not keep the raw answer")
	}
	noKeyAnywhere(t, dir, codexKey)
}

const geminiKey = "AIzaSyE2EGEMINIKEY-DO-NOT-LEAK-0123456789"

// TestProvidersGemini: a rate limit is retried; the Mentor, in default approval mode, cannot run the
// shell and finds no way past: blocker.
func TestProvidersGemini(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-gemini")
	res := smile(t, dir, []string{"GEMINI_API_KEY=" + geminiKey}, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	tut := filepath.Join(dir, "tutorial.md")
	r := readReport(t, runFile(dir, "gemini", "smile-report.json"))
	if want := "missing_file@" + itoa(lineOf(t, tut, "./count.sh words.txt")) + ":critical"; r.Summary.Status != "blocker" || strings.Join(gapsAt(r), " ") != want {
		t.Errorf("status %s gaps %v, want blocker with %s", r.Summary.Status, gapsAt(r), want)
	}
	recs := fakeRecords(t, dir, "gemini")
	// The first try meets a 429: the CLI exits 173 (the status's low byte)
	// and the wrapper runs it again.
	if st := recs["student-1"]; len(st) != 2 || st[0].Exit != 173 {
		t.Fatalf("student invocations = %+v, want a 429 (exit 173) then a retry", st)
	}
	s, m := recs["student-1"][1], recs["mentor-1"][0]
	if s.flag("--approval-mode") != "yolo" || s.flag("-o") != "json" || !s.has("--skip-trust") || strings.Join(s.Denied, ",") != "google_web_search" ||
		!strings.Contains(string(s.Settings), `"maxSessionTurns": 12`) {
		t.Errorf("student invocation = %+v settings %s", s, s.Settings)
	}
	if m.flag("--approval-mode") != "default" || len(m.Ran) != 0 || strings.Join(m.Denied, ",") != "run_shell_command" || !strings.Contains(string(m.Settings), `"maxSessionTurns": 4`) {
		t.Errorf("mentor invocation = %+v", m)
	}
	if _, err := os.Stat(filepath.Join(m.dir, "..", "..", "work", "1", "mentor-was-here")); err == nil {
		t.Error("the Mentor changed the work folder")
	}
	pr := readProviderReport(t, runFile(dir, "gemini", "smile-report.json"))
	if pr.Summary.Cost == nil || pr.Summary.Cost.Unpriced != 2 {
		t.Errorf("cost = %+v: gemini calls without a price are unpriced", pr.Summary.Cost)
	}
	noKeyAnywhere(t, dir, geminiKey)
}

// TestProvidersOpenAI: the wrapper's own agent loop against a fake
// OpenAI-compatible server, with the Student on studentNetwork none so that
// every model call goes through the controller's relay.
func TestProvidersOpenAI(t *testing.T) {
	fakesImage(t)
	t.Parallel()
	dir := copyFixture(t, "providers-openai")
	out, err := exec.Command("docker", "network", "inspect", "bridge", "--format", "{{(index .IPAM.Config 0).Gateway}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(strings.TrimSpace(string(out)), "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &chatServer{t: t, script: openAIScript()}
	hs := &http.Server{Handler: srv}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	gatewayAddr = strings.TrimSpace(string(out)) + "/" + port
	manifest := `apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata: {name: openai}
spec:
  llmProvider: openai
  containerImage: smile-fakes:latest
  maxIterations: 2
  timeout: 300
  studentNetwork: none
  models: {student: qwen3-coder:30b, mentor: qwen3-coder:30b}
  openai: {baseUrl: "http://host.docker.internal:` + port + `/v1", apiKeyEnv: LOCAL_LLM_KEY}
  prices: {qwen3-coder: {inputPerMillion: 0.2, outputPerMillion: 0.8}}
  studentBehavior: {timeoutSeconds: 20}
`
	if err := os.WriteFile(filepath.Join(dir, "run.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	const key = "sk-E2ELOCALKEY-DO-NOT-LEAK-0123456789"
	res := smile(t, dir, []string{"LOCAL_LLM_KEY=" + key}, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 2 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	tut := filepath.Join(dir, "tutorial.md")
	r := readReport(t, runFile(dir, "openai", "smile-report.json"))
	if want := "missing_file@" + itoa(lineOf(t, tut, "./count.sh words.txt")) + ":critical"; r.Summary.Status != "blocker" || strings.Join(gapsAt(r), " ") != want {
		t.Errorf("status %s gaps %v, want blocker with %s", r.Summary.Status, gapsAt(r), want)
	}
	pr := readProviderReport(t, runFile(dir, "openai", "smile-report.json"))
	var cmds []string
	for _, c := range pr.AuditTrail.Commands {
		cmds = append(cmds, itoa(c.Line)+":"+c.Command+"=>"+strings.TrimSpace(c.Output))
	}
	want := []string{
		itoa(lineOf(t, tut, "printf 'one two three\\n' > words.txt")) + ":printf 'one two three\\n' > words.txt=>",
		itoa(lineOf(t, tut, "wc -w words.txt")) + ":wc -w words.txt=>3 words.txt",
		"0:(exec 3<>/dev/tcp/" + strings.TrimSpace(string(out)) + "/" + port + ") 2>&1 || echo no-network=>",
		itoa(lineOf(t, tut, "./count.sh words.txt")) + ":./count.sh words.txt=>",
	}
	if len(cmds) != 4 || !strings.HasPrefix(cmds[0], want[0]) || cmds[1] != want[1] || !strings.HasPrefix(cmds[2], want[2]) || !strings.HasSuffix(cmds[2], "no-network") ||
		!strings.HasPrefix(cmds[3], want[3]) || !strings.Contains(cmds[3], "No such file or directory") {
		t.Errorf("commands =\n%s", strings.Join(cmds, "\n"))
	}
	calls := pr.AuditTrail.LLMCalls
	errs := 0
	for _, c := range calls {
		if c.Error != "" {
			errs++
		}
	}
	if len(calls) != 5 || errs != 1 || !calls[0].Estimated || calls[0].Model != "qwen3-coder:30b" || pr.Summary.Cost == nil || !pr.Summary.Cost.Estimated {
		t.Errorf("llm calls = %+v cost %+v", calls, pr.Summary.Cost)
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	if len(srv.auth) != 5 {
		t.Errorf("%d requests reached the server, want 5", len(srv.auth))
	}
	for _, a := range srv.auth {
		if a != "Bearer "+key {
			t.Errorf("Authorization = %q", a)
		}
	}
	if len(srv.problems) > 0 {
		t.Errorf("requests: %v", srv.problems)
	}
	noKeyAnywhere(t, dir, key)
}

// chatServer is a scripted OpenAI-compatible endpoint, answering as Ollama's
// /v1 does (ollama/ollama openai/openai.go at 00988753: ToChatCompletion sets
// system_fingerprint "fp_ollama" and finish_reason "tool_calls" when the
// message has tool calls; errors are {"error":{message,type,param,code}}).
type chatServer struct {
	t        *testing.T
	mu       sync.Mutex
	script   []func(req map[string]any) (int, any)
	auth     []string
	problems []string
}

func (s *chatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var req map[string]any
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || r.URL.Path != "/v1/chat/completions" {
		s.problems = append(s.problems, "bad request to "+r.URL.Path)
	}
	s.auth = append(s.auth, r.Header.Get("Authorization"))
	if len(s.script) == 0 {
		s.problems = append(s.problems, "unexpected request")
		http.Error(w, "script ended", http.StatusInternalServerError)
		return
	}
	step := s.script[0]
	s.script = s.script[1:]
	code, body := step(req)
	if code == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(body)
}

func chat(content string, calls ...[3]string) any {
	msg := map[string]any{"role": "assistant", "content": content}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
		var tcs []any
		for _, c := range calls {
			tcs = append(tcs, map[string]any{"id": c[0], "type": "function", "function": map[string]any{"name": c[1], "arguments": c[2]}})
		}
		msg["tool_calls"], msg["content"] = tcs, nil
	}
	return map[string]any{"object": "chat.completion", "model": "qwen3-coder:30b", "system_fingerprint": "fp_ollama",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		"usage":   map[string]any{"prompt_tokens": 3000, "completion_tokens": 150}}
}

// lastToolOf is the last tool answer the wrapper sent.
func lastToolOf(req map[string]any) string {
	msgs, _ := req["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		if m, _ := msgs[i].(map[string]any); m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	return ""
}

func openAIScript() []func(map[string]any) (int, any) {
	ok := func(body any) func(map[string]any) (int, any) {
		return func(map[string]any) (int, any) { return 200, body }
	}
	return []func(map[string]any) (int, any){
		// The Student: run the first block.
		ok(chat("", [3]string{"1", "run_command", `{"command": "printf 'one two three\\n' > words.txt"}`}, [3]string{"2", "run_command", `{"command": "wc -w words.txt"}`})),
		// A rate limit: retried after Retry-After.
		func(map[string]any) (int, any) {
			return 429, map[string]any{"error": map[string]any{"message": "Rate limit reached", "type": "rate_limit_error"}}
		},
		// Invalid arguments: the wrapper answers with an error, not a crash;
		// then the Student probes the network and runs the helper.
		ok(chat("", [3]string{"3", "run_command", `{"command": "./count.sh words.txt"`})),
		func(req map[string]any) (int, any) {
			body := chat("", [3]string{"4", "run_command", `{"command": "(exec 3<>/dev/tcp/` + gatewayOf(req) + `) 2>&1 || echo no-network"}`},
				[3]string{"5", "run_command", `{"command": "./count.sh words.txt"}`})
			if !strings.Contains(lastToolOf(req), "not valid JSON") {
				body = map[string]any{"error": map[string]any{"message": "the wrapper did not report the invalid arguments: " + lastToolOf(req)}}
				return 400, body
			}
			return 200, body
		},
		ok(chat("```json\n" + `{"status": "cannot_complete", "currentStep": "Count them with the helper", "reason": "count.sh does not exist and nothing creates it", "quote": "./count.sh words.txt", "category": "missing_file", "summary": "stopped at the helper"}` + "\n```")),
	}
}

// gatewayOf is where the fake server listens (the test put it in the
// environment of the script); the Student tries to reach it directly.
var gatewayAddr string

func gatewayOf(map[string]any) string { return gatewayAddr }
