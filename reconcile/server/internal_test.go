package server

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

func TestLineCount(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\n\n": 2, "a\r\nb\r\n": 2} {
		if got := lineCount(in); got != want {
			t.Errorf("lineCount(%q) = %d, want %d", in, got, want)
		}
	}
}

// A diff names only what changed: renumbered gaps are not news, a gap whose
// severity rose is, and a new generation resends everything.
func TestDiffEvents(t *testing.T) {
	at := time.Now()
	base := status.NewRun("demo", "uid", "run.yaml", at)
	base.Metadata.Generation = 1
	base.Status = status.Status{Phase: status.PhaseWaitingForStudent, Iteration: 1, ObservedGeneration: 1, StartedAt: at,
		Gaps: []status.Gap{{ID: 1, Category: status.CategoryPermissionDenied, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 6}}}}
	with := func(f func(r *status.Run)) *status.Run {
		r := clone(base)
		f(r)
		return r
	}
	tests := []struct {
		name       string
		cur        *status.Run
		want       []string
		wantResync bool
	}{
		{"nothing changed", with(func(*status.Run) {}), []string{WSPhase}, false},
		{"gaps renumbered", with(func(r *status.Run) {
			r.Status.Gaps = append([]status.Gap{{ID: 1, Category: status.CategoryMissingFile, Location: status.GapLocation{LineNumber: 2}}}, r.Status.Gaps...)
			r.Status.Gaps[1].ID = 2
		}), []string{WSPhase, WSGap}, false},
		{"severity rose", with(func(r *status.Run) { r.Status.Gaps[0].Severity = status.SeverityCritical }), []string{WSPhase, WSGap}, false},
		{"ended in error", with(func(r *status.Run) { r.Status.Phase, r.Status.Message = status.PhaseError, "boom" }),
			[]string{WSPhase, WSError, WSLoopComplete}, false},
		{"new generation", with(func(r *status.Run) { r.Metadata.Generation = 2 }), []string{WSPhase}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			events, resync := diffEvents(base, tc.cur, "Test", at)
			var got []string
			for _, e := range events {
				got = append(got, e.Event)
			}
			if !slices.Equal(got, tc.want) || resync != tc.wantResync {
				t.Errorf("events %v resync %v, want %v %v", got, resync, tc.want, tc.wantResync)
			}
		})
	}
}

// clone copies what TestDiffEvents changes of a run.
func clone(run *status.Run) *status.Run {
	c := *run
	c.Status.Gaps = append([]status.Gap(nil), run.Status.Gaps...)
	c.Status.MentorNotes = append([]status.MentorNote(nil), run.Status.MentorNotes...)
	return &c
}

// A Mentor's notes are Markdown for the dashboard, rendered without any
// HTML or script link the notes carry.
func TestNotesHTMLIsSafeMarkdown(t *testing.T) {
	notes := "Run `chmod +x run.sh` first:\n\n```sh\nchmod +x run.sh\n```\n\n<script>alert(1)</script>\n\n" +
		"<img src=x onerror=alert(1)> [see](javascript:alert(1)) **done**"
	got := notesHTML(notes)
	for _, want := range []string{"<code>chmod +x run.sh</code>", `<pre><code class="language-sh">chmod +x run.sh`, "<strong>done</strong>"} {
		if !strings.Contains(got, want) {
			t.Errorf("notes rendered as %q, want %q in them", got, want)
		}
	}
	for _, bad := range []string{"<script", "<img", "onerror", "javascript:"} {
		if strings.Contains(got, bad) {
			t.Errorf("notes rendered as %q: %q must not survive", got, bad)
		}
	}
	at := time.Now()
	prev := status.NewRun("demo", "uid", "run.yaml", at)
	cur := clone(prev)
	cur.Status.MentorNotes = []status.MentorNote{{Iteration: 1, Answer: "use **chmod**"}}
	events, _ := diffEvents(prev, cur, "Test", at)
	last := events[len(events)-1].Payload.(WSMentorOutputPayload)
	if !strings.Contains(last.NotesHTML, "<strong>chmod</strong>") || last.Notes != "use **chmod**" {
		t.Errorf("mentor_output = %+v, want the notes and their rendering", last)
	}
}

// savedRuns answers Run with the run as last saved, and nothing else.
type savedRuns struct {
	Runs
	run *status.Run
}

func (s savedRuns) Run(string) (*status.Run, error)       { return s.run, nil }
func (s savedRuns) Desired(string) (*spec.Desired, error) { return nil, status.ErrUnknownRun }
func (s savedRuns) Audits(string) ([]status.Audit, error) { return nil, nil }
func (s savedRuns) Progress(string, string) (*events.Progress, error) {
	return nil, nil
}

// A connection closing after the run's last save but before its event was
// published still gets the report: the saved state is sent as a catch-up,
// once, and not at all when the connection already has it.
func TestFeedCatchUpSendsTheSavedReport(t *testing.T) {
	at := time.Now()
	ended := status.NewRun("demo", "uid", "run.yaml", at)
	ended.Metadata.Generation = 1
	ended.Status = status.Status{Phase: status.PhaseCompleted, Iteration: 2, ObservedGeneration: 1, StartedAt: at, UpdatedAt: at}
	reported := clone(ended)
	reported.Status.UpdatedAt = at.Add(time.Second)
	reported.Status.Report = &status.ReportRef{Markdown: "smile-report.md", JSON: "smile-report.json", WrittenAt: at.Add(time.Second)}

	f := &feed{b: savedRuns{run: reported}, name: "demo", views: &viewCache{}, prev: ended}
	var got []string
	for _, e := range f.catchUp() {
		got = append(got, e.Event)
	}
	if !slices.Contains(got, WSReport) {
		t.Fatalf("catch-up events %v, want the report", got)
	}
	if again := f.catchUp(); len(again) != 0 {
		t.Errorf("a second catch-up sent %d events, want none", len(again))
	}
	f.prev = clone(reported)
	if same := f.catchUp(); len(same) != 0 {
		t.Errorf("a connection that has the saved state was sent %d events", len(same))
	}
}

// A shutdown lets each observer connection finish sending before the
// controller goes on to exit, but waits no longer than its bound for one
// that never ends; no connection opens after it.
func TestDrainWaitsForObservers(t *testing.T) {
	o := &observers{conns: map[*wsConn]struct{}{}}
	ctx, c := o.track()
	sent := make(chan struct{})
	go func() {
		<-ctx.Done()
		time.Sleep(100 * time.Millisecond) // the last events going out
		close(sent)
		o.untrack(c)
	}()
	o.drain(5 * time.Second)
	select {
	case <-sent:
	default:
		t.Fatal("drain returned before the connection had sent its last events")
	}
	if _, c := o.track(); c != nil {
		t.Error("a connection opened after the drain")
	}

	stuck := &observers{conns: map[*wsConn]struct{}{}}
	_, _ = stuck.track() // never untracked
	start := time.Now()
	stuck.drain(200 * time.Millisecond)
	if d := time.Since(start); d < 200*time.Millisecond || d > 2*time.Second {
		t.Errorf("drain of a connection that never ends took %v, want about its 200ms bound", d)
	}
}
