package runview

import (
	"testing"

	"github.com/smile-loop/smile/status"
)

func ask(iteration, line int, q string) status.IterationRecord {
	return status.IterationRecord{Iteration: iteration, StudentOutput: status.StudentOutput{
		Status: status.StudentAskMentor, Line: line, QuestionForMentor: q}}
}

// Notes carried into a new generation all have iteration 0 and no record of
// this generation asked them: each keeps its own question (the dashboard used
// to pair them all with one iteration's question).
func TestExchangesPairCarriedNotesWithTheirOwnQuestions(t *testing.T) {
	st := &status.Status{Phase: status.PhaseWaitingForMentor,
		MentorNotes: []status.MentorNote{
			{Iteration: 0, Line: 6, Question: "why does line 6 fail?", Answer: "chmod +x run.sh"},
			{Iteration: 0, Line: 12, Question: "where is data.csv?", Answer: "download it first"},
			{Iteration: 1, Line: 20, Question: "line 20: no such command", Answer: "install jq"},
		},
		History: []status.IterationRecord{
			ask(1, 20, "line 20: no such command"),
			ask(2, 31, "line 31: permission denied"),
		},
	}
	got := Exchanges(st)
	want := []struct {
		iteration, line  int
		carried, waiting bool
		question, answer string
	}{
		{0, 6, true, false, "why does line 6 fail?", "chmod +x run.sh"},
		{0, 12, true, false, "where is data.csv?", "download it first"},
		{1, 20, false, false, "line 20: no such command", "install jq"},
		{2, 31, false, true, "line 31: permission denied", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("%d exchanges, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Iteration != w.iteration || g.Line != w.line || g.Carried != w.carried || g.Waiting != w.waiting ||
			g.Question != w.question || g.Answer != w.answer {
			t.Errorf("exchange %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestExchangesOfAFinishedRunWaitForNothing(t *testing.T) {
	st := &status.Status{Phase: status.PhaseStopped, History: []status.IterationRecord{ask(1, 4, "why?")}}
	got := Exchanges(st)
	if len(got) != 1 || got[0].Waiting || got[0].Note != -1 {
		t.Errorf("a stopped run's unanswered question: %+v, want one, not waiting", got)
	}
}

// A note without its question (an older state file) takes the question of
// the record that asked it.
func TestExchangesFillAQuestionFromTheRecord(t *testing.T) {
	st := &status.Status{Phase: status.PhaseCompleted,
		MentorNotes: []status.MentorNote{{Iteration: 1, Answer: "do this"}},
		History:     []status.IterationRecord{ask(1, 9, "what now?")}}
	got := Exchanges(st)
	if len(got) != 1 || got[0].Question != "what now?" || got[0].Line != 9 || got[0].Note != 0 {
		t.Errorf("exchanges %+v, want the one answered question of line 9", got)
	}
}
