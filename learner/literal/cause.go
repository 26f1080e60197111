package literal

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"

	"github.com/smile-loop/smile/status"
)

// skip lists a block the Student did not follow, with the reason.
func (s *student) skip(st reading.Step) {
	s.listSkipped(st.Line, st.EndLine, st.Because())
	if st.Kind == reading.StepOmit && st.Command.Text != "" && strings.HasPrefix(st.Why, "a syntax template") {
		for _, name := range shell.Assigned(placeholder.Filled(st.Command.Text)) {
			if s.filledIn == nil {
				s.filledIn = map[string]int{}
			}
			s.filledIn[name] = st.Line
		}
	}
	if st.Kind == reading.StepAmbiguous {
		s.unplaced = append(s.unplaced, st)
	}
}

// causeFor finds the skipped block that would most likely have created a
// missing file: the latest one before the failing line whose prose names
// the file, or whose language writes files of its kind.
func (s *student) causeFor(missing string, before int) (reading.Step, bool) {
	if missing == "" {
		return reading.Step{}, false
	}
	base := path.Base(missing)
	var byLang *reading.Step
	for i := len(s.unplaced) - 1; i >= 0; i-- {
		st := s.unplaced[i]
		if st.Line >= before {
			continue
		}
		for _, n := range st.Names {
			if path.Base(n) == base {
				return st, true
			}
		}
		if byLang == nil && reading.WritesKind(st.Lang, base) {
			byLang = &s.unplaced[i]
		}
	}
	if byLang != nil {
		return *byLang, true
	}
	return reading.Step{}, false
}

// blame turns a missing file into the evidence that a skipped block was
// needed: the gap is at the failing step and points back at the block.
func (s *student) blame(f status.Finding, cause reading.Step, missing string) status.Finding {
	f.Category = status.CategoryAmbiguousInstruction
	f.CauseLine = cause.Line
	f.CauseQuote = cause.Prose
	if f.CauseQuote == "" {
		f.CauseQuote = s.quote(cause.Line)
	}
	f.Problem = fmt.Sprintf("`%s` does not exist: the %s block at line %d is probably that file, but the tutorial does not say to save it as `%s`",
		missing, codelang.Name(cause.Lang), cause.Line, missing)
	f.SuggestedFix = fmt.Sprintf("Say where the block at line %d goes, e.g. \"Save this as `%s`:\" just before it.", cause.Line, missing)
	return f
}
