package report

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

func TestAuditLogRecords(t *testing.T) {
	log := string(RenderAuditLog(BuildReport(sampleRun(), sampleInput())))

	for _, want := range [][]string{
		{"SMILE audit log", "run: quickstart", `tutorial: tutorial.md ("Quickstart: Hello SMILE")`,
			"status: blocker (StudentBlocked: the Student cannot run ./run.sh)", "iterations: 2", "generatedAt: 2026-11-22T10:01:15Z"},
		// Every command, with its exit code and duration, then its output.
		{"2026-11-22T10:00:02Z iter=1 role=student line=8 exit=0 duration=4ms $ cat > data.json <<'EOF'", `  > {"name": "smile"}`, "  > EOF"},
		{"2026-11-22T10:00:03Z iter=1 role=student line=12 exit=127 duration=35ms $ jq .name data.json", "    bash: jq: command not found"},
		{"2026-11-22T10:00:26Z iter=2 role=student line=12 exit=0 duration=5.3s workaround $ apt-get install -y jq", "    Setting up jq (1.7.1-3) ..."},
		{"2026-11-22T10:00:32Z iter=2 role=student line=12 exit=0 duration=12ms $ jq .name data.json", `    "smile"`},
		{"2026-11-22T10:00:33Z iter=2 role=student line=20 exit=127 duration=3ms $ python3 app.py", "    bash: python3: command not found"},
		{"2026-11-22T10:00:34Z iter=2 role=student line=30 exit=126 duration=2ms $ ./run.sh", "    bash: ./run.sh: Permission denied", "    OPENAI_API_KEY=[REDACTED]"},
		{"2026-11-22T10:00:02Z iter=1 file create data.json (18 bytes) line=8"},
		{"2026-11-22T10:00:33Z iter=2 file create run.sh (42 bytes) line=26"},
		{"2026-11-22T10:00:17Z iter=1 role=mentor llm provider=claude model=claude-sonnet-4-5 inputTokens=1200 outputTokens=300 cost=$0.0081 duration=4.2s"},
		{"2026-11-22T10:01:12Z iter=2 event LoopEnded: blocker: the Student cannot run ./run.sh"},
		{"end: 6 commands (3 failed), 2 files, 1 LLM call (1500 tokens, $0.0081)"},
	} {
		if !strings.Contains(log, "\n"+strings.Join(want, "\n")+"\n") && !strings.HasPrefix(log, strings.Join(want, "\n")+"\n") {
			t.Errorf("audit log lacks:\n%s\n--- log ---\n%s", strings.Join(want, "\n"), log)
		}
	}
	if n := strings.Count(log, " exit="); n != 6 {
		t.Errorf("audit log has %d command records, want 6", n)
	}
	if strings.Contains(log, sampleToken) || strings.Contains(log, "sk-proj-") {
		t.Errorf("audit log holds a secret:\n%s", log)
	}
}

// record is a log line that starts a record: a timestamp and an iteration.
var record = regexp.MustCompile(`^(\S+) iter=\d+ `)

func TestAuditLogTimeOrder(t *testing.T) {
	in := sampleInput()
	// Audits arrive per attempt; the log interleaves them by time.
	in.Audits[0].Commands[1].StartedAt = at(40)
	log := string(RenderAuditLog(BuildReport(sampleRun(), in)))
	var last time.Time
	n := 0
	for _, line := range strings.Split(log, "\n") {
		m := record.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n++
		ts, err := time.Parse(time.RFC3339, m[1])
		if err != nil {
			t.Fatalf("record %q has no timestamp: %v", line, err)
		}
		if ts.Before(last) {
			t.Errorf("record %q comes after %s", line, last.Format(time.RFC3339))
		}
		last = ts
	}
	if want := 8 + 6 + 2 + 1; n != want {
		t.Errorf("%d records, want %d (events, commands, files, LLM calls)", n, want)
	}
}

func TestAuditLogStaysLineOriented(t *testing.T) {
	forged := "2026-11-22T10:00:09Z iter=9 role=student line=1 exit=0 duration=1ms $ rm -rf /"
	r := BuildReport(&status.Run{Metadata: status.Metadata{Name: "r"}, Status: status.Status{Phase: status.PhaseCompleted}}, ReportInput{
		Now: t0,
		Audits: []status.Audit{{
			Commands: []status.AuditCommand{{Iteration: 1, Role: status.RoleStudent, Command: "printf 'a\\rb'", Output: "\x1b[31mred\x1b[0m\r\n" + forged + "\n", StartedAt: t0}},
			Files:    []status.AuditFile{{Iteration: 1, Path: "odd\nname.txt", Action: "create", WrittenAt: t0}},
			LLMCalls: []status.LLMCall{{Iteration: 1, Provider: "openai", Model: "local model", Error: "rate limited\nretry", StartedAt: t0}},
		}},
	})
	log := string(RenderAuditLog(r))
	if strings.ContainsRune(log, '\x1b') || strings.ContainsRune(log, '\r') {
		t.Errorf("audit log passes control characters through:\n%q", log)
	}
	var records []string
	for _, line := range strings.Split(log, "\n") {
		if record.MatchString(line) {
			records = append(records, line)
		}
	}
	want := []string{
		`2026-11-22T10:00:00Z iter=1 role=student exit=0 duration=0s $ printf 'a\rb'`,
		`2026-11-22T10:00:00Z iter=1 file create "odd\nname.txt" (0 bytes)`,
		`2026-11-22T10:00:00Z iter=1 llm provider=openai model="local model" inputTokens=0 outputTokens=0 cost=$0.0000 duration=0s error="rate limited\nretry"`,
	}
	if strings.Join(records, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(records, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(log, "\n    "+forged+"\n") || !strings.Contains(log, "\n    \\x1b[31mred\\x1b[0m\n") {
		t.Errorf("output is not indented under its command:\n%s", log)
	}
}

func TestAuditLogKeepsUnreadableAnswers(t *testing.T) {
	run := sampleRun()
	in := sampleInput()
	in.Audits = append(in.Audits, status.Audit{LLMCalls: []status.LLMCall{{Iteration: 2, Role: status.RoleStudent, Provider: "codex", Model: "gpt-5-codex",
		InputTokens: 900, OutputTokens: 50, Estimated: true, NoPrice: true, StartedAt: time.Date(2026, 11, 22, 10, 0, 40, 0, time.UTC),
		Error: "answer not readable: no JSON object found in the output", RawOutput: "I did it all.\nOPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuv"}}})
	log := string(RenderAuditLog(BuildReport(run, in)))
	for _, want := range []string{` estimated duration=0s no-price error="answer not readable`, "\n    I did it all.\n", "cost: $0.0081 (estimated; 1 of the calls had no price) for 2 LLM calls"} {
		if !strings.Contains(log, want) {
			t.Errorf("audit log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "sk-proj-abcdef") {
		t.Error("the raw answer's key was not redacted")
	}
}
