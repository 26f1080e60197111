// Package claude is the claude provider: Claude Code (`claude`) run
// headless inside the container, its answer read from its stream-json
// events. The Student gets the shell and file tools and no web tools; the
// Mentor gets the read-only tools and web search. Permissions are
// --permission-mode dontAsk with an allowlist (as root, the bypass modes
// refuse to start).
package claude

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// New returns the claude provider.
func New() provider.Provider { return agent.Runner{Backend: Backend{}} }

// Backend runs Claude Code.
type Backend struct {
	// Path is the program ("" means claude on PATH).
	Path string
}

// Name is part of the agent.Backend interface.
func (Backend) Name() spec.Provider { return spec.ProviderClaude }

// CLI is part of the agent.Backend interface.
func (Backend) CLI() string { return "claude" }

// ImageMode is part of the agent.Backend interface: Claude looks at an
// image with its Read tool.
func (Backend) ImageMode() prompt.ImageMode { return prompt.ImagesRead }

// Tools is part of the agent.Backend interface.
func (Backend) Tools(status.Role) string { return "" }

// Web is part of the agent.Backend interface.
func (Backend) Web() bool { return true }

// The tools each role is offered (--tools) and allowed (--allowedTools);
// everything else is refused without asking (--permission-mode dontAsk).
var (
	StudentTools = []string{"Bash", "Read", "Edit", "Write", "Glob", "Grep"}
	MentorTools  = []string{"Read", "Glob", "Grep", "WebSearch", "WebFetch"}
	RepairTools  = []string{"Read"}
	// Denied are refused outright, whatever a settings file says.
	StudentDenied = []string{"WebSearch", "WebFetch"}
	MentorDenied  = []string{"Bash", "Edit", "Write", "NotebookEdit"}
)

// StructuredTurns are the turns --max-turns gives beyond the role's
// maxTurns: with --json-schema the answer is a call of Claude Code's
// StructuredOutput tool, a turn followed by another, and a run that has no
// turn left for it ends error_max_turns with no answer (`--max-turns 1`
// with --json-schema never answers: toroleapinc/claude-brain#33,
// shepherdjerred/monorepo#350; docs/providers.md). So maxTurns counts the
// model's work and its answer as for the other CLIs, and the repair call
// (one turn, no tools) gets the two it needs.
const StructuredTurns = 1

// Args are the flags of one invocation (without the prompt's value).
func Args(call agent.Call, promptArg string) []string {
	tools, denied := StudentTools, StudentDenied
	switch {
	case call.Repair:
		tools, denied = RepairTools, append(append([]string{}, StudentDenied...), MentorDenied...)
	case call.Role == status.RoleMentor:
		tools, denied = MentorTools, MentorDenied
	}
	args := []string{"-p", promptArg,
		"--output-format", "stream-json", "--verbose",
		"--permission-mode", "dontAsk",
		"--tools", strings.Join(tools, ","),
		"--allowedTools", strings.Join(tools, ","),
		"--disallowedTools", strings.Join(denied, ","),
		"--max-turns", strconv.Itoa(max(call.MaxTurns, 1) + StructuredTurns),
		"--no-session-persistence",
		"--json-schema", string(agent.AnswerSchema(call.Role, false)),
	}
	if call.TutorialDir != "" {
		args = append(args, "--add-dir", call.TutorialDir)
	}
	if call.Model != "" {
		args = append(args, "--model", call.Model)
	}
	return args
}

// Env is the CLI's environment: the call's, with Bash commands bounded by
// the step timeout (killed, not backgrounded) and no auto-update or
// telemetry traffic.
func Env(call agent.Call) []string {
	ms := strconv.FormatInt(call.StepTimeout.Milliseconds(), 10)
	// Without CLAUDE_CODE_DISABLE_BACKGROUND_TASKS (CHANGELOG 2.1.4) a Bash
	// command that reaches the timeout is moved to the background and keeps
	// running while the model carries on as if it had ended.
	return agent.CLIEnv(call.Env, "BASH_DEFAULT_TIMEOUT_MS="+ms, "BASH_MAX_TIMEOUT_MS="+ms,
		"CLAUDE_CODE_DISABLE_BACKGROUND_TASKS=1",
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
}

// Invoke is part of the agent.Backend interface.
func (b Backend) Invoke(ctx context.Context, call agent.Call) (agent.Reply, error) {
	path := b.Path
	if path == "" {
		path = "claude"
	}
	promptArg, cleanup, err := agent.PromptArg(call.Prompt)
	if err != nil {
		return agent.Reply{}, err
	}
	defer cleanup()
	st := newStream(call)
	res, err := agent.RunCLI(ctx, agent.Exec{Path: path, Args: Args(call, promptArg), Dir: call.WorkDir, Env: Env(call), OnLine: st.line})
	if err != nil {
		return agent.Reply{}, fmt.Errorf("run claude: %w", err)
	}
	return st.finish(res)
}

// event is one line of --output-format stream-json.
type event struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	Model   string `json:"model"`
	Message struct {
		Model   string  `json:"model"`
		Content []block `json:"content"`
	} `json:"message"`
	// The result event's fields (the same as --output-format json's).
	IsError          bool            `json:"is_error"`
	Result           string          `json:"result"`
	StructuredOutput json.RawMessage `json:"structured_output"`
	TotalCostUSD     float64         `json:"total_cost_usd"`
	DurationMs       int64           `json:"duration_ms"`
	NumTurns         int             `json:"num_turns"`
	APIErrorStatus   json.RawMessage `json:"api_error_status"`
	TerminalReason   string          `json:"terminal_reason"`
	Errors           []string        `json:"errors"`
	Usage            struct {
		InputTokens              int64 `json:"input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	} `json:"usage"`
	ModelUsage map[string]json.RawMessage `json:"modelUsage"`
}

type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

type pendingTool struct {
	name    string
	command string
	path    string
	content string
	started time.Time
}

// stream follows the events as they arrive.
type stream struct {
	call     agent.Call
	model    string
	result   *event
	pending  map[string]pendingTool
	commands []status.AuditCommand
	files    []status.AuditFile
	lastText string
}

func newStream(call agent.Call) *stream {
	call = call.WithDefaults()
	return &stream{call: call, model: call.Model, pending: map[string]pendingTool{}}
}

func (s *stream) line(l string) {
	var e event
	if !strings.HasPrefix(strings.TrimSpace(l), "{") || json.Unmarshal([]byte(l), &e) != nil {
		return
	}
	switch e.Type {
	case "system":
		if e.Model != "" {
			s.model = e.Model
		}
	case "assistant":
		if e.Message.Model != "" {
			s.model = e.Message.Model
		}
		for _, b := range e.Message.Content {
			switch b.Type {
			case "text":
				s.lastText = b.Text
			case "tool_use":
				s.toolUse(b)
			}
		}
	case "user":
		for _, b := range e.Message.Content {
			if b.Type == "tool_result" {
				s.toolResult(b)
			}
		}
	case "result":
		r := e
		s.result = &r
	}
}

func (s *stream) toolUse(b block) {
	var in struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Content  string `json:"content"`
		NewStr   string `json:"new_string"`
		Pattern  string `json:"pattern"`
		Query    string `json:"query"`
		URL      string `json:"url"`
	}
	_ = json.Unmarshal(b.Input, &in)
	p := pendingTool{name: b.Name, command: in.Command, path: in.FilePath, content: in.Content + in.NewStr, started: time.Now()}
	s.pending[b.ID] = p
	role := string(s.call.Role)
	switch b.Name {
	case "Bash":
		s.call.Progress(fmt.Sprintf("%s: running `%s`", role, textutil.FirstLine(in.Command)), s.call.Locate(in.Command))
	case "Write", "Edit":
		s.call.Progress(fmt.Sprintf("%s: writing %s", role, in.FilePath), 0)
	case "Read", "Glob", "Grep":
		s.call.Progress(fmt.Sprintf("%s: reading %s", role, firstOf(in.FilePath, in.Pattern)), 0)
	case "WebSearch", "WebFetch":
		s.call.Progress(fmt.Sprintf("%s: researching %s", role, firstOf(in.Query, in.URL)), 0)
	}
}

var (
	exitCodeRe = regexp.MustCompile(`(?i)exit code[: ]+(\d+)`)
	// backgroundedRe is how Claude Code says a Bash command reached its
	// timeout and was left running (anthropics/claude-code#87439, 2.1.233).
	backgroundedRe = regexp.MustCompile(`(?i)did not complete within .*timeout and was moved to the background`)
	// timedOutRe is the killed variant's first line.
	timedOutRe = regexp.MustCompile(`(?i)command timed out`)
	// apiStatusRe finds the HTTP status in a result's text when
	// api_error_status is absent: "API Error: 429 {...}" or "Request
	// rejected (429)".
	apiStatusRe = regexp.MustCompile(`API Error: (?:(\d{3})\b|.*?\((\d{3})\))`)
)

// ExitBackgrounded is the exit code recorded for a command Claude Code
// moved to the background at its timeout: it had not ended, and 124 is what
// timeout(1) reports for a command that ran out of time.
const ExitBackgrounded = 124

func (s *stream) toolResult(b block) {
	p, ok := s.pending[b.ToolUseID]
	if !ok {
		return
	}
	delete(s.pending, b.ToolUseID)
	output := contentText(b.Content)
	switch p.name {
	case "Bash":
		code, timedOut := bashExit(output, b.IsError)
		s.commands = append(s.commands, status.AuditCommand{
			Command: p.command, ExitCode: code, Output: output, StartedAt: p.started, TimedOut: timedOut,
			DurationMs: time.Since(p.started).Milliseconds(), Line: s.call.Locate(p.command),
		})
	case "Write", "Edit":
		if b.IsError {
			return
		}
		action := "create"
		if p.name == "Edit" {
			action = "edit"
		}
		path := p.path
		if rel, err := filepath.Rel(s.call.WorkDir, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
		s.files = append(s.files, status.AuditFile{Path: path, Action: action, Bytes: len(p.content), WrittenAt: time.Now()})
	}
}

// bashExit reads how a Bash command ended from its tool result. A command
// moved to the background is reported as a success although it never
// finished: it counts as timed out.
func bashExit(output string, isError bool) (code int, timedOut bool) {
	if backgroundedRe.MatchString(output) {
		return ExitBackgrounded, true
	}
	if !isError {
		return 0, false
	}
	code = 1
	if m := exitCodeRe.FindStringSubmatch(output); m != nil {
		code, _ = strconv.Atoi(m[1])
	}
	// A killed command ends with SIGTERM's 143; the words alone could be the
	// command's own output.
	return code, code == 143 && timedOutRe.MatchString(output)
}

// contentText reads a tool result's content: a string or a list of text
// blocks.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// finish reads the result event: the answer, or why there is none.
func (s *stream) finish(res agent.ExecResult) (agent.Reply, error) {
	reply := agent.Reply{Commands: s.commands, Files: s.files, Stdout: res.Stdout, Stderr: res.Stderr}
	call := status.LLMCall{Model: s.model, StartedAt: res.StartedAt, DurationMs: res.Duration.Milliseconds()}
	r := s.result
	if r != nil {
		u := r.Usage
		call.InputTokens = u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
		call.OutputTokens = u.OutputTokens
		call.CostUSD = r.TotalCostUSD
		if r.DurationMs > 0 {
			call.DurationMs = r.DurationMs
		}
		if call.Model == "" {
			for m := range r.ModelUsage {
				call.Model = m
			}
		}
		reply.CostReported = true
	}
	reply.Calls = []status.LLMCall{call}
	if res.TimedOut {
		return reply, &agent.APIError{Kind: agent.ErrTimeout, Message: fmt.Sprintf("claude was killed after %s", res.Duration.Round(time.Second)), Partial: reply}
	}
	if r == nil {
		msg := firstOf(agent.Tail(res.Stderr, 5), agent.Tail(res.Stdout, 5), fmt.Sprintf("claude exited with code %d and printed no result", res.ExitCode))
		return reply, &agent.APIError{Kind: agent.Classify(0, msg), Message: msg, Partial: reply}
	}
	text := firstOf(r.Result, strings.Join(r.Errors, "; "))
	switch {
	case r.Subtype == "error_max_turns":
		// Out of turns: whatever it said last is the answer to repair.
		reply.TurnLimit = true
		reply.Text = firstOf(r.Result, s.lastText)
		return reply, nil
	case r.IsError || strings.HasPrefix(r.Subtype, "error"):
		// An auth or API failure can say subtype "success" with is_error.
		httpStatus := 0
		_ = json.Unmarshal(r.APIErrorStatus, &httpStatus)
		if m := apiStatusRe.FindStringSubmatch(text); httpStatus == 0 && m != nil {
			httpStatus, _ = strconv.Atoi(m[1] + m[2])
		}
		msg := firstOf(text, r.Subtype, agent.Tail(res.Stderr, 3))
		kind := agent.Classify(httpStatus, msg)
		return reply, &agent.APIError{Kind: kind, HTTPStatus: httpStatus, Message: msg, Partial: reply}
	}
	reply.Text = r.Result
	if len(r.StructuredOutput) > 0 && string(r.StructuredOutput) != "null" {
		reply.Structured = string(r.StructuredOutput)
	}
	return reply, nil
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
