package report

import (
	"strings"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/report/suggest"
)

// Suggestion is a gap's fix as a change of its line (see package suggest).
type Suggestion = suggest.Suggestion

// suggestionFor is the suggestion a report shows for a gap.
func suggestionFor(r *Report, g status.Gap) (Suggestion, bool) {
	n := g.Location.LineNumber
	var inCode *bool
	if r.InCode != nil {
		v := r.InCode[n]
		inCode = &v
	}
	line := ""
	if r.SourceLines != nil {
		// The tutorial's text was given: a line it does not have (blank, or
		// past its end) gets no suggestion, whatever the quote says.
		if line = r.SourceLines[n]; strings.TrimSpace(line) == "" {
			return Suggestion{}, false
		}
	}
	return suggest.For(g, line, inCode)
}
