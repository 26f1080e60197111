// Package gemini is the gemini provider: the Gemini CLI run headless
// (`gemini -p PROMPT -o json`) inside the container. The folder is trusted
// with --skip-trust; the Student runs in yolo approval mode with the web
// tools excluded (a system settings file, which wins over any other) and
// denied (a policy file); the Mentor runs in default approval mode, where a
// headless run refuses shell and write tools, and keeps web search.
package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// New returns the gemini provider.
func New() provider.Provider { return agent.Runner{Backend: Backend{}} }

// Backend runs the Gemini CLI.
type Backend struct {
	// Path is the program ("" means gemini on PATH).
	Path string
}

// Name is part of the agent.Backend interface.
func (Backend) Name() spec.Provider { return spec.ProviderGemini }

// CLI is part of the agent.Backend interface.
func (Backend) CLI() string { return "gemini" }

// ImageMode is part of the agent.Backend interface: the prompt includes
// each image with @path.
func (Backend) ImageMode() prompt.ImageMode { return prompt.ImagesAt }

// Tools is part of the agent.Backend interface.
func (Backend) Tools(status.Role) string { return "" }

// Web is part of the agent.Backend interface.
func (Backend) Web() bool { return true }

// WebTools are the tools the Student must not have.
var WebTools = []string{"google_web_search", "web_fetch"}

// The exit codes the Gemini CLI documents.
const (
	ExitAuth       = 41
	ExitInput      = 42
	ExitSandbox    = 44
	ExitConfig     = 52
	ExitTurnLimit  = 53
	ExitTool       = 54
	ExitUntrusted  = 55
	ExitCancelled  = 130
	settingsEnv    = "GEMINI_CLI_SYSTEM_SETTINGS_PATH"
	policyFileName = "smile-student.toml"
)

// Args are the flags of one invocation. The tutorial's folder joins the
// CLI's workspace (--include-directories): the CLI reads only files in its
// workspace, the working folder and the folders included, both for an
// @path in the prompt (an absolute path outside it is "unauthorized" and
// skipped without an error: resolveAtCommandPath in
// packages/core/src/utils/atCommandUtils.ts, google-gemini/gemini-cli
// v0.56.0) and for its read_file tool (Config.validatePathAccess in
// packages/core/src/config/config.ts).
func Args(call agent.Call, promptArg string) []string {
	mode := "yolo"
	if call.Role == status.RoleMentor || call.Repair {
		mode = "default" // headless "ask" is "deny": no shell, no writes
	}
	args := []string{"-p", promptArg, "-o", "json", "--skip-trust", "--approval-mode", mode}
	if call.TutorialDir != "" {
		args = append(args, "--include-directories", call.TutorialDir)
	}
	if call.Model != "" {
		args = append(args, "-m", call.Model)
	}
	return args
}

// StdinPrompt is -p's text when the prompt goes on stdin.
const StdinPrompt = "Follow the instructions above, to their end."

// Prompt is what the CLI is given: -p's argument, and the text for its
// stdin ("" for none). Each image is an @path line, which the CLI reads
// into the prompt, the path being in the tutorial's folder, which Args
// adds to the workspace. A prompt too long for one argument (agent.MaxArg)
// goes on stdin, which the CLI reads when it is not a terminal and puts
// before -p's text (stdin, a blank line, -p: packages/cli/src/gemini.tsx
// and utils/readStdin.ts, up to 8 MiB, v0.56.0), rather than into a file
// that the model would have to read: the Mentor may not run commands, and
// the CLI's read_file refuses a file outside the workspace.
func Prompt(call agent.Call) (arg, stdin string) {
	refs := ""
	if !call.Repair {
		for _, img := range call.Images {
			refs += "\n@" + AtPath(img.Path)
		}
	}
	if len(call.Prompt)+len(refs) <= agent.MaxArg {
		return call.Prompt + refs, ""
	}
	return StdinPrompt + refs, call.Prompt
}

// AtPath escapes path for an @ reference: the CLI ends the path at white
// space and at ,;!?()[]{} and takes a backslash as escaping the next
// character (AT_COMMAND_PATH_REGEX_SOURCE in
// packages/cli/src/ui/hooks/atCommandProcessor.ts, unescapePath in
// packages/core/src/utils/paths.ts, v0.56.0).
func AtPath(path string) string {
	var b strings.Builder
	for _, r := range path {
		if strings.ContainsRune(" \t\n\r,;!?()[]{}\"\\", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Settings is the system settings file of one invocation: the turn limit,
// and for the Student no web tools.
func Settings(call agent.Call) []byte {
	s := map[string]any{"model": map[string]any{"maxSessionTurns": max(call.MaxTurns, 1)}}
	if call.Role == status.RoleStudent || call.Repair {
		s["tools"] = map[string]any{"exclude": WebTools}
	}
	data, _ := json.MarshalIndent(s, "", "  ")
	return data
}

// Policy denies the web tools (the Student's policy file).
func Policy() string {
	var b strings.Builder
	b.WriteString("# Written by SMILE: the Student follows the tutorial without the web.\n")
	for _, t := range WebTools {
		fmt.Fprintf(&b, "[[rule]]\ntoolName = %q\ndecision = \"deny\"\npriority = 900\n\n", t)
	}
	return b.String()
}

// Invoke is part of the agent.Backend interface.
func (b Backend) Invoke(ctx context.Context, call agent.Call) (agent.Reply, error) {
	call = call.WithDefaults()
	path := b.Path
	if path == "" {
		path = "gemini"
	}
	dir, err := os.MkdirTemp("", "smile-gemini-")
	if err != nil {
		return agent.Reply{}, err
	}
	defer os.RemoveAll(dir)
	settings := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(settings, Settings(call), 0o644); err != nil {
		return agent.Reply{}, err
	}
	if call.Role == status.RoleStudent {
		if err := writePolicy(call.Env); err != nil {
			return agent.Reply{}, fmt.Errorf("write the gemini policy: %w", err)
		}
	}
	promptArg, stdin := Prompt(call)
	env := agent.CLIEnv(call.Env, settingsEnv+"="+settings, "GEMINI_CLI_TRUST_WORKSPACE=true")
	call.Progress(fmt.Sprintf("%s: waiting for gemini", call.Role), 0)
	res, err := agent.RunCLI(ctx, agent.Exec{Path: path, Args: Args(call, promptArg), Dir: call.WorkDir, Env: env, Stdin: stdin})
	if err != nil {
		return agent.Reply{}, fmt.Errorf("run gemini: %w", err)
	}
	return finish(call, res)
}

// writePolicy puts the Student's policy in ~/.gemini/policies, HOME being
// the CLI's.
func writePolicy(env []string) error {
	home := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	if home == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return err
		}
		home = h
	}
	dir := filepath.Join(home, ".gemini", "policies")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, policyFileName), []byte(Policy()), 0o644)
}

// output is what `gemini -o json` prints (one pretty-printed object).
type output struct {
	SessionID string   `json:"session_id"`
	Response  string   `json:"response"`
	Warnings  []string `json:"warnings"`
	Error     *struct {
		Type    string          `json:"type"`
		Message string          `json:"message"`
		Code    json.RawMessage `json:"code"`
	} `json:"error"`
	Stats struct {
		Models map[string]struct {
			Tokens struct {
				Input      int64 `json:"input"`
				Prompt     int64 `json:"prompt"`
				Candidates int64 `json:"candidates"`
				Total      int64 `json:"total"`
				Cached     int64 `json:"cached"`
				Thoughts   int64 `json:"thoughts"`
				Tool       int64 `json:"tool"`
			} `json:"tokens"`
		} `json:"models"`
	} `json:"stats"`
}

// decode reads the JSON object in text (after any line of noise).
func decode(text string) (*output, bool) {
	i := strings.Index(text, "{")
	for i >= 0 {
		var o output
		if err := json.NewDecoder(strings.NewReader(text[i:])).Decode(&o); err == nil {
			return &o, true
		}
		next := strings.Index(text[i+1:], "\n{")
		if next < 0 {
			return nil, false
		}
		i += next + 2
	}
	return nil, false
}

func finish(call agent.Call, res agent.ExecResult) (agent.Reply, error) {
	reply := agent.Reply{Stdout: res.Stdout, Stderr: res.Stderr}
	out, ok := decode(res.Stdout)
	if !ok {
		// Auth failures (exit 41) print their JSON on stderr.
		out, ok = decode(res.Stderr)
	}
	if ok {
		names := make([]string, 0, len(out.Stats.Models))
		for name := range out.Stats.Models {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			t := out.Stats.Models[name].Tokens
			in := t.Prompt
			if in == 0 {
				in = t.Input
			}
			reply.Calls = append(reply.Calls, status.LLMCall{Model: name, InputTokens: in, OutputTokens: t.Candidates + t.Thoughts,
				StartedAt: res.StartedAt, DurationMs: res.Duration.Milliseconds()})
		}
	}
	if len(reply.Calls) == 0 {
		reply.Calls = []status.LLMCall{{Model: call.Model, StartedAt: res.StartedAt, DurationMs: res.Duration.Milliseconds()}}
	}
	if res.TimedOut {
		return reply, &agent.APIError{Kind: agent.ErrTimeout, Message: fmt.Sprintf("gemini was killed after %s", res.Duration.Round(time.Second)), Partial: reply}
	}
	msg := ""
	if ok && out.Error != nil {
		msg = strings.TrimSpace(out.Error.Type + ": " + out.Error.Message)
	}
	switch res.ExitCode {
	case 0:
		if !ok {
			return reply, &agent.APIError{Kind: agent.ErrFailed, Message: "gemini printed no JSON: " + agent.Tail(res.Stdout, 3), Partial: reply}
		}
		if out.Error != nil {
			// A stream that broke off (INVALID_STREAM) still exits 0 with
			// its error in the object: the answer is missing, ask again,
			// unless asking again gives the same (invalidStreamKind).
			return reply, &agent.APIError{Kind: invalidStreamKind(out.Error.Message), Message: "gemini answered with an error: " + msg, Partial: reply}
		}
		reply.Text = out.Response
		return reply, nil
	case ExitAuth:
		return reply, &agent.APIError{Kind: agent.ErrAuth, Message: firstOf(msg, agent.Tail(res.Stderr, 3)), Partial: reply}
	case ExitTurnLimit:
		reply.TurnLimit = true
		if ok {
			reply.Text = out.Response
		}
		return reply, nil
	case ExitUntrusted:
		return reply, &agent.APIError{Kind: agent.ErrFailed, Message: "gemini refused the folder as untrusted (exit 55): " + firstOf(msg, agent.Tail(res.Stderr, 3)), Partial: reply}
	}
	text := firstOf(msg, agent.Tail(res.Stderr, 5), fmt.Sprintf("gemini exited with code %d", res.ExitCode))
	httpStatus := apiStatus(res.ExitCode, out)
	kind := agent.ErrFailed
	if res.ExitCode == 1 || httpStatus != 0 {
		// General and API errors: rate limits and the network are retried,
		// a refused key is an auth failure.
		kind = agent.Classify(httpStatus, text)
	}
	return reply, &agent.APIError{Kind: kind, HTTPStatus: httpStatus, Message: fmt.Sprintf("exit %d: %s", res.ExitCode, text), Partial: reply}
}

// apiStatus is the HTTP status behind an exit code, 0 when there is none.
// In JSON mode the CLI exits with the API error's HTTP status
// (packages/cli/src/utils/errors.ts, handleError: process.exit(code)), and
// the kernel keeps its low byte: 429 exits 173, 400 exits 144, 500 exits
// 244. The error object's own code, when numeric, says it exactly.
func apiStatus(exit int, out *output) int {
	if out != nil && out.Error != nil {
		var code int
		if json.Unmarshal(out.Error.Code, &code) == nil && code >= 400 && code < 600 {
			return code
		}
	}
	if documentedExit(exit) || exit < 144 || exit > 255 {
		return 0
	}
	return exit + 256 // 144..255 are 400..511 with the high byte lost
}

// documentedExit says whether code is one of the CLI's own exit codes.
func documentedExit(code int) bool {
	switch code {
	case 0, 1, ExitAuth, ExitInput, ExitSandbox, ExitConfig, ExitTurnLimit, ExitTool, ExitUntrusted, ExitCancelled:
		return true
	}
	return false
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// invalidStreamKind classifies an INVALID_STREAM error by its message, the
// CLI's words for the stream's own type (packages/cli/src/nonInteractiveCli.ts
// and packages/core/src/utils/constants.ts, google-gemini/gemini-cli
// v0.56.0): an answer blocked by the safety, recitation or other policy
// filters, or cut at the token limit, comes back the same when asked again
// (ErrFailed, with the CLI's words); an empty or malformed answer may not
// (ErrTransient).
func invalidStreamKind(message string) error {
	for _, final := range []string{"blocked due to safety settings", "blocked due to recitation", "blocked due to other policy settings", "exceeded the token limit"} {
		if strings.Contains(message, final) {
			return agent.ErrFailed
		}
	}
	return agent.ErrTransient
}
