package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The fake codex follows these documented behaviours (openai/codex at
// 1ebb1bc7 unless said; docs/providers.md keeps the table):
//   - flags of `codex exec`: docs/exec.md and codex-rs/exec/src/cli.rs
//     (--json, --skip-git-repo-check, --ephemeral, -C, -m, -c, -o,
//     --output-schema, -i/--image, --dangerously-bypass-approvals-and-sandbox);
//     an unknown flag is clap's "error: unexpected argument", exit 2;
//   - outside a git repository without --skip-git-repo-check it refuses to
//     run: codex-rs/exec/src/lib.rs;
//   - events thread.started, turn.started, item.started/completed,
//     turn.completed{usage}, turn.failed{error}, error{message}:
//     codex-rs/exec/src/exec_events.rs; command_execution items carry
//     status in_progress|completed|failed|declined and exit_code null until
//     the command ran;
//   - "Reconnecting... n/5" error events while it retries the stream, then
//     turn.failed: codex-rs/core (stream retries, request_max_retries and
//     stream_max_retries in docs/config.md);
//   - no CODEX_API_KEY: a 401 in turn.failed: docs/exec.md (CODEX_API_KEY is
//     read by codex exec only);
//   - a schema that is not strict: the Responses API's 400
//     invalid_json_schema (platform.openai.com structured outputs: every
//     object additionalProperties false, every property required);
//   - bubblewrap failing inside Docker ("bwrap: Failed to make / slave"):
//     openai/codex issues on sandboxing in containers, docs/sandbox.md.
var codexFlags = flagSpec{
	booleans: []string{"--json", "--skip-git-repo-check", "--ephemeral", "--dangerously-bypass-approvals-and-sandbox", "--oss", "--color"},
	valued:   []string{"-C", "--cd", "-c", "--config", "-m", "--model", "-s", "--sandbox", "-o", "--output-last-message", "--output-schema", "-p", "--profile", "--add-dir"},
	greedy:   []string{"-i", "--image"},
}

func (f *fake) codex() int {
	if len(f.args) == 0 || f.args[0] != "exec" {
		fmt.Fprintln(os.Stderr, "agentcli: the fake codex only knows `codex exec`")
		return 2
	}
	p, err := codexFlags.parse(f.args[1:])
	if err != nil {
		name := strings.TrimSuffix(strings.TrimPrefix(err.Error(), "unknown option '"), "'")
		fmt.Fprintf(os.Stderr, "error: unexpected argument '%s' found\n\nUsage: codex exec [OPTIONS] [PROMPT] [COMMAND]\n\nFor more information, try '--help'.\n", name)
		return 2
	}
	if code := f.codexRefusal(p); code != 0 {
		return code
	}
	r := &codexRun{f: f, json: p.has("--json"), web: "cached",
		bypass: p.has("--dangerously-bypass-approvals-and-sandbox") || p.value("-s", "--sandbox") == "danger-full-access"}
	for _, c := range p.values["-c"] {
		if k, v, ok := strings.Cut(c, "="); ok && strings.TrimSpace(k) == "web_search" {
			r.web = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	r.emit(map[string]any{"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"})
	r.emit(map[string]any{"type": "turn.started"})
	if os.Getenv("CODEX_API_KEY") == "" {
		return r.fail("unexpected status 401 Unauthorized: Missing bearer or basic authentication in header")
	}
	if code, failed := r.checkSchema(p.value("--output-schema")); failed {
		return code
	}
	early, late := f.inv.Fail, ""
	if f.inv.LateFail {
		early, late = "", f.inv.Fail
	}
	if code, failed := r.failure(early); failed {
		return code
	}
	f.sleep()
	r.play()
	f.stall()
	if code, failed := r.failure(late); failed {
		return code
	}
	text := f.answer()
	r.emit(map[string]any{"type": "item.completed", "item": r.item("agent_message", map[string]any{"text": text})})
	r.emit(map[string]any{"type": "turn.completed", "usage": map[string]any{"input_tokens": f.inv.InputTokens, "cached_input_tokens": 0, "output_tokens": f.inv.OutputTokens}})
	if last := p.value("-o", "--output-last-message"); last != "" {
		_ = os.WriteFile(last, []byte(text), 0o644)
	}
	if !r.json {
		fmt.Println(text)
	}
	return 0
}

// codexRefusal is the exit code of a command line codex refuses before it
// starts (0: none). It also moves to -C's folder.
func (f *fake) codexRefusal(p parsed) int {
	if dir := p.value("-C", "--cd"); dir != "" {
		if err := os.Chdir(dir); err != nil {
			fmt.Fprintf(os.Stderr, "Error: failed to change directory to %s: %v\n", dir, err)
			return 1
		}
		f.rec.Cwd = dir
	}
	if !p.has("--skip-git-repo-check") && !insideGit(f.rec.Cwd) {
		fmt.Fprintln(os.Stderr, "Not inside a trusted directory and --skip-git-repo-check was not specified.")
		return 1
	}
	if len(p.positional) == 0 {
		fmt.Fprintln(os.Stderr, "No prompt provided. Either specify one as an argument or pipe the prompt into stdin.")
		return 1
	}
	for _, img := range list(p.all("-i", "--image")) {
		if _, err := os.Stat(img); err != nil {
			fmt.Fprintf(os.Stderr, "Error: failed to read image %s: %v\n", img, err)
			return 1
		}
	}
	return 0
}

// codexRun is one `codex exec` run: its JSONL events and items.
type codexRun struct {
	f      *fake
	json   bool
	web    string
	bypass bool
	n      int
}

func (r *codexRun) emit(v any) {
	if r.json {
		printJSON(v)
	}
}

func (r *codexRun) item(typ string, fields map[string]any) map[string]any {
	it := map[string]any{"id": fmt.Sprintf("item_%d", r.n), "type": typ}
	for k, v := range fields {
		it[k] = v
	}
	return it
}

// fail ends the turn with turn.failed (and the message on stderr without
// --json), exit 1.
func (r *codexRun) fail(msg string) int {
	r.emit(map[string]any{"type": "turn.failed", "error": map[string]any{"message": msg}})
	if !r.json {
		fmt.Fprintln(os.Stderr, "ERROR: "+msg)
	}
	return 1
}

// checkSchema reads --output-schema; a schema that is not strict is the
// API's 400.
func (r *codexRun) checkSchema(schema string) (int, bool) {
	if schema == "" {
		return 0, false
	}
	data, err := os.ReadFile(schema)
	if err != nil {
		fmt.Fprintf(os.Stderr, "Error: failed to read output schema file %s: %v\n", schema, err)
		return 1, true
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		fmt.Fprintf(os.Stderr, "Error: output schema file %s is not valid JSON: %v\n", schema, err)
		return 1, true
	}
	if problem := strictProblem(s, "$"); problem != "" {
		return r.fail(`unexpected status 400 Bad Request: {"error":{"message":"Invalid schema for response_format 'codex_output_schema': ` + problem + `","type":"invalid_request_error","param":"text.format.schema","code":"invalid_json_schema"}}`), true
	}
	return 0, false
}

// failure plays the scenario's failure, if any.
func (r *codexRun) failure(fail string) (int, bool) {
	switch fail {
	case "auth":
		return r.fail("unexpected status 401 Unauthorized: Incorrect API key provided"), true
	case "rate_limit":
		for i := 1; i <= 5; i++ {
			r.emit(map[string]any{"type": "error", "message": fmt.Sprintf("Reconnecting... %d/5 (stream disconnected before completion: Rate limit reached for gpt-5-codex)", i)})
		}
		return r.fail("exceeded retry limit, last status: 429 Too Many Requests, request id: req_0f3a"), true
	case "network":
		for i := 1; i <= 5; i++ {
			r.emit(map[string]any{"type": "error", "message": fmt.Sprintf("Reconnecting... %d/5 (stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses))", i)})
		}
		return r.fail("stream disconnected before completion: error sending request for url (https://api.openai.com/v1/responses)"), true
	}
	return 0, false
}

// play runs the scenario's commands, declined commands, writes and search
// as items.
func (r *codexRun) play() {
	f := r.f
	for _, c := range f.inv.Run {
		wrapped := "bash -lc '" + strings.ReplaceAll(c, "'", `'"'"'`) + "'"
		r.emit(map[string]any{"type": "item.started", "item": r.item("command_execution", map[string]any{"command": wrapped, "aggregated_output": "", "exit_code": nil, "status": "in_progress"})})
		output, code := "", 0
		if !r.bypass && underDocker() {
			// Codex's bubblewrap sandbox inside Docker.
			output, code = "bwrap: Failed to make / slave: Permission denied\n", 1
			f.rec.Denied = append(f.rec.Denied, c)
		} else {
			f.rec.Ran = append(f.rec.Ran, c)
			output, code = shell(c, f.rec.Cwd, 10*time.Minute)
		}
		st := "completed"
		if code != 0 {
			st = "failed"
		}
		r.emit(map[string]any{"type": "item.completed", "item": r.item("command_execution", map[string]any{"command": wrapped, "aggregated_output": output, "exit_code": code, "status": st})})
		r.n++
	}
	for _, c := range f.inv.Decline {
		// A command the approval policy refused: it never ran, so its
		// exit_code stays null (CommandExecutionStatus::Declined,
		// codex-rs/exec/src/exec_events.rs, openai/codex at 1ebb1bc7).
		wrapped := "bash -lc '" + strings.ReplaceAll(c, "'", `'"'"'`) + "'"
		r.emit(map[string]any{"type": "item.started", "item": r.item("command_execution", map[string]any{"command": wrapped, "aggregated_output": "", "exit_code": nil, "status": "in_progress"})})
		r.emit(map[string]any{"type": "item.completed", "item": r.item("command_execution", map[string]any{"command": wrapped, "aggregated_output": "", "exit_code": nil, "status": "declined"})})
		f.rec.Denied = append(f.rec.Denied, c)
		r.n++
	}
	r.writes()
	if f.inv.Web != "" {
		if r.web == "disabled" {
			f.rec.Denied = append(f.rec.Denied, "web_search")
		} else {
			r.emit(map[string]any{"type": "item.completed", "item": r.item("web_search", map[string]any{"query": f.inv.Web})})
			r.n++
		}
	}
}

// writes applies the scenario's files as one file_change item.
func (r *codexRun) writes() {
	f := r.f
	if len(f.inv.Write) == 0 {
		return
	}
	var changes []any
	for _, w := range f.inv.Write {
		kind := "add"
		if _, err := os.Stat(filepath.Join(f.rec.Cwd, w.Path)); err == nil {
			kind = "update"
		}
		if err := writeFile(f.rec.Cwd, w.Path, w.Content); err == nil {
			changes = append(changes, map[string]any{"path": filepath.Join(f.rec.Cwd, w.Path), "kind": kind})
		}
	}
	r.emit(map[string]any{"type": "item.completed", "item": r.item("file_change", map[string]any{"changes": changes, "status": "completed"})})
	r.n++
}

// strictProblem is what OpenAI's structured outputs reject in a schema:
// an object without additionalProperties false, or a property not in
// required.
func strictProblem(s map[string]any, path string) string {
	if props, ok := s["properties"].(map[string]any); ok {
		if s["additionalProperties"] != false {
			return fmt.Sprintf("In context=(%s), 'additionalProperties' is required to be supplied and to be false.", path)
		}
		req := map[string]bool{}
		if r, ok := s["required"].([]any); ok {
			for _, x := range r {
				if name, ok := x.(string); ok {
					req[name] = true
				}
			}
		}
		for name, p := range props {
			if !req[name] {
				return fmt.Sprintf("In context=(%s), 'required' is required to be supplied and to be an array including every key in properties. Missing '%s'.", path, name)
			}
			if pm, ok := p.(map[string]any); ok {
				if prob := strictProblem(pm, path+", "+name); prob != "" {
					return prob
				}
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		return strictProblem(items, path+", items")
	}
	return ""
}

func insideGit(dir string) bool {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return true
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}

func underDocker() bool {
	_, err := os.Stat("/.dockerenv")
	return err == nil
}
