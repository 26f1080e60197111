package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// events returns a run whose timeline holds the first n of a quickstart's
// events.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func events(phase status.Phase, n int) *status.Run {
	all := []status.TimelineEntry{
		{Timestamp: t0, Iteration: 0, Event: "RunStarted", Details: "generation 1"},
		{Timestamp: t0.Add(time.Second), Iteration: 1, Event: "StudentStarted", Details: "container s1"},
		{Timestamp: t0.Add(2 * time.Second), Iteration: 1, Event: "StudentReported", Details: "ask_mentor at line 35"},
		{Timestamp: t0.Add(3 * time.Second), Iteration: 1, Event: "MentorStarted", Details: "container m1"},
		{Timestamp: t0.Add(4 * time.Second), Iteration: 2, Event: "LoopEnded", Details: "completed"},
	}
	run := status.NewRun("quickstart", "uid", "run.yaml", t0)
	run.Status.Phase, run.Status.Iteration = phase, all[n-1].Iteration
	run.Status.Timeline = all[:n]
	if last := all[n-1]; strings.HasSuffix(last.Event, "Started") && last.Event != "RunStarted" {
		run.Status.Attempt = &status.Attempt{Iteration: last.Iteration, Container: strings.TrimPrefix(last.Details, "container ")}
	}
	return run
}

// plain is one non-terminal progress line: its fields after the clock.
func plain(t *testing.T, line string) string {
	t.Helper()
	f := strings.Fields(line)
	if len(f) < 4 || len(f[0]) != len("15:04:05") || f[1] != "iteration" {
		t.Fatalf("progress line %q is not \"HH:MM:SS  iteration N  EVENT  details\"", line)
	}
	return strings.Join(f[1:], " ")
}

func TestProgressPlain(t *testing.T) {
	type update struct {
		run  *status.Run
		step string
		want []string // the lines this update adds
	}
	tests := []struct {
		name    string
		updates []update
	}{
		{"one line per new timeline event", []update{
			{events(status.PhaseRunningStudent, 2), "", []string{"iteration 0 RunStarted generation 1", "iteration 1 StudentStarted container s1"}},
			{events(status.PhaseRunningStudent, 2), "", nil},
			{events(status.PhaseRunningMentor, 4), "", []string{"iteration 1 StudentReported ask_mentor at line 35", "iteration 1 MentorStarted container m1"}},
			{events(status.PhaseCompleted, 5), "", []string{"iteration 2 LoopEnded completed"}},
		}},
		{"a step line when the step changes", []update{
			{events(status.PhaseRunningStudent, 2), "line 9: mkdir -p wordcount", []string{
				"iteration 0 RunStarted generation 1", "iteration 1 StudentStarted container s1", "iteration 1 Step line 9: mkdir -p wordcount"}},
			{events(status.PhaseRunningStudent, 2), "line 9: mkdir -p wordcount", nil},
			{events(status.PhaseRunningStudent, 2), "", nil},
			{events(status.PhaseRunningStudent, 2), "line 35: ./count.sh words.txt", []string{"iteration 1 Step line 35: ./count.sh words.txt"}},
		}},
		{"a step comes after the start of its attempt", []update{
			{events(status.PhaseRunningStudent, 3), "line 4: echo next", []string{
				"iteration 0 RunStarted generation 1", "iteration 1 StudentStarted container s1", "iteration 1 StudentReported ask_mentor at line 35"}},
			{events(status.PhaseRunningMentor, 4), "line 4: echo next", []string{
				"iteration 1 MentorStarted container m1", "iteration 1 Step line 4: echo next"}},
		}},
		{"a new generation starts over", []update{
			{events(status.PhaseRunningMentor, 4), "", []string{
				"iteration 0 RunStarted generation 1", "iteration 1 StudentStarted container s1",
				"iteration 1 StudentReported ask_mentor at line 35", "iteration 1 MentorStarted container m1"}},
			{events(status.PhaseRunningStudent, 1), "", []string{"iteration 0 RunStarted generation 1"}},
			{events(status.PhaseRunningStudent, 2), "", []string{"iteration 1 StudentStarted container s1"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			p := New(&buf)
			printed := 0
			for i, u := range tt.updates {
				p.Update(u.run, u.step)
				all := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
				if buf.Len() == 0 {
					all = nil
				}
				var got []string
				for _, l := range all[printed:] {
					got = append(got, plain(t, l))
				}
				printed = len(all)
				if strings.Join(got, "\n") != strings.Join(u.want, "\n") {
					t.Errorf("update %d printed\n%s\nwant\n%s", i+1, strings.Join(got, "\n"), strings.Join(u.want, "\n"))
				}
			}
			if strings.ContainsRune(buf.String(), '\r') {
				t.Errorf("plain output rewrites lines with \\r: %q", buf.String())
			}
			before := buf.Len()
			p.Done()
			if buf.Len() != before {
				t.Errorf("done() added %q to plain output", buf.String()[before:])
			}
		})
	}
}

// A file that is not a terminal (a CI log) gets plain lines too.
func TestProgressFileIsNotTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "ci.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p := New(f)
	if p.tty {
		t.Fatal("a regular file is taken for a terminal")
	}
	p.Update(events(status.PhaseRunningStudent, 2), "")
	p.Done()
	data, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "\n"); got != 2 || strings.ContainsRune(string(data), '\r') {
		t.Errorf("the log holds %q, want two plain lines", data)
	}
}

// A new generation whose timeline is already as long as the old one's by the
// next poll still has all its events printed.
func TestProgressNewGenerationOfTheSameLength(t *testing.T) {
	var buf bytes.Buffer
	p := New(&buf)
	old := events(status.PhaseWaitingForMentor, 4)
	old.Status.ObservedGeneration = 1
	p.Update(old, "")
	buf.Reset()
	next := events(status.PhaseWaitingForMentor, 4)
	next.Status.ObservedGeneration = 2
	p.Update(next, "")
	if got := strings.Count(buf.String(), "\n"); got != 4 {
		t.Fatalf("printed %d lines for generation 2's 4 events, want 4:\n%s", got, buf.String())
	}
}

// Several runs share one display: every line says whose it is.
func TestMultiProgressPrefixesRunNames(t *testing.T) {
	var buf bytes.Buffer
	m := NewMulti(&buf, true)
	for _, n := range []string{"alpha", "beta"} {
		run := &status.Run{Metadata: status.Metadata{Name: n}, Status: status.Status{Phase: status.PhaseRunningStudent, Iteration: 1, Attempt: &status.Attempt{},
			Timeline: []status.TimelineEntry{{Event: "Started", Iteration: 1, Details: "starting " + n}}}}
		m.Update(run, "step of "+n)
	}
	m.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4:\n%s", len(lines), buf.String())
	}
	for _, l := range lines {
		name := strings.SplitN(l, " | ", 2)[0]
		if (name != "alpha" && name != "beta") || !strings.Contains(l, name) || strings.Count(l, " | ") != 1 {
			t.Errorf("line without its run's name: %q", l)
		}
		if strings.Contains(l, "alpha") && strings.Contains(l, "beta") {
			t.Errorf("line mixes two runs: %q", l)
		}
	}
}
