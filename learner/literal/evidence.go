package literal

import (
	"fmt"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// because records the rules behind a step the Student follows (a program
// fed a transcript's lines, a block typed into a REPL), in its actions and
// its log, before it runs the step.
func (s *student) because(st reading.Step) {
	if len(st.Evidence) == 0 {
		return
	}
	s.env.Log.Info("Reading", "line", st.Line, "kind", string(st.Kind), "why", st.Why, "rules", rule.Explain(st.Evidence))
	if st.Why == "" {
		return // a plain command after a shell prompt: the log is enough
	}
	s.action(fmt.Sprintf("read line %d (%s): %s", st.Line, st.Kind, st.Because()))
}
