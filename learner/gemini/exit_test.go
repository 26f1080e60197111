package gemini

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/learner/agent"
)

// The error shapes below are the Gemini CLI's own: in JSON output mode
// handleError (packages/cli/src/utils/errors.ts, google-gemini/gemini-cli at
// 00f56800) prints JsonFormatter.formatError's object on stderr
// ({"error":{"type":<class>,"message":...,"code":<code>}}, pretty-printed,
// packages/core/src/output/json-formatter.ts at 04fbf507) and exits with the
// error's code or HTTP status; a process exit status is one byte, so 429
// arrives as 173.
func TestFinishClassifiesTheCLIsExits(t *testing.T) {
	apiErr := func(code int, msg string) string {
		return "{\n  \"error\": {\n    \"type\": \"ApiError\",\n    \"message\": " + quote(msg) + ",\n    \"code\": " + strconv.Itoa(code) + "\n  }\n}\n"
	}
	cases := []struct {
		name       string
		exit       int
		stdout     string
		stderr     string
		want       error
		wantStatus int
	}{
		{name: "429 masked to 173, JSON on stderr", exit: 173,
			stderr: apiErr(429, `{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}`),
			want:   agent.ErrTransient, wantStatus: 429},
		{name: "500 masked to 244", exit: 244, stderr: apiErr(500, "Internal error encountered."), want: agent.ErrTransient, wantStatus: 500},
		{name: "503 masked to 247 without a code field", exit: 247, stderr: "{\n  \"error\": {\n    \"type\": \"ApiError\",\n    \"message\": \"The model is overloaded.\"\n  }\n}\n",
			want: agent.ErrTransient, wantStatus: 503},
		{name: "invalid key: 400 masked to 144", exit: 144,
			stderr: apiErr(400, `{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"reason":"API_KEY_INVALID"}]}}`),
			want:   agent.ErrAuth, wantStatus: 400},
		{name: "other 400 is a plain failure", exit: 144, stderr: apiErr(400, "Request contains an invalid argument."), want: agent.ErrFailed, wantStatus: 400},
		{name: "exit 41 auth", exit: 41, stderr: "{\n  \"error\": {\n    \"type\": \"FatalAuthenticationError\",\n    \"message\": \"no key\",\n    \"code\": 41\n  }\n}\n", want: agent.ErrAuth},
		{name: "exit 0 with INVALID_STREAM is retried", exit: 0,
			stdout: "{\n  \"session_id\": \"s\",\n  \"response\": \"\",\n  \"error\": {\n    \"type\": \"INVALID_STREAM\",\n    \"message\": \"Model stream ended with an invalid chunk or missing finish reason.\"\n  }\n}\n",
			want:   agent.ErrTransient},
		{name: "exit 0 with an answer", exit: 0, stdout: "{\n  \"session_id\": \"s\",\n  \"response\": \"{}\"\n}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := finish(agent.Call{}.WithDefaults(), agent.ExecResult{ExitCode: c.exit, Stdout: c.stdout, Stderr: c.stderr, StartedAt: time.Now()})
			if c.want == nil {
				if err != nil {
					t.Fatalf("error = %v", err)
				}
				return
			}
			var ae *agent.APIError
			if !errors.Is(err, c.want) || !errors.As(err, &ae) || ae.HTTPStatus != c.wantStatus {
				t.Fatalf("error = %v, want %v with HTTP %d", err, c.want, c.wantStatus)
			}
		})
	}
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
