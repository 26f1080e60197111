package runview

import (
	"slices"
	"strings"

	"github.com/smile-loop/smile/status"
)

// Exchange is one question of the Student and the Mentor's answer to it.
type Exchange struct {
	// Iteration is the attempt that asked; 0 for a note carried from an
	// earlier generation (Carried), which keeps its own question.
	Iteration  int               `json:"iteration"`
	Carried    bool              `json:"carried,omitempty"`
	Line       int               `json:"line,omitempty"`
	Question   string            `json:"question"`
	Answer     string            `json:"answer,omitempty"`
	Category   status.Category   `json:"category,omitempty"`
	Workaround string            `json:"workaround,omitempty"`
	Resolution status.Resolution `json:"resolution,omitempty"`
	// Waiting: the question has no answer yet and the run goes on;
	// an unanswered question of a finished run is neither.
	Waiting bool `json:"waiting,omitempty"`
	// Note is the index of the answer in status.mentorNotes (-1: none).
	Note int `json:"note"`
}

// Exchanges pairs every Mentor note with the question it answers (its own:
// a note carries the question it was asked, also into a new generation, where
// its iteration is 0 and no record of this generation asked it), then adds
// the questions of this generation no note answers yet, in the order they
// were asked.
func Exchanges(st *status.Status) []Exchange {
	var out []Exchange
	answered := make([]bool, len(st.History))
	for i, n := range st.MentorNotes {
		e := Exchange{Iteration: n.Iteration, Carried: n.Iteration == 0, Line: n.Line, Question: n.Question,
			Answer: n.Answer, Category: n.Category, Workaround: n.Workaround, Resolution: n.Resolution, Note: i}
		if !e.Carried {
			if h := asker(st.History, n, answered); h >= 0 {
				answered[h] = true
				if e.Question == "" {
					e.Question = st.History[h].StudentOutput.QuestionForMentor
				}
				if e.Line == 0 {
					e.Line = st.History[h].StudentOutput.Line
				}
			}
		}
		out = append(out, e)
	}
	for i, h := range st.History {
		o := h.StudentOutput
		if answered[i] || o.Status != status.StudentAskMentor {
			continue
		}
		out = append(out, Exchange{Iteration: h.Iteration, Line: o.Line, Question: o.QuestionForMentor,
			Waiting: !st.Phase.Terminal(), Note: -1})
	}
	// Carried notes (iteration 0) first, then in the order of the attempts.
	slices.SortStableFunc(out, func(a, b Exchange) int { return a.Iteration - b.Iteration })
	return out
}

// asker is the record of the question a note answers: the one of its
// iteration that asked the Mentor, the same question first.
func asker(history []status.IterationRecord, n status.MentorNote, taken []bool) int {
	best := -1
	for i, h := range history {
		o := h.StudentOutput
		if taken[i] || h.Iteration != n.Iteration || o.Status != status.StudentAskMentor {
			continue
		}
		if strings.TrimSpace(o.QuestionForMentor) == strings.TrimSpace(n.Question) {
			return i
		}
		if best < 0 {
			best = i
		}
	}
	return best
}
