package claude

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/status"
)

// Bash tool results as Claude Code prints them in stream-json. A command
// that reaches its timeout is moved to the background and reported as a
// plain (non-error) result, the command still running: anthropics/claude-code
// issue #87439 (2.1.233, "Command did not complete within its 3s timeout and
// was moved to the background"), #79879 (2.1.257: the same text; commands
// that may not be backgrounded are killed, exit 143).
func TestBashResultsAreRecordedAsTheyEnded(t *testing.T) {
	cases := []struct {
		name     string
		content  string
		isError  bool
		wantCode int
		wantTime bool
	}{
		{name: "success", content: "hello", wantCode: 0},
		{name: "failure with its exit code", content: "cat: config.yaml: No such file or directory\nExit code 1", isError: true, wantCode: 1},
		{name: "moved to the background at the timeout", content: "Downloading...\nCommand did not complete within its 60s timeout and was moved to the background with ID: b7f3a1. Use TaskOutput to read its output.",
			wantCode: ExitBackgrounded, wantTime: true},
		{name: "killed at the timeout", content: "Command timed out after 1m 0s\nExit code 143", isError: true, wantCode: 143, wantTime: true},
		{name: "a command that prints the words itself", content: "curl: Command timed out\nExit code 28", isError: true, wantCode: 28},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStream(agent.Call{}.WithDefaults())
			s.toolUse(block{Type: "tool_use", ID: "toolu_1", Name: "Bash", Input: []byte(`{"command":"pip install weather-cli"}`)})
			s.toolResult(block{Type: "tool_result", ToolUseID: "toolu_1", Content: []byte(`"` + strings.ReplaceAll(c.content, "\n", `\n`) + `"`), IsError: c.isError})
			if len(s.commands) != 1 {
				t.Fatalf("commands = %+v", s.commands)
			}
			if got := s.commands[0]; got.ExitCode != c.wantCode || got.TimedOut != c.wantTime {
				t.Errorf("command = exit %d timedOut %v, want exit %d timedOut %v", got.ExitCode, got.TimedOut, c.wantCode, c.wantTime)
			}
		})
	}
}

// Result events of failed API calls, by the text Claude Code has printed
// over its versions: the older `API Error: 429 {json}` with
// api_error_status, and the newer "Request rejected (429)" and "Rate limit
// reached" lines (anthropics/claude-code issues #69023, #48191, #34413 at
// 2.1.76, #30723 at 2.1.68), which may come without api_error_status.
func TestAPIErrorResults(t *testing.T) {
	cases := []struct {
		name       string
		result     string
		apiStatus  string
		want       error
		wantStatus int
	}{
		{name: "old 429 with its status", result: `API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"This request would exceed the rate limit for your organization."}}`, apiStatus: "429", want: agent.ErrTransient, wantStatus: 429},
		{name: "request rejected (429)", result: "API Error: Request rejected (429) · Rate limited. Please try again later.", want: agent.ErrTransient, wantStatus: 429},
		{name: "rate limit reached", result: "API Error: Rate limit reached", want: agent.ErrTransient},
		{name: "overloaded 529", result: `API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`, want: agent.ErrTransient, wantStatus: 529},
		{name: "invalid key", result: "Invalid API key · Fix external API key", want: agent.ErrAuth},
		{name: "not logged in", result: "Not logged in · Please run /login", want: agent.ErrAuth},
		{name: "bad request", result: `API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 210000 tokens > 200000 maximum"}}`, want: agent.ErrFailed, wantStatus: 400},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStream(agent.Call{Role: status.RoleStudent}.WithDefaults())
			line := `{"type":"result","subtype":"success","is_error":true,"result":` + jsonString(c.result)
			if c.apiStatus != "" {
				line += `,"api_error_status":` + c.apiStatus
			}
			s.line(line + "}")
			_, err := s.finish(agent.ExecResult{ExitCode: 1, StartedAt: time.Now()})
			var ae *agent.APIError
			if !errors.Is(err, c.want) || !errors.As(err, &ae) || ae.HTTPStatus != c.wantStatus {
				t.Fatalf("error = %v, want %v with HTTP %d", err, c.want, c.wantStatus)
			}
		})
	}
}

func jsonString(s string) string {
	return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
}
