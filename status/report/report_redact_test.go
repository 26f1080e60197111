package report

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

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
		if !strings.Contains(string(out), status.Redacted) {
			t.Errorf("%s shows no %s mark", name, status.Redacted)
		}
	}

	// A report built elsewhere is redacted when rendered too.
	hand := &Report{
		Gaps:       []status.Gap{{Problem: "OPENAI_API_KEY=" + secrets[0]}},
		AuditTrail: status.Audit{Commands: []status.AuditCommand{{Command: "env", Output: "OPENAI_API_KEY=" + secrets[0]}}},
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
