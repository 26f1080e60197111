package server

import (
	"reflect"
	"slices"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/status"
)

// The events of GET /ws. Each WebSocket message is one WSEvent. The seed's
// events come first; the rest are extensions the dashboard uses.
//
// Within one transition the events come in this order: phase, timeline (one
// per new entry), iteration_start, student_output, gap (one per new or
// changed gap), mentor_output, error, loop_complete, report. A transition
// that starts a generation over sends phase then snapshot instead.
const (
	// WSConnected is the first message of every connection (WSSnapshotPayload).
	WSConnected = "connected"
	// WSIterationStart: a Student attempt started (WSIterationStartPayload).
	WSIterationStart = "iteration_start"
	// WSStudentOutput: a Student result was recorded (WSStudentOutputPayload).
	WSStudentOutput = "student_output"
	// WSMentorOutput: a Mentor answer was recorded (WSMentorOutputPayload).
	WSMentorOutput = "mentor_output"
	// WSLoopComplete: the loop reached a terminal phase (WSLoopCompletePayload).
	WSLoopComplete = "loop_complete"
	// WSError: the loop ended in the Error phase, or a reconcile failed
	// (WSErrorPayload).
	WSError = "error"

	// WSPhase is sent for every transition, even one that keeps the phase
	// (WSPhasePayload).
	WSPhase = "phase"
	// WSTimeline is one new timeline entry (status.TimelineEntry).
	WSTimeline = "timeline"
	// WSProgress: the current attempt said what it is doing (WSProgressPayload).
	WSProgress = "progress"
	// WSGap is a gap that is new or changed (status.Gap). Gaps are renumbered
	// as they are found, so a gap is identified by its line and category.
	WSGap = "gap"
	// WSReport: the report files were written (status.ReportRef).
	WSReport = "report"
	// WSSnapshot replaces everything the client knows (WSSnapshotPayload): a new
	// generation started.
	WSSnapshot = "snapshot"
)

// WSEvent is one WebSocket message: {"event": "<name>", "payload": {...}}.
type WSEvent struct {
	Event   string `json:"event"`
	Payload any    `json:"payload"`
}

// WSSnapshotPayload is the whole observable state of a run: the seed's
// LoopState plus what the dashboard shows. It never carries the run's token.
type WSSnapshotPayload struct {
	State         status.LoopState       `json:"state"`
	Name          string                 `json:"name"`
	Generation    int64                  `json:"generation"`
	Phase         status.Phase           `json:"phase"`
	Terminal      bool                   `json:"terminal"`
	Reason        status.Reason          `json:"reason,omitempty"`
	Message       string                 `json:"message,omitempty"`
	Iteration     int                    `json:"iteration"`
	MaxIterations int                    `json:"maxIterations,omitempty"`
	Tutorial      string                 `json:"tutorial,omitempty"`
	Attempt       *WSAttempt             `json:"attempt,omitempty"`
	Progress      *events.Progress       `json:"progress,omitempty"`
	Gaps          []status.Gap           `json:"gaps"`
	Timeline      []status.TimelineEntry `json:"timeline"`
	Report        *status.ReportRef      `json:"report,omitempty"`
	FinishedAt    *time.Time             `json:"finishedAt,omitempty"`
	LastError     string                 `json:"lastError,omitempty"`
	// MentorNotesHTML are the answers of State.MentorNotes rendered from
	// Markdown, safely (no raw HTML), in the same order.
	MentorNotesHTML []string `json:"mentorNotesHtml"`
	// View is what the run page shows, as GET /api/view answers.
	View *ViewResponse `json:"view,omitempty"`
}

// WSAttempt is the container the loop waits on.
type WSAttempt struct {
	Role      status.Role `json:"role"`
	Iteration int         `json:"iteration"`
	Container string      `json:"container"`
	StartedAt time.Time   `json:"startedAt"`
}

// WSPhasePayload is one transition.
type WSPhasePayload struct {
	Phase      status.Phase  `json:"phase"`
	Status     string        `json:"status"` // the seed's snake_case LoopStatus
	Terminal   bool          `json:"terminal"`
	Iteration  int           `json:"iteration"`
	Generation int64         `json:"generation"`
	Action     string        `json:"action"`
	Reason     status.Reason `json:"reason,omitempty"`
	Message    string        `json:"message,omitempty"`
	// At is when the transition's status was saved.
	At time.Time `json:"at"`
	// View is what the run page shows after a transition that ends the run
	// (its marks and exchanges), as GET /api/view answers.
	View *ViewResponse `json:"view,omitempty"`
}

// WSIterationStartPayload is the seed's iteration_start.
type WSIterationStartPayload struct {
	Iteration int       `json:"iteration"`
	Timestamp time.Time `json:"timestamp"`
	Container string    `json:"container"`
}

// WSStudentOutputPayload is the seed's student_output, with where the
// Student was and what it asked.
type WSStudentOutputPayload struct {
	Status            status.StudentStatus `json:"status"`
	Summary           string               `json:"summary"`
	CurrentStep       string               `json:"currentStep"`
	Iteration         int                  `json:"iteration"`
	Line              int                  `json:"line,omitempty"`
	Problem           string               `json:"problem,omitempty"`
	QuestionForMentor string               `json:"questionForMentor,omitempty"`
	Reason            string               `json:"reason,omitempty"`
}

// WSMentorOutputPayload is the seed's mentor_output, with the question it
// answers and its structured advice.
type WSMentorOutputPayload struct {
	Notes string `json:"notes"`
	// NotesHTML is Notes rendered from Markdown, safely (no raw HTML).
	NotesHTML    string            `json:"notesHtml,omitempty"`
	Iteration    int               `json:"iteration"`
	Question     string            `json:"question,omitempty"`
	Line         int               `json:"line,omitempty"`
	Category     status.Category   `json:"category,omitempty"`
	Resolution   status.Resolution `json:"resolution,omitempty"`
	Workaround   string            `json:"workaround,omitempty"`
	SuggestedFix string            `json:"suggestedFix,omitempty"`
}

// WSLoopCompletePayload is the seed's loop_complete.
type WSLoopCompletePayload struct {
	Status     string        `json:"status"`
	Summary    string        `json:"summary"`
	Iterations int           `json:"iterations"`
	Phase      status.Phase  `json:"phase"`
	Reason     status.Reason `json:"reason,omitempty"`
	Gaps       int           `json:"gaps"`
}

// WSErrorPayload is the seed's error. Reason is the run's reason in the
// Error phase, or ReconcileFailed when a reconcile failed (it is retried).
type WSErrorPayload struct {
	Message string        `json:"message"`
	Reason  status.Reason `json:"reason,omitempty"`
}

// WSProgressPayload is what the current attempt last said it was doing.
type WSProgressPayload struct {
	Step      string      `json:"step"`
	Line      int         `json:"line,omitempty"`
	At        time.Time   `json:"at"`
	Iteration int         `json:"iteration"`
	Role      status.Role `json:"role,omitempty"`
}

// diffEvents translates one transition into the events an observer that last
// saw prev needs. It is pure: the observer's state is prev, nothing else.
// resync reports that cur starts a generation over, so the observer must be
// sent a whole snapshot instead of a difference.
func diffEvents(prev, cur *status.Run, action string, at time.Time) (events []WSEvent, resync bool) {
	st := &cur.Status
	events = append(events, WSEvent{Event: WSPhase, Payload: WSPhasePayload{
		Phase: st.Phase, Status: st.Phase.LoopStatus(), Terminal: st.Phase.Terminal(), Iteration: st.Iteration,
		Generation: cur.Metadata.Generation, Action: action, Reason: st.Reason, Message: st.Message, At: at,
	}})
	if prev == nil || prev.Metadata.Generation != cur.Metadata.Generation ||
		prev.Status.ObservedGeneration != st.ObservedGeneration || !prev.Status.StartedAt.Equal(st.StartedAt) {
		return events, true
	}
	ps := &prev.Status
	if len(st.Timeline) >= len(ps.Timeline) {
		for _, e := range st.Timeline[len(ps.Timeline):] {
			events = append(events, WSEvent{Event: WSTimeline, Payload: e})
		}
	}
	if a := st.Attempt; a != nil && a.Role == status.RoleStudent &&
		(ps.Attempt == nil || ps.Attempt.Container != a.Container || !ps.Attempt.StartedAt.Equal(a.StartedAt)) {
		events = append(events, WSEvent{Event: WSIterationStart, Payload: WSIterationStartPayload{
			Iteration: a.Iteration, Timestamp: a.StartedAt, Container: a.Container,
		}})
	}
	if len(st.History) > len(ps.History) {
		for _, h := range st.History[len(ps.History):] {
			o := h.StudentOutput
			events = append(events, WSEvent{Event: WSStudentOutput, Payload: WSStudentOutputPayload{
				Status: o.Status, Summary: o.Summary, CurrentStep: o.CurrentStep, Iteration: h.Iteration, Line: o.Line,
				Problem: o.Problem, QuestionForMentor: o.QuestionForMentor, Reason: o.Reason,
			}})
		}
	}
	for _, g := range st.Gaps {
		if old, ok := gapByKey(ps.Gaps, g); !ok || !sameGap(old, g) {
			events = append(events, WSEvent{Event: WSGap, Payload: g})
		}
	}
	if len(st.MentorNotes) > len(ps.MentorNotes) {
		for _, n := range st.MentorNotes[len(ps.MentorNotes):] {
			events = append(events, WSEvent{Event: WSMentorOutput, Payload: WSMentorOutputPayload{
				Notes: n.Answer, NotesHTML: notesHTML(n.Answer), Iteration: n.Iteration, Question: n.Question, Line: n.Line, Category: n.Category,
				Resolution: n.Resolution, Workaround: n.Workaround, SuggestedFix: n.SuggestedFix,
			}})
		}
	}
	if st.Phase == status.PhaseError && (ps.Phase != status.PhaseError || ps.Message != st.Message) {
		events = append(events, WSEvent{Event: WSError, Payload: WSErrorPayload{Message: st.Message, Reason: st.Reason}})
	}
	if st.Phase.Terminal() && !ps.Phase.Terminal() {
		events = append(events, WSEvent{Event: WSLoopComplete, Payload: WSLoopCompletePayload{
			Status: st.Phase.LoopStatus(), Summary: st.Message, Iterations: st.Iteration, Phase: st.Phase,
			Reason: st.Reason, Gaps: len(st.Gaps),
		}})
	}
	if st.Report != nil && (ps.Report == nil || *ps.Report != *st.Report) {
		events = append(events, WSEvent{Event: WSReport, Payload: *st.Report})
	}
	return events, false
}

// gapByKey finds the gap at g's line with g's category: the identity of a
// gap, since IDs change as gaps are found.
func gapByKey(gaps []status.Gap, g status.Gap) (status.Gap, bool) {
	for _, o := range gaps {
		if o.Location.LineNumber == g.Location.LineNumber && o.Category == g.Category {
			return o, true
		}
	}
	return status.Gap{}, false
}

func sameGap(a, b status.Gap) bool {
	a.ID, b.ID = 0, 0
	// Gap holds a slice (Lines), so == cannot compare it; nil and empty
	// Lines are the same.
	if !slices.Equal(a.Lines, b.Lines) {
		return false
	}
	a.Lines, b.Lines = nil, nil
	return reflect.DeepEqual(a, b)
}
