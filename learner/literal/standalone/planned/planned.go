// Package planned says which steps of a literal Student's plan are whole
// programs it tries on its own (package standalone), and whose output a
// comparison shows: the reading of a plan the Student follows and `smile
// plan` explains alike.
package planned

import (
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/standalone"
)

// Tried says whether the Student tries the step at i of a plan on its own,
// and how: an unplaced block that is a whole program, with its language's
// entry point or with the output it prints shown right after it.
func Tried(steps []reading.Step, i int) (standalone.Program, bool) {
	st := steps[i]
	if st.Kind != reading.StepAmbiguous {
		return standalone.Program{}, false
	}
	p, ok := standalone.Of(st.Lang, st.Content)
	if !ok || !p.Entry && !OutputShownNext(steps, i) {
		return standalone.Program{}, false
	}
	return p, true
}

// Near is how many lines may stand between a program and the output shown
// right after it ("Running it prints:"). Output further on, after a
// heading or a paragraph that names another command (`javap -c X`), is not
// the program's to compare with.
const Near = 6

// OutputShownNext: the step after i that the Student follows compares output
// with what ran last, and is shown right after the block of step i.
func OutputShownNext(steps []reading.Step, i int) bool {
	for _, next := range steps[i+1:] {
		switch next.Kind {
		case reading.StepCompare:
			return next.Line-max(steps[i].EndLine, steps[i].Line) <= Near
		case reading.StepSkip, reading.StepImage:
			continue
		}
		return false
	}
	return false
}

// ProgramBefore is the unplaced program whose output the comparison at i
// shows: the step the Student met last before it, when that is a block in a
// language of programs. Such output is the program's, never an older
// command's.
func ProgramBefore(steps []reading.Step, i int) (reading.Step, bool) {
	for j := i - 1; j >= 0; j-- {
		switch st := steps[j]; {
		case st.Kind == reading.StepSkip || st.Kind == reading.StepImage:
			continue
		case st.Kind == reading.StepAmbiguous && standalone.Lang(st.Lang) != "":
			return st, true
		default:
			return reading.Step{}, false
		}
	}
	return reading.Step{}, false
}
