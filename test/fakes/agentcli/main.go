// Command agentcli is a faithful fake of the three agent CLIs SMILE drives:
// claude, codex and gemini, chosen by the name it is run as (argv[0]). It
// accepts exactly the flags the real tools document (an unknown flag fails
// as the real one does), checks the rules they enforce (stream-json needs
// --verbose, codex needs --skip-git-repo-check outside git, gemini refuses
// an untrusted folder, bypass modes refuse root), reads its API key variable
// (missing: the tool's own auth failure), and then plays a scenario: runs
// the scenario's shell commands as the agent's tool calls (within the
// role's tool limits), writes its files, and prints the tool's documented
// output: claude's stream-json events, codex's JSONL events, gemini's one
// JSON object, with their exit codes, success or failure.
//
// The scenario is a JSON file: $FAKE_SCENARIO, else fake-scenario.json in
// the tutorial folder (/workspace/tutorial). It maps "<role>-<iteration>"
// (or "<role>") to the list of this container's invocations, in order (the
// last one repeats). Role and iteration come from the wrapper's task
// ($FAKE_TASK, else /workspace/logs/task.json). Every invocation is recorded
// as fake-<cli>-<n>.json in the logs folder ($FAKE_LOG_DIR, else
// /workspace/logs): argv, working directory, stdin, which key variables were
// set (never their values), the proxy and timeout variables, gemini's
// settings and policies, what it ran and what it was denied.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/test/fakes/fakerecord"
)

// invocation is one scripted run of the CLI.
type invocation struct {
	// Run are shell commands the agent runs with its shell tool.
	Run []string `json:"run"`
	// Write are files the agent writes with its file tool.
	Write []struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	} `json:"write"`
	// Decline are commands the agent proposes and codex refuses to run
	// (status "declined", exit_code null; codex only).
	Decline []string `json:"decline"`
	// Web is a search the agent attempts.
	Web string `json:"web"`
	// Answer is the final message, as text; AnswerJSON as a JSON value.
	Answer     string          `json:"answer"`
	AnswerJSON json.RawMessage `json:"answerJson"`
	// Fail makes the run fail: auth, rate_limit, network, max_turns, crash,
	// and for gemini bad_key, server_error, invalid_stream.
	Fail string `json:"fail"`
	// LateFail plays Fail after the tool calls and the sleep, not before
	// them: each CLI retries API errors itself before it gives up (Claude
	// Code: CHANGELOG.md 2.1.97, 2.1.186, 2.1.199 at 5cfc0a19; Gemini CLI:
	// DEFAULT_MAX_ATTEMPTS 10, 5 s to 30 s apart, packages/core/src/utils/
	// retry.ts at v0.56.0; codex: "Reconnecting... n/5"), so a persistent
	// 429 can end a run late, after the agent has run commands.
	LateFail bool `json:"lateFail"`
	// SleepSeconds waits before the tool calls (timeouts, heartbeats);
	// StallSeconds after them, before answering or failing late (a
	// timeout mid-session).
	SleepSeconds float64 `json:"sleepSeconds"`
	StallSeconds float64 `json:"stallSeconds"`
	// Tokens and cost reported.
	InputTokens  int64   `json:"inputTokens"`
	OutputTokens int64   `json:"outputTokens"`
	CostUSD      float64 `json:"costUsd"`
	Model        string  `json:"model"`
}

// versions are what `<cli> --version` prints, for the versions the fakes
// follow: Claude Code prints "VERSION (Claude Code)" (code.claude.com CLI
// reference, `claude -v`), codex prints its clap name "codex-cli VERSION"
// (codex-rs/cli, package codex-cli), Gemini CLI the bare version
// (packages/cli/src/config/config.ts, yargs .version()).
var versions = map[string]string{
	"claude": "2.1.330 (Claude Code)",
	"codex":  "codex-cli 0.169.0",
	"gemini": "0.61.0",
}

type task struct {
	Role      string `json:"role"`
	Iteration int    `json:"iteration"`
}

// recordedEnv are the variables whose values are recorded; keys only say
// set or unset.
var recordedEnv = []string{"HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "BASH_DEFAULT_TIMEOUT_MS", "BASH_MAX_TIMEOUT_MS",
	"DISABLE_AUTOUPDATER", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "CLAUDE_CODE_DISABLE_BACKGROUND_TASKS", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_TRUST_WORKSPACE", "HOME"}
var keyEnv = []string{"ANTHROPIC_API_KEY", "CODEX_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "SMILE_TOKEN", "SMILE_CALLBACK_URL", "SMILE_TASK"}

func main() {
	name := filepath.Base(os.Args[0])
	if len(os.Args) == 2 && (os.Args[1] == "--version" || os.Args[1] == "-v" || os.Args[1] == "-V") {
		// Nothing to record: smile doctor asks this in a bare container.
		fmt.Println(versions[name])
		os.Exit(0)
	}
	f := &fake{cli: name, args: os.Args[1:], rec: fakerecord.Record{CLI: name, Argv: os.Args[1:], Env: map[string]string{}, Ran: []string{}, Denied: []string{}}}
	code := f.main()
	f.rec.Exit = code
	f.save()
	os.Exit(code)
}

type fake struct {
	cli  string
	args []string
	rec  fakerecord.Record
	inv  invocation
	// stdin is what was piped in (up to 8 MiB, Gemini CLI's limit).
	stdin string
}

func (f *fake) main() int {
	f.rec.Cwd, _ = os.Getwd()
	f.rec.UID = os.Getuid()
	f.rec.Stdin = stdinKind()
	for _, k := range recordedEnv {
		if v, ok := os.LookupEnv(k); ok {
			f.rec.Env[k] = v
		}
	}
	for _, k := range keyEnv {
		if _, ok := os.LookupEnv(k); ok {
			f.rec.Env[k] = "set"
		}
	}
	if f.rec.Stdin == "pipe" || f.rec.Stdin == "file" {
		// An open stdin pipe blocks codex exec and old claude until EOF;
		// Gemini CLI reads it into the prompt.
		data, _ := io.ReadAll(io.LimitReader(os.Stdin, 8<<20))
		_, _ = io.Copy(io.Discard, os.Stdin)
		f.stdin = string(data)
	}
	f.loadScenario()
	switch f.cli {
	case "claude":
		return f.claude()
	case "codex":
		return f.codex()
	case "gemini":
		return f.gemini()
	}
	fmt.Fprintf(os.Stderr, "agentcli: run me as claude, codex or gemini, not %s\n", f.cli)
	return 2
}

func stdinKind() string {
	info, err := os.Stdin.Stat()
	if err != nil {
		return "closed"
	}
	switch m := info.Mode(); {
	case m&os.ModeNamedPipe != 0:
		return "pipe"
	case m&os.ModeCharDevice != 0:
		if info.Name() == "null" || sameFile(info, "/dev/null") {
			return "devnull"
		}
		return "tty"
	case m&os.ModeSocket != 0:
		return "socket"
	}
	return "file"
}

func sameFile(info os.FileInfo, path string) bool {
	other, err := os.Stat(path)
	return err == nil && os.SameFile(info, other)
}

func logDir() string {
	if d := os.Getenv("FAKE_LOG_DIR"); d != "" {
		return d
	}
	return "/workspace/logs"
}

// loadScenario picks this invocation's script.
func (f *fake) loadScenario() {
	taskPath := os.Getenv("FAKE_TASK")
	if taskPath == "" {
		taskPath = filepath.Join(logDir(), "task.json")
	}
	var t task
	if data, err := os.ReadFile(taskPath); err == nil {
		_ = json.Unmarshal(data, &t)
	}
	countFile := filepath.Join(logDir(), "fake-"+f.cli+"-count")
	n := 1
	if data, err := os.ReadFile(countFile); err == nil {
		n, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		n++
	}
	_ = os.WriteFile(countFile, []byte(strconv.Itoa(n)), 0o644)
	f.rec.Invocation = n
	path := os.Getenv("FAKE_SCENARIO")
	if path == "" {
		path = "/workspace/tutorial/fake-scenario.json"
	}
	var scenario map[string][]invocation
	if data, err := os.ReadFile(path); err == nil {
		if err := json.Unmarshal(data, &scenario); err != nil {
			fmt.Fprintf(os.Stderr, "agentcli: bad scenario %s: %v\n", path, err)
		}
	}
	for _, key := range []string{fmt.Sprintf("%s-%d", t.Role, t.Iteration), t.Role, "default"} {
		if list := scenario[key]; len(list) > 0 {
			f.rec.Scenario = key
			f.inv = list[min(n, len(list))-1]
			return
		}
	}
	f.rec.Scenario = "none"
	f.inv = invocation{Answer: "I have nothing to do."}
}

func (f *fake) save() {
	data, _ := json.MarshalIndent(f.rec, "", "  ")
	_ = os.WriteFile(filepath.Join(logDir(), fmt.Sprintf("fake-%s-%d.json", f.cli, f.rec.Invocation)), data, 0o644)
}

// answer is the final message text.
func (f *fake) answer() string {
	if len(f.inv.AnswerJSON) > 0 {
		return string(f.inv.AnswerJSON)
	}
	return f.inv.Answer
}

func (f *fake) sleep() {
	if f.inv.SleepSeconds > 0 {
		time.Sleep(time.Duration(f.inv.SleepSeconds * float64(time.Second)))
	}
}

func (f *fake) stall() {
	if f.inv.StallSeconds > 0 {
		time.Sleep(time.Duration(f.inv.StallSeconds * float64(time.Second)))
	}
}

func (f *fake) model(def string) string {
	if f.inv.Model != "" {
		return f.inv.Model
	}
	return def
}

func printJSON(v any) {
	data, _ := json.Marshal(v)
	fmt.Println(string(data))
}
