package reading

import (
	"fmt"
	"path"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/book"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// bookInclude: a block of mdBook include directives shows another file of
// the book's repository (package book), not code to write.
func bookInclude(text string, line int) (string, []rule.Evidence) {
	file, ok := book.IncludesOnly(text)
	if !ok {
		return "", nil
	}
	return fmt.Sprintf("an mdBook include of %s: the book shows that file of its repository here, which the page itself does not hold", file),
		[]rule.Evidence{book.RuleInclude.At(line, textutil.FirstLine(text))}
}

// unhideRust writes the hidden lines of a Rust block's file without their
// mark (package book), with the rule as evidence when there were any.
func unhideRust(steps []Step) {
	for i := range steps {
		s := &steps[i]
		if s.Kind != StepWrite || (s.Lang != "rust" && path.Ext(s.File.Path) != ".rs") {
			continue
		}
		if content, hidden := book.Unhide(s.Content); hidden > 0 {
			s.Content = content
			s.Evidence = append(s.Evidence, book.RuleHiddenLines.At(s.Line, fmt.Sprintf("%d hidden line(s)", hidden)))
		}
	}
}
