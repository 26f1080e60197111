package literal

import (
	"github.com/smile-loop/smile/learner/literal/fence"
	"github.com/smile-loop/smile/status"
)

// fenceFinding records a fence the page got wrong (fence.Find) as the
// page's gap, at its opening line, without asking the Mentor: a reader
// sees it on the rendered page.
func (s *student) fenceFinding(f fence.Fault) {
	finding := s.finding(status.CategoryAmbiguousInstruction, f.Block.Line, f.Problem(), "")
	finding.SuggestedFix = f.Fix()
	_ = s.record(finding, false, "", "")
}
