package status

import (
	"strings"
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
		// Not secrets.
		{in: "export OPENAI_API_KEY=$OPENAI_API_KEY", want: "export OPENAI_API_KEY=$OPENAI_API_KEY"},
		{in: `OPENAI_API_KEY="${OPENAI_API_KEY}"`, want: `OPENAI_API_KEY="${OPENAI_API_KEY}"`},
		{in: "max_tokens: 1000, inputTokens=12", want: "max_tokens: 1000, inputTokens=12"},
		{in: "pip install scikit-learn; ./task-runner-abcdefghijklmnopq", want: "pip install scikit-learn; ./task-runner-abcdefghijklmnopq"},
		{in: "a short sk-abc", want: "a short sk-abc"},
		{in: "nothing here", secrets: []string{""}, want: "nothing here"},
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

func TestReportsRedactSecrets(t *testing.T) {
	secrets := []string{
		"sk-proj-abc123def456ghi789jkl",
		"sk-ant-api03-AbCdEfGhIjKlMnOpQrSt",
		"AIzaSyA1234567890abcdefghijklmnopqrstuv",
		"c0dex-secret-value",
		"eyJhbGciOiJIUzI1NiJ9.e30.abc",
		sampleToken,
	}
	run := sampleRun()
	st := &run.Status
	st.Message = "provider failed with ANTHROPIC_API_KEY=" + secrets[1]
	st.Gaps[0].Location.Quote = "export OPENAI_API_KEY=" + secrets[0]
	st.Gaps[0].Problem = "the key " + secrets[0] + " was rejected"
	st.Gaps[1].SuggestedFix = "```sh\nexport GEMINI_API_KEY=" + secrets[2] + "\n```"
	st.Gaps[2].Command = "CODEX_API_KEY=" + secrets[3] + " codex exec"
	st.Timeline[2].Details = "curl -H 'Authorization: Bearer " + secrets[4] + "'"
	st.MentorNotes[0].Answer = "Set ANTHROPIC_API_KEY=" + secrets[1]
	st.MentorNotes[0].Workaround = "export OPENAI_API_KEY=" + secrets[0]
	in := sampleInput()
	in.TutorialTitle = "Using " + secrets[2]
	in.Audits[0].Commands[0].Command = "env | grep KEY"
	in.Audits[0].Commands[0].Output = "OPENAI_API_KEY=" + secrets[0] + "\nSMILE_TOKEN=" + sampleToken + "\n" + sampleToken
	in.Audits[1].LLMCalls[0].Error = "401: invalid x-api-key " + secrets[1]

	r := BuildReport(run, in)
	js, err := RenderJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string][]byte{"markdown": RenderMarkdown(r), "json": js, "audit log": RenderAuditLog(r)} {
		for _, s := range secrets {
			if strings.Contains(string(out), s) {
				t.Errorf("%s holds secret %q", name, s)
			}
		}
		if !strings.Contains(string(out), Redacted) {
			t.Errorf("%s shows no %s mark", name, Redacted)
		}
	}

	// A report built elsewhere is redacted when rendered too.
	hand := &Report{
		Gaps:       []Gap{{Problem: "OPENAI_API_KEY=" + secrets[0]}},
		AuditTrail: Audit{Commands: []AuditCommand{{Command: "env", Output: "OPENAI_API_KEY=" + secrets[0]}}},
	}
	js, _ = RenderJSON(hand)
	for name, out := range map[string][]byte{"markdown": RenderMarkdown(hand), "json": js, "audit log": RenderAuditLog(hand)} {
		if strings.Contains(string(out), secrets[0]) {
			t.Errorf("%s of a hand-built report holds a key", name)
		}
	}
	if hand.Gaps[0].Problem != "OPENAI_API_KEY="+secrets[0] {
		t.Errorf("rendering changed the report it was given")
	}
}
