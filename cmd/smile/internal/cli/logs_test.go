package cli

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

const logHeader = "SMILE audit log\nrun: quickstart\ntutorial: tutorial.md (Count the words)\nstatus: completed (Completed: done)\niterations: 2\ngeneratedAt: 2026-11-22T10:00:02Z\n\n"

func TestSplitAuditLog(t *testing.T) {
	tests := []struct {
		name   string
		log    string
		body   []string
		end    string
		joined bool // the parts put back together are the log
	}{
		{
			name: "records and totals",
			log: logHeader +
				"2026-11-22T10:00:00Z iter=0 event RunStarted: generation 1\n" +
				"2026-11-22T10:00:01Z iter=1 role=student line=35 exit=126 duration=10ms $ ./count.sh words.txt\n" +
				"    bash: line 1: ./count.sh: Permission denied\n" +
				"2026-11-22T10:00:01Z iter=1 file create wordcount/count.sh (93 bytes) line=26\n" +
				"\nend: 1 command (1 failed), 1 file, 0 LLM calls (0 tokens, $0.0000)\n",
			body: []string{
				"2026-11-22T10:00:00Z iter=0 event RunStarted: generation 1",
				"2026-11-22T10:00:01Z iter=1 role=student line=35 exit=126 duration=10ms $ ./count.sh words.txt",
				"    bash: line 1: ./count.sh: Permission denied",
				"2026-11-22T10:00:01Z iter=1 file create wordcount/count.sh (93 bytes) line=26",
			},
			end:    "\nend: 1 command (1 failed), 1 file, 0 LLM calls (0 tokens, $0.0000)\n",
			joined: true,
		},
		{
			name: "output that looks like totals stays in the body",
			log: logHeader +
				"2026-11-22T10:00:01Z iter=1 exit=0 duration=1ms $ cat notes.txt\n" +
				"    end: of the notes\n" +
				"\nend: 1 command (0 failed), 0 files, 0 LLM calls (0 tokens, $0.0000)\n",
			body: []string{"2026-11-22T10:00:01Z iter=1 exit=0 duration=1ms $ cat notes.txt", "    end: of the notes"},
			end:  "\nend: 1 command (0 failed), 0 files, 0 LLM calls (0 tokens, $0.0000)\n", joined: true,
		},
		{
			name: "no record yet",
			log:  logHeader + "\nend: 0 commands (0 failed), 0 files, 0 LLM calls (0 tokens, $0.0000)\n",
			body: nil,
			end:  "\nend: 0 commands (0 failed), 0 files, 0 LLM calls (0 tokens, $0.0000)\n", joined: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			header, body, end := splitAuditLog(tt.log)
			if header != logHeader {
				t.Errorf("header = %q, want %q", header, logHeader)
			}
			if !slices.Equal(body, tt.body) {
				t.Errorf("body = %q\nwant %q", body, tt.body)
			}
			if end != tt.end {
				t.Errorf("end = %q, want %q", end, tt.end)
			}
			if got := header + lines(body) + end; tt.joined && got != tt.log {
				t.Errorf("header, body and end put together differ from the log:\n got %q\nwant %q", got, tt.log)
			}
		})
	}
}

func lines(body []string) string {
	var b strings.Builder
	for _, l := range body {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// TestPrintLogs: `smile logs NAME` prints the audit log the report's
// smile-audit.log holds (the same renderer), whole and once.
func TestPrintLogs(t *testing.T) {
	dir := t.TempDir()
	rec := fabricate(t, dir, "alpha", completed)
	var buf bytes.Buffer
	if err := printLogs(context.Background(), &buf, rec, false, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	run, err := store.Load(rec.StateFile)
	if err != nil {
		t.Fatal(err)
	}
	want := renderAuditLog(rec, run)
	got := buf.String()
	// Only the time the log was rendered may differ.
	generated := func(s string) string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.HasPrefix(l, "generatedAt: ") {
				out = append(out, l)
			}
		}
		return strings.Join(out, "\n")
	}
	if generated(got) != generated(want) {
		t.Errorf("smile logs printed\n%q\nthe audit log is\n%q", got, want)
	}
	for _, s := range []string{"event RunStarted", "event LoopEnded", "\nend: "} {
		if strings.Count(got, s) != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", s, strings.Count(got, s), got)
		}
	}
	if strings.Contains(got, secretToken) {
		t.Errorf("the log shows the run's token")
	}
}

func TestLogsCommandUnknownRun(t *testing.T) {
	code, stdout, stderr := runMain(t, "logs", "nope", "--dir", t.TempDir())
	if code != 1 || stdout != "" || stderr != "error: smilerun \"nope\" not found\n" {
		t.Errorf("logs nope: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestPrintLogsFollow: `smile logs -f` prints the header once, each entry
// once as it appears, and the totals when the run ends.
func TestPrintLogsFollow(t *testing.T) {
	dir := t.TempDir()
	all := []status.TimelineEntry{
		{Timestamp: t0, Event: "RunStarted", Details: "generation 1"},
		{Timestamp: t0.Add(time.Second), Iteration: 1, Event: "StudentStarted", Details: "container s1"},
		{Timestamp: t0.Add(2 * time.Second), Iteration: 1, Event: "LoopEnded", Details: "completed"},
	}
	// stage n: the first n events; the report is written after the last.
	stage := func(n int, report bool) func(*status.Run) {
		return func(run *status.Run) {
			run.Status.Phase, run.Status.Timeline = status.PhaseRunningStudent, all[:n]
			if n == len(all) {
				run.Status.Phase = status.PhaseCompleted
			}
			if report {
				run.Status.Report = &status.ReportRef{Markdown: "smile-report.md"}
			}
		}
	}
	rec := fabricate(t, dir, "alpha", stage(0, false))
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- printLogs(context.Background(), &out, rec, true, 2*time.Millisecond) }()
	waitFor := func(s string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), s) {
			if time.Now().After(deadline) {
				t.Fatalf("logs -f never printed %q:\n%s", s, out.String())
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	waitFor("SMILE audit log\n")
	fabricate(t, dir, "alpha", stage(1, false))
	waitFor("event RunStarted")
	fabricate(t, dir, "alpha", stage(2, false))
	waitFor("event StudentStarted")
	// The loop has ended but its report is not written yet: keep following.
	fabricate(t, dir, "alpha", stage(3, false))
	waitFor("event LoopEnded")
	for range 25 {
		select {
		case err := <-done:
			t.Fatalf("logs -f returned (%v) before the run's report was written", err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	fabricate(t, dir, "alpha", stage(3, true))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("logs -f did not end with the run")
	}
	got := out.String()
	for _, s := range []string{"SMILE audit log\n", "event RunStarted", "event StudentStarted", "event LoopEnded", "\nend: "} {
		if strings.Count(got, s) != 1 {
			t.Errorf("%q appears %d times, want once:\n%s", s, strings.Count(got, s), got)
		}
	}
	if !strings.HasSuffix(got, "LLM calls (0 tokens, $0.0000)\n") {
		t.Errorf("logs -f does not end with the totals:\n%q", got)
	}
}
