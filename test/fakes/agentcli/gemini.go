package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"
)

// The fake Gemini CLI follows these documented behaviours
// (google-gemini/gemini-cli; docs/providers.md keeps the table):
//   - flags: docs/cli/headless.md and packages/cli/src/config/config.ts
//     (-p, -o/--output-format, -m, --approval-mode default|auto_edit|yolo|
//     plan, --skip-trust); yargs prints "Unknown argument", exit 1;
//   - -o json prints one pretty-printed object {session_id, response,
//     stats{models{<model>{api,tokens}},tools,files}}:
//     packages/core/src/output/json-formatter.ts at 04fbf507;
//   - fatal errors in JSON mode: {"error":{type,message,code}} on stderr and
//     process.exit(code), the code being the FatalError's (41 auth, 42 input,
//     52 config, 53 turn limit: packages/core/src/utils/errors.ts at
//     04fbf507) or the API error's HTTP status, whose low byte is the exit
//     status (429 exits 173): packages/cli/src/utils/errors.ts at 00f56800;
//   - an invalid key is the API's 400 API_KEY_INVALID
//     (ai.google.dev/gemini-api/docs/troubleshooting);
//   - a stream still invalid after the retries is reported in the JSON
//     object with exit 0: google-gemini/gemini-cli#26218 (fixes #24290);
//   - a headless run in an untrusted folder fails with
//     FatalUntrustedWorkspaceError, exit 55 (google-gemini/gemini-cli#25814,
//     #25874; docs/cli/trusted-folders.md); --skip-trust or
//     GEMINI_CLI_TRUST_WORKSPACE=true trust it;
//   - the prompt is stdin's text (when stdin is not a terminal, up to
//     8 MiB), a blank line, then -p's: packages/cli/src/gemini.tsx and
//     utils/readStdin.ts at v0.56.0 (b6e23a7d);
//   - @path references are read into the prompt only from the workspace,
//     the working folder and the --include-directories: an absolute path
//     outside it, or a path found nowhere, is skipped with a debug message
//     only (resolveAtCommandPath in packages/core/src/utils/
//     atCommandUtils.ts, resolveFilePaths in packages/cli/src/ui/hooks/
//     atCommandProcessor.ts, v0.56.0); a relative path is tried in each
//     workspace folder in order;
//   - settings from GEMINI_CLI_SYSTEM_SETTINGS_PATH (tools.exclude,
//     model.maxSessionTurns) and policies in ~/.gemini/policies/*.toml:
//     docs/cli/configuration.md, docs/core/policy-engine.md; headless
//     "ask" is deny, so default approval refuses shell and write tools.
var geminiFlags = flagSpec{
	booleans: []string{"-y", "--yolo", "--skip-trust", "-d", "--debug", "-s", "--sandbox", "--screen-reader"},
	valued:   []string{"-p", "--prompt", "-o", "--output-format", "-m", "--model", "--approval-mode", "--include-directories", "-e", "--extensions", "--resume"},
}

func (f *fake) gemini() int {
	p, err := geminiFlags.parse(f.args)
	if err != nil {
		name := strings.TrimLeft(strings.TrimSuffix(strings.TrimPrefix(err.Error(), "unknown option '"), "'"), "-")
		fmt.Fprintf(os.Stderr, "Usage: gemini [options] [command]\n\nUnknown argument: %s\n", name)
		return 1
	}
	promptText := p.value("-p", "--prompt")
	if f.stdin != "" {
		promptText = f.stdin + "\n\n" + promptText
	}
	f.rec.Input = promptText
	g := geminiRun{f: f, format: textutil.FirstNonEmpty(p.value("-o", "--output-format"), "text"), mode: textutil.FirstNonEmpty(p.value("--approval-mode"), "default")}
	if p.has("-y", "--yolo") {
		g.mode = "yolo"
	}
	if !slices.Contains([]string{"default", "auto_edit", "yolo", "plan"}, g.mode) {
		fmt.Fprintf(os.Stderr, "Invalid values:\n  Argument: approval-mode, Given: %q, Choices: \"default\", \"auto_edit\", \"yolo\", \"plan\"\n", g.mode)
		return 1
	}
	if code := g.readSettings(); code != 0 {
		return code
	}
	if !p.has("--skip-trust") && os.Getenv("GEMINI_CLI_TRUST_WORKSPACE") != "true" {
		fmt.Fprintf(os.Stderr, "The current folder %s is not trusted. Trust it with /permissions in an interactive session, or run with --skip-trust.\n", f.rec.Cwd)
		return 55
	}
	if promptText == "" {
		fmt.Fprintln(os.Stderr, "No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.")
		return 42
	}
	model := f.model(textutil.FirstNonEmpty(p.value("-m", "--model"), "gemini-2.5-pro"))
	early, late := f.inv.Fail, ""
	if f.inv.LateFail {
		early, late = "", f.inv.Fail
	}
	if code, failed := g.failure(early); failed {
		return code
	}
	g.atFiles(promptText, append([]string{f.rec.Cwd}, list(p.all("--include-directories"))...))
	f.sleep()
	turns, calls, fails, byName := g.play()
	f.stall()
	if code, failed := g.failure(late); failed {
		return code
	}
	if (g.maxTurns > 0 && turns >= g.maxTurns) || f.inv.Fail == "max_turns" {
		return g.errOut(53, "FatalTurnLimitedError", "Reached max session turns for this session. Increase the number of turns by specifying maxSessionTurns in settings.json.")
	}
	g.answer(model, turns, calls, fails, byName)
	return 0
}

// geminiRun is one run of the fake Gemini CLI.
type geminiRun struct {
	f            *fake
	format, mode string
	excluded     []string
	policies     map[string]string
	maxTurns     int
}

// readSettings reads the system settings file and the policies: the tools
// excluded and the turn limit. A bad settings file is exit 52 (config).
func (g *geminiRun) readSettings() int {
	settings := map[string]any{}
	if path := os.Getenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH"); path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "Error reading system settings %s: %v\n", path, err)
			return 52
		}
		if err := json.Unmarshal(data, &settings); err != nil {
			fmt.Fprintf(os.Stderr, "Error in %s: %v\n", path, err)
			return 52
		}
		g.f.rec.Settings = data
	}
	g.policies = readPolicies()
	g.f.rec.Policies = g.policies
	if tools, ok := settings["tools"].(map[string]any); ok {
		if ex, ok := tools["exclude"].([]any); ok {
			for _, x := range ex {
				g.excluded = append(g.excluded, fmt.Sprint(x))
			}
		}
	}
	if m, ok := settings["model"].(map[string]any); ok {
		if n, ok := m["maxSessionTurns"].(float64); ok {
			g.maxTurns = int(n)
		}
	}
	return 0
}

// errOut ends the run as handleError does in JSON mode
// (packages/cli/src/utils/errors.ts, google-gemini/gemini-cli at
// 00f56800): JsonFormatter.formatError's pretty-printed object
// {"error":{"type","message","code"}} on stderr (console.error), then
// process.exit(code), code being the FatalError's exit code or the API
// error's HTTP status. The exit status keeps the low byte only, so 429
// exits 173 and 400 exits 144. Text mode prints the message alone.
func (g *geminiRun) errOut(code int, typ, msg string) int {
	obj := map[string]any{"error": map[string]any{"type": typ, "message": msg, "code": code}}
	data, _ := json.MarshalIndent(obj, "", "  ")
	if g.format != "json" {
		data = []byte(msg)
	}
	fmt.Fprintln(os.Stderr, string(data))
	return code & 0xff
}

// failure plays fail (the scenario's failure, "" for none) after the auth
// check: failed is true when the run ends here with code.
func (g *geminiRun) failure(fail string) (code int, failed bool) {
	if msg := geminiAuth(); msg != "" {
		return g.errOut(41, "Error", msg), true
	}
	switch fail {
	case "auth":
		return g.errOut(41, "FatalAuthenticationError", "When using Gemini API, you must specify the GEMINI_API_KEY environment variable."), true
	case "rate_limit":
		// The API's 429 body (ai.google.dev/gemini-api/docs/troubleshooting:
		// RESOURCE_EXHAUSTED), carried as the error's code.
		return g.errOut(429, "ApiError", `{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`), true
	case "bad_key":
		// An invalid key is the API's 400 INVALID_ARGUMENT / API_KEY_INVALID.
		return g.errOut(400, "ApiError", `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}`), true
	case "server_error":
		return g.errOut(500, "ApiError", `{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}`), true
	case "network":
		return g.errOut(1, "Error", "fetch failed: getaddrinfo EAI_AGAIN generativelanguage.googleapis.com"), true
	case "invalid_stream", "safety_blocked", "max_tokens":
		// Since google-gemini/gemini-cli#26218 (merged 2026-04-29) a stream
		// that stays invalid after the retries is reported inside the final
		// JSON object, and the CLI still exits 0. The object's error is
		// {type: "INVALID_STREAM", message}, the message chosen by the
		// InvalidStreamError's own type (packages/cli/src/nonInteractiveCli.ts
		// and the messages of packages/core/src/utils/constants.ts, at
		// v0.56.0): an empty answer, or a block for safety, or an answer cut
		// at the token limit (geminiChat.ts: finish reasons SAFETY and
		// MAX_TOKENS with no text).
		msg := map[string]string{
			"invalid_stream": "The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.",
			"safety_blocked": "The model response was blocked due to safety settings.",
			"max_tokens":     "Model response was truncated because it exceeded the token limit. Try using /compress to free up context space.",
		}[fail]
		data, _ := json.MarshalIndent(map[string]any{"session_id": "3c1b6d2e-8f2a-4c55-9b0e-7a1d2e3f4a5b", "response": "",
			"error": map[string]any{"type": "INVALID_STREAM", "message": msg}}, "", "  ")
		fmt.Println(string(data))
		return 0, true
	}
	return 0, false
}

// geminiAuth is the headless auth check's refusal, "" when auth is set up.
// It follows google-gemini/gemini-cli v0.56.0 (b6e23a7d): with no auth type
// in settings, validateNonInteractiveAuth
// (packages/cli/src/validateNonInterActiveAuth.ts) takes getAuthTypeFromEnv
// (packages/core/src/core/contentGenerator.ts): GOOGLE_GENAI_USE_GCA=true
// is Google login, GOOGLE_GENAI_USE_VERTEXAI=true Vertex AI,
// GOOGLE_GEMINI_BASE_URL a gateway, GEMINI_API_KEY the Gemini API; nothing
// else, so GOOGLE_API_KEY alone is no auth at all. No auth type throws a
// plain Error ("Please set an Auth method..."), Vertex AI without
// GOOGLE_API_KEY or project and location fails validateAuthMethod
// (packages/cli/src/config/auth.ts); handleError then exits 41
// (FATAL_AUTHENTICATION_ERROR) with the error's type, "Error"
// (getErrorType, packages/core/src/utils/errors.ts). Google login needs
// cached credentials the fake never has, so it is refused here too.
func geminiAuth() string {
	home, _ := os.UserHomeDir()
	switch {
	case os.Getenv("GOOGLE_GENAI_USE_GCA") == "true":
		return "Login with Google needs cached credentials; none in " + filepath.Join(home, ".gemini")
	case os.Getenv("GOOGLE_GENAI_USE_VERTEXAI") == "true":
		if os.Getenv("GOOGLE_API_KEY") == "" && (os.Getenv("GOOGLE_CLOUD_PROJECT") == "" || os.Getenv("GOOGLE_CLOUD_LOCATION") == "") {
			return "When using Vertex AI, you must specify either:\n• GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION environment variables.\n• GOOGLE_API_KEY environment variable (if using express mode).\nUpdate your environment and try again (no reload needed if using .env)!"
		}
		return ""
	case os.Getenv("GOOGLE_GEMINI_BASE_URL") != "", os.Getenv("GEMINI_API_KEY") != "":
		return ""
	}
	return "Please set an Auth method in your " + filepath.Join(home, ".gemini", "settings.json") + " or specify one of the following environment variables before running: GEMINI_API_KEY, GOOGLE_GENAI_USE_VERTEXAI, GOOGLE_GENAI_USE_GCA"
}

// play runs the scenario's tool calls within the approval mode, the
// excluded tools and the policies.
func (g *geminiRun) play() (turns, calls, fails int, byName map[string]int) {
	f := g.f
	byName = map[string]int{}
	allowed := func(tool string) bool {
		if slices.Contains(g.excluded, tool) || strings.Contains(g.policies["deny"], "|"+tool+"|") {
			return false
		}
		if tool == "run_shell_command" || tool == "write_file" {
			// Headless "ask" means deny: only yolo (and auto_edit for
			// writes) runs them.
			return g.mode == "yolo" || g.mode == "auto_edit" && tool == "write_file"
		}
		return true
	}
	use := func(tool string) bool {
		turns++
		calls++
		byName[tool]++
		if !allowed(tool) {
			fails++
			f.rec.Denied = append(f.rec.Denied, tool)
			return false
		}
		return true
	}
	for _, c := range f.inv.Run {
		if use("run_shell_command") {
			f.rec.Ran = append(f.rec.Ran, c)
			if _, code := shell(c, f.rec.Cwd, 5*time.Minute); code != 0 {
				fails++
			}
		}
	}
	for _, w := range f.inv.Write {
		if use("write_file") {
			_ = writeFile(f.rec.Cwd, w.Path, w.Content)
		}
	}
	if f.inv.Web != "" {
		use("google_web_search")
	}
	return turns, calls, fails, byName
}

// answer prints the final object (-o json) or the answer alone.
func (g *geminiRun) answer(model string, turns, calls, fails int, byName map[string]int) {
	f := g.f
	out := map[string]any{
		"session_id": "3c1b6d2e-8f2a-4c55-9b0e-7a1d2e3f4a5b",
		"response":   f.answer(),
		"stats": map[string]any{
			"models": map[string]any{model: map[string]any{
				"api":    map[string]any{"totalRequests": turns + 1, "totalErrors": 0, "totalLatencyMs": 1200},
				"tokens": map[string]any{"input": f.inv.InputTokens, "prompt": f.inv.InputTokens, "candidates": f.inv.OutputTokens, "total": f.inv.InputTokens + f.inv.OutputTokens, "cached": 0, "thoughts": 0, "tool": 0},
			}},
			"tools": map[string]any{"totalCalls": calls, "totalSuccess": calls - fails, "totalFail": fails, "byName": byName},
			"files": map[string]any{"totalLinesAdded": 0, "totalLinesRemoved": 0},
		},
	}
	if g.format == "json" {
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Println(string(data))
		return
	}
	fmt.Println(f.answer())
}

// readPolicies reads ~/.gemini/policies/*.toml: the deny rules as
// "|tool|tool|" under "deny", and each file's text by name.
func readPolicies() map[string]string {
	home, _ := os.UserHomeDir()
	if h := os.Getenv("HOME"); h != "" {
		home = h
	}
	files, _ := filepath.Glob(filepath.Join(home, ".gemini", "policies", "*.toml"))
	out := map[string]string{}
	deny := "|"
	rule := regexp.MustCompile(`(?s)\[\[rule\]\](.*?)(?:\n\s*\n|$)`)
	for _, path := range files {
		data, _ := os.ReadFile(path)
		out[filepath.Base(path)] = string(data)
		for _, m := range rule.FindAllStringSubmatch(string(data)+"\n\n", -1) {
			tool := regexp.MustCompile(`toolName\s*=\s*"([^"]+)"`).FindStringSubmatch(m[1])
			dec := regexp.MustCompile(`decision\s*=\s*"([^"]+)"`).FindStringSubmatch(m[1])
			if tool != nil && dec != nil && dec[1] == "deny" {
				deny += tool[1] + "|"
			}
		}
	}
	if deny != "|" {
		out["deny"] = deny
	}
	return out
}

// atRef is an @ reference: up to white space or ,;!?()[]{}, a backslash
// escaping the next character, not ending with a period
// (AT_COMMAND_PATH_REGEX_SOURCE, v0.56.0).
var atRef = regexp.MustCompile(`(^|[^\\])@((?:\\.|[^\s,;!?()\[\]{}\\])+)`)

// atFiles reads the prompt's @ references as the CLI does: from the
// workspace only, skipping the others without an error.
func (g *geminiRun) atFiles(prompt string, workspace []string) {
	inside := func(path string) bool {
		for _, dir := range workspace {
			if rel, err := filepath.Rel(dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				return true
			}
		}
		return false
	}
	for _, m := range atRef.FindAllStringSubmatch(prompt, -1) {
		ref := strings.TrimRight(m[2], ".")
		path := regexp.MustCompile(`\\(.)`).ReplaceAllString(ref, "$1")
		found := ""
		if filepath.IsAbs(path) {
			if _, err := os.Stat(path); err == nil && inside(path) {
				found = path
			}
		} else {
			for _, dir := range workspace {
				if _, err := os.Stat(filepath.Join(dir, path)); err == nil {
					found = filepath.Join(dir, path)
					break
				}
			}
		}
		if found == "" {
			g.f.rec.Skipped = append(g.f.rec.Skipped, path)
			continue
		}
		g.f.rec.Attached = append(g.f.rec.Attached, found)
	}
}
