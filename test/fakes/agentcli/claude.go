package main

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/smile-loop/smile/internal/textutil"
)

// The fake Claude Code follows these documented behaviours, path by path
// (versions as read; docs/providers.md keeps the table):
//   - flags: the CLI reference, code.claude.com/docs/en/cli-reference
//     (-p, --output-format, --verbose, --permission-mode, --tools,
//     --allowedTools, --disallowedTools, --max-turns, --json-schema,
//     --add-dir, --no-session-persistence);
//   - "Error: When using --print, --output-format=stream-json requires
//     --verbose", exit 1: nullclaw/nullclaw#125 (2.1.59), fullsend-ai#306;
//   - bypass modes as root exit 1 with "--dangerously-skip-permissions cannot
//     be used with root/sudo privileges for security reasons":
//     anthropics/claude-code#58150 (source excerpt of 2.1.139), #9184;
//   - stream-json events system/init, assistant tool_use, user tool_result,
//     result{subtype,is_error,result,total_cost_usd,usage,num_turns}:
//     code.claude.com/docs/en/headless (output formats) and the Agent SDK's
//     message types;
//   - no key: result subtype "success" with is_error true, "Not logged in ·
//     Please run /login", exit 1: anthropics/claude-code#72325 (2.1.195);
//   - rate limit: "API Error: Request rejected (429) · Rate limited. Please
//     try again later.": anthropics/claude-code#69023, #48191;
//   - a Bash command at its timeout: moved to the background (non-error
//     result) unless CLAUDE_CODE_DISABLE_BACKGROUND_TASKS is set
//     (CHANGELOG 2.1.4), then killed, exit 143: #87439 (2.1.233), #79879;
//   - out of turns: subtype "error_max_turns", no result text: the headless
//     docs' result subtypes; a --json-schema answer needs a turn more than
//     a text one (structuredTurns).
var claudeFlags = flagSpec{
	booleans: []string{"-p", "--print", "--verbose", "--no-session-persistence", "--dangerously-skip-permissions", "-c", "--continue", "-d", "--debug", "--include-partial-messages", "--strict-mcp-config"},
	valued: []string{"--output-format", "--input-format", "--permission-mode", "--tools", "--model", "--fallback-model", "--max-turns", "--json-schema",
		"--append-system-prompt", "--system-prompt", "--max-budget-usd", "--settings", "-r", "--resume", "--session-id", "--agents"},
	variadic: []string{"--allowedTools", "--allowed-tools", "--disallowedTools", "--disallowed-tools", "--add-dir", "--mcp-config", "--betas"},
}

var claudeAllTools = []string{"Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebSearch", "WebFetch", "NotebookEdit", "Task", "TodoWrite"}

func (f *fake) claude() int {
	p, err := claudeFlags.parse(f.args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "error: %s\n", err)
		return 1
	}
	format := textutil.FirstNonEmpty(p.value("--output-format"), "text")
	mode := p.value("--permission-mode")
	if code := claudeRefusal(p, format, mode); code != 0 {
		return code
	}
	offered := claudeAllTools
	if p.values["--tools"] != nil {
		offered = list(p.values["--tools"])
	}
	allowed := list(p.all("--allowedTools", "--allowed-tools"))
	denied := list(p.all("--disallowedTools", "--disallowed-tools"))
	usable := func(tool string) bool {
		if !slices.Contains(offered, tool) || slices.Contains(denied, tool) {
			return false
		}
		// dontAsk refuses whatever is not allowed; default asks, and a
		// headless run cannot answer.
		return slices.Contains(allowed, tool) || mode == "bypassPermissions" || mode == "acceptEdits" && (tool == "Write" || tool == "Edit")
	}
	maxTurns := 0
	if v := p.value("--max-turns"); v != "" {
		maxTurns, _ = strconv.Atoi(v)
	}
	model := f.model(textutil.FirstNonEmpty(p.value("--model"), "claude-sonnet-4-5-20250929"))
	session := "5f0e2c1a-9a57-4c1e-8d1e-3f2b6a7c9d10"
	out := func(v any) {
		if format == "stream-json" {
			printJSON(v)
		}
	}
	run := &claudeRun{f: f, out: out, usable: usable, maxTurns: maxTurns, model: model, session: session, format: format, start: time.Now()}
	out(map[string]any{"type": "system", "subtype": "init", "cwd": f.rec.Cwd, "session_id": session, "tools": offered,
		"model": model, "permissionMode": textutil.FirstNonEmpty(mode, "default"), "apiKeySource": "ANTHROPIC_API_KEY"})
	result := run.result
	if os.Getenv("ANTHROPIC_API_KEY") == "" {
		return result("success", true, "Not logged in · Please run /login", map[string]any{"total_cost_usd": 0})
	}
	early, late := f.inv.Fail, ""
	if f.inv.LateFail {
		early, late = "", f.inv.Fail
	}
	if code, failed := run.failure(early); failed {
		return code
	}
	f.sleep()
	turns, exhausted := run.play()
	f.stall()
	if code, failed := run.failure(late); failed {
		return code
	}
	if exhausted || run.outOfTurns(turns, p.value("--json-schema") != "") || f.inv.Fail == "max_turns" {
		return result("error_max_turns", true, "", map[string]any{"num_turns": max(turns, maxTurns+1)})
	}
	text := f.answer()
	out(map[string]any{"type": "assistant", "message": map[string]any{"model": model, "role": "assistant",
		"content": []any{map[string]any{"type": "text", "text": text}}}, "session_id": session})
	extra := map[string]any{"num_turns": turns + 1}
	if p.value("--json-schema") != "" {
		var obj map[string]any
		if json.Unmarshal([]byte(text), &obj) == nil {
			extra["structured_output"] = obj
		}
	}
	return result("success", false, text, extra)
}

// structuredTurns is what --json-schema adds to the turns an answer
// takes. With a schema the answer is a call of the StructuredOutput tool
// (Agent SDK structured outputs, platform.claude.com/docs/en/agent-sdk/
// structured-outputs; CHANGELOG.md 2.1.187 and 2.1.196 name the tool), and
// a tool call is a turn followed by another: `claude -p --json-schema ...
// --max-turns 1` ends is_error true, subtype error_max_turns,
// terminal_reason max_turns, with no structured_output
// (toroleapinc/claude-brain#33, 2026-04; shepherdjerred/monorepo#350,
// 2026-01), and a --max-turns 1 run reports num_turns 2
// (anthropics/claude-code-action#1577, 2026-07). Read up to Claude Code
// 2.1.240's CHANGELOG (anthropics/claude-code at 5cfc0a19), which lists no
// change to it.
const structuredTurns = 1

// claudeRun plays the scenario's tool calls as stream-json events.
type claudeRun struct {
	f              *fake
	out            func(any)
	usable         func(tool string) bool
	maxTurns       int
	model, session string
	turns          int
	format         string
	start          time.Time
}

// failure plays the scenario's failure before any tool call, if any:
// failed is true when the run ends here with code.
func (r *claudeRun) failure(fail string) (code int, failed bool) {
	switch fail {
	case "auth":
		return r.result("success", true, "Invalid API key · Fix external API key", map[string]any{"total_cost_usd": 0}), true
	case "rate_limit":
		// The text of recent versions (anthropics/claude-code#69023,
		// 2026-06; older ones printed `API Error: 429 {json}`), with the
		// result's api_error_status.
		return r.result("success", true, "API Error: Request rejected (429) · Rate limited. Please try again later.", map[string]any{"api_error_status": 429}), true
	case "network":
		return r.result("success", true, "API Error: Connection error.", nil), true
	case "crash":
		fmt.Fprintln(os.Stderr, "TypeError: Cannot read properties of undefined (reading 'map')")
		return 1, true
	}
	return 0, false
}

// outOfTurns says whether the answer finds no turn left after turns tool
// calls. The answer takes a turn of its own; with --json-schema it is the
// StructuredOutput tool's call and the turn after it (structuredTurns).
func (r *claudeRun) outOfTurns(turns int, schema bool) bool {
	needed := turns + 1
	if schema {
		needed += structuredTurns
	}
	return r.maxTurns > 0 && needed > r.maxTurns
}

// claudeRefusal is the exit code of a command line Claude Code refuses
// before it starts (0: none).
func claudeRefusal(p parsed, format, mode string) int {
	if !p.has("-p", "--print") || len(p.positional) == 0 {
		fmt.Fprintln(os.Stderr, "Error: Input must be provided either through stdin or as a prompt argument when using --print")
		return 1
	}
	if format == "stream-json" && !p.has("--verbose") {
		fmt.Fprintln(os.Stderr, "Error: When using --print, --output-format=stream-json requires --verbose")
		return 1
	}
	if (p.has("--dangerously-skip-permissions") || mode == "bypassPermissions") && os.Getuid() == 0 {
		fmt.Fprintln(os.Stderr, "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons")
		return 1
	}
	return 0
}

// result prints the result event (or the text alone) and is the exit code:
// 1 for an error, even one with subtype "success".
func (r *claudeRun) result(subtype string, isErr bool, text string, extra map[string]any) int {
	f := r.f
	ev := map[string]any{"type": "result", "subtype": subtype, "is_error": isErr, "duration_ms": time.Since(r.start).Milliseconds(),
		"duration_api_ms": time.Since(r.start).Milliseconds(), "num_turns": 1, "session_id": r.session,
		"total_cost_usd": f.inv.CostUSD, "permission_denials": []any{},
		"usage": map[string]any{"input_tokens": f.inv.InputTokens, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": f.inv.OutputTokens}}
	if subtype != "error_max_turns" {
		ev["result"] = text
	}
	for k, v := range extra {
		ev[k] = v
	}
	switch r.format {
	case "json", "stream-json":
		printJSON(ev)
	default:
		fmt.Println(text)
	}
	if isErr {
		return 1
	}
	return 0
}

// tool is one tool call and its result; false when the turns ran out.
func (r *claudeRun) tool(name string, input map[string]any, run func() (string, bool)) bool {
	r.turns++
	if r.maxTurns > 0 && r.turns > r.maxTurns {
		return false
	}
	id := fmt.Sprintf("toolu_%02d", r.turns)
	r.out(map[string]any{"type": "assistant", "message": map[string]any{"model": r.model, "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}}}, "session_id": r.session})
	text, isErr := "", false
	if !r.usable(name) {
		r.f.rec.Denied = append(r.f.rec.Denied, name)
		text, isErr = fmt.Sprintf("Claude requested permissions to use %s, but you haven't granted it yet.", name), true
	} else {
		text, isErr = run()
	}
	r.out(map[string]any{"type": "user", "message": map[string]any{"role": "user",
		"content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": text, "is_error": isErr}}}, "session_id": r.session})
	return true
}

// play runs the commands, the writes and the search; exhausted when the
// turns ran out.
func (r *claudeRun) play() (turns int, exhausted bool) {
	f := r.f
	timeout := 2 * time.Minute
	if ms, err := strconv.Atoi(os.Getenv("BASH_DEFAULT_TIMEOUT_MS")); err == nil && ms > 0 {
		timeout = time.Duration(ms) * time.Millisecond
	}
	for _, c := range f.inv.Run {
		if !r.tool("Bash", map[string]any{"command": c, "description": "Run " + textutil.FirstLine(c)}, func() (string, bool) {
			f.rec.Ran = append(f.rec.Ran, c)
			return claudeBash(c, f.rec.Cwd, timeout)
		}) {
			return r.turns, true
		}
	}
	for _, w := range f.inv.Write {
		if !r.tool("Write", map[string]any{"file_path": w.Path, "content": w.Content}, func() (string, bool) {
			if err := writeFile(f.rec.Cwd, w.Path, w.Content); err != nil {
				return err.Error(), true
			}
			return "File created successfully at: " + w.Path, false
		}) {
			return r.turns, true
		}
	}
	if f.inv.Web != "" && !r.tool("WebSearch", map[string]any{"query": f.inv.Web}, func() (string, bool) {
		return "Web search results for " + f.inv.Web, false
	}) {
		return r.turns, true
	}
	return r.turns, false
}

// claudeBash is the Bash tool's result: the output, with "Exit code N" and
// is_error for a failure. At the timeout (BASH_DEFAULT_TIMEOUT_MS) a
// command is moved to the background and left running, reported as a
// success (anthropics/claude-code#87439, 2.1.233), unless
// CLAUDE_CODE_DISABLE_BACKGROUND_TASKS is set (CHANGELOG 2.1.4: it turns
// auto-backgrounding off); then it is killed (exit 143, #79879).
func claudeBash(command, dir string, timeout time.Duration) (string, bool) {
	if v := os.Getenv("CLAUDE_CODE_DISABLE_BACKGROUND_TASKS"); v == "" || v == "0" || v == "false" {
		output, code, done := shellOrBackground(command, dir, timeout)
		if !done {
			return fmt.Sprintf("%sCommand did not complete within its %s timeout and was moved to the background with ID: b%04d. Use TaskOutput to read its output.",
				output, timeout.Round(time.Second), os.Getpid()%10000), false
		}
		if code != 0 {
			return fmt.Sprintf("%s\nExit code %d", output, code), true
		}
		return output, false
	}
	output, code := shell(command, dir, timeout)
	if code != 0 {
		return fmt.Sprintf("%s\nExit code %d", output, code), true
	}
	return output, false
}
