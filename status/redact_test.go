package status

import (
	"testing"
)

func TestRedact(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		secrets  []string
	}{
		{in: "OPENAI_API_KEY=sk-proj-abc123def456ghi789jkl", want: "OPENAI_API_KEY=[REDACTED]"},
		{in: "export ANTHROPIC_API_KEY='sk-ant-api03-AbCdEfGhIjKlMnOpQrSt' && claude", want: "export ANTHROPIC_API_KEY=[REDACTED] && claude"},
		{in: `GEMINI_API_KEY: "AIzaSyA1234567890abcdefghijklmnopqrstuv"`, want: `GEMINI_API_KEY: [REDACTED]`},
		{in: `{"CODEX_API_KEY": "c0dex-secret", "model": "gpt-5"}`, want: `{"CODEX_API_KEY": [REDACTED], "model": "gpt-5"}`},
		{in: "SMILE_TOKEN=f00dfeed", want: "SMILE_TOKEN=[REDACTED]"},
		{in: "db_password=hunter2 ok", want: "db_password=[REDACTED] ok"},
		{in: "curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.abc' https://api", want: "curl -H 'Authorization: Bearer [REDACTED]' https://api"},
		{in: "authorization: basic dXNlcjpwYXNz", want: "authorization: basic [REDACTED]"},
		{in: `-H "x-api-key: sk-ant-api03-AbCdEfGhIjKlMnOpQrSt"`, want: `-H "x-api-key: [REDACTED]"`},
		{in: "the key sk-ant-api03-AbCdEfGhIjKlMnOpQrSt leaked", want: "the key [REDACTED] leaked"},
		{in: "use AIzaSyA1234567890abcdefghijklmnopqrstuv here", want: "use [REDACTED] here"},
		{in: "token ghp_abcdefghijklmnopqrstuvwxyz0123 ok", want: "token [REDACTED] ok"},
		{in: "callback tok-9f8e7d here", secrets: []string{"tok-9f8e7d"}, want: "callback [REDACTED] here"},
		// A CI checkout's credentials: actions/checkout's http.extraheader,
		// a GitLab job's remote, other services' tokens.
		{in: "\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hzXzEyMzQ=", want: "\textraheader = AUTHORIZATION: basic [REDACTED]"},
		{in: "url = https://gitlab-ci-token:glcbt-64_AbCdEfGhIjKlMnOpQrStU@gitlab.com/g/p.git", want: "url = https://gitlab-ci-token:[REDACTED]"}, // NAME ending in token: the value goes whole
		{in: "origin https://oauth2:a1b2c3d4e5f6g7h8i9j0@git.example.org/x.git (fetch)", want: "origin https://oauth2:[REDACTED]@git.example.org/x.git (fetch)"},
		{in: "glpat-AbCdEfGhIjKlMnOpQrStUv", want: "[REDACTED]"},
		{in: "//registry.npmjs.org/:_authToken npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", want: "//registry.npmjs.org/:_authToken [REDACTED]"},
		{in: "xoxb-1234567890-abcdefghij", want: "[REDACTED]"},
		{in: "aws_access_key_id AKIAIOSFODNN7EXAMPLE", want: "aws_access_key_id [REDACTED]"},
		// Not secrets.
		{in: "psql postgres://app:secret@localhost:5432/app", want: "psql postgres://app:secret@localhost:5432/app"},
		{in: "git clone https://github.com/org/repo.git", want: "git clone https://github.com/org/repo.git"},
		{in: "export OPENAI_API_KEY=$OPENAI_API_KEY", want: "export OPENAI_API_KEY=$OPENAI_API_KEY"},
		{in: `OPENAI_API_KEY="${OPENAI_API_KEY}"`, want: `OPENAI_API_KEY="${OPENAI_API_KEY}"`},
		{in: "max_tokens: 1000, inputTokens=12", want: "max_tokens: 1000, inputTokens=12"},
		{in: "pip install scikit-learn; ./task-runner-abcdefghijklmnopq", want: "pip install scikit-learn; ./task-runner-abcdefghijklmnopq"},
		{in: "a short sk-abc", want: "a short sk-abc"},
		{in: "nothing here", secrets: []string{""}, want: "nothing here"},
		// Examples in suggestions stay whole: they hold no secret.
		{in: "export TOKEN=...", want: "export TOKEN=..."},
		{in: "export API_TOKEN=<your token> && ./deploy.sh", want: "export API_TOKEN=<your token> && ./deploy.sh"},
		{in: `export GITHUB_TOKEN="your-github-token"`, want: `export GITHUB_TOKEN="your-github-token"`},
		{in: "OPENAI_API_KEY=your_api_key_here", want: "OPENAI_API_KEY=your_api_key_here"},
		{in: "password: changeme", want: "password: changeme"},
		{in: "SECRET={{ secret }}", want: "SECRET={{ secret }}"},
		{in: "API_KEY=xxxxxxxx", want: "API_KEY=xxxxxxxx"},
		// A real value in angle brackets is still one value, redacted whole.
		{in: "TOKEN=<f00dfeed1234> done", want: "TOKEN=[REDACTED] done"},
	} {
		got := Redact(tc.in, tc.secrets...)
		if got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if again := Redact(got, tc.secrets...); again != got {
			t.Errorf("Redact is not idempotent on %q: %q", got, again)
		}
	}
}
