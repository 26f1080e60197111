package reading

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// Books built with mdBook (the Rust book and its many translations, and
// others) mark up their code in two ways a reader never sees as text:
//
//   - In a Rust block, a line that starts with `# ` (or is only `#`) is
//     hidden when the page is rendered but is part of the program: the
//     compiler sees it. Rust itself has no line that starts so (attributes
//     start with `#[` or `#![`), so the file the block is written to holds
//     those lines without the mark.
//   - `{{#include FILE}}` and `{{#rustdoc_include FILE:ANCHOR}}` stand for
//     the content of another file of the book's repository, shown in its
//     place when the book is built. The directive is not code: a block made
//     only of directives shows code SMILE does not have, and is skipped with
//     that reason rather than written out as source.
var (
	ruleHiddenLines = rule.Register(rule.Rule{ID: "book.hidden-lines", Scope: rule.ScopeBlock,
		Doc: "in a Rust block, lines starting with `# ` are hidden from the rendered book but part of the program: written to the file without the mark"})
	ruleBookInclude = rule.Register(rule.Rule{ID: "book.include", Scope: rule.ScopeBlock,
		Doc: "a block made only of mdBook include directives ({{#include FILE}}, {{#rustdoc_include FILE}}) shows another file of the book's repository: skipped, not written as code"})

	bookInclude = regexp.MustCompile(`^\s*\{\{#(?:include|rustdoc_include|playground)\s+([^}\s]+)[^}]*\}\}\s*$`)
	hiddenLine  = regexp.MustCompile(`^(\s*)#(?: |$)`)
)

// includesOnly says, for a block made only of include directives (and
// blank lines), the file the first one names.
func includesOnly(text string) (string, bool) {
	file := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		m := bookInclude.FindStringSubmatch(l)
		if m == nil {
			return "", false
		}
		if file == "" {
			file = m[1]
		}
	}
	return file, file != ""
}

// bookIncludeStep skips a block of include directives.
func bookIncludeStep(base Step, text string) (Step, bool) {
	file, ok := includesOnly(text)
	if !ok {
		return Step{}, false
	}
	name, _, _ := strings.Cut(file, ":")
	s := omitted(base, fmt.Sprintf("an mdBook include of %s: the book shows that file of its repository here, which the page itself does not hold", name))
	s.Kind = StepSkip
	s.Evidence = append(s.Evidence, ruleBookInclude.At(base.Line, textutil.FirstLine(text)))
	return s, true
}

// unhideRust writes the hidden lines of a Rust block's file without their
// mark, with the rule as evidence when there were any.
func unhideRust(steps []Step) {
	for i := range steps {
		s := &steps[i]
		if s.Kind != StepWrite || (s.Lang != "rust" && path.Ext(s.File.Path) != ".rs") {
			continue
		}
		lines := strings.Split(s.Content, "\n")
		hidden := 0
		for k, l := range lines {
			if m := hiddenLine.FindStringSubmatch(l); m != nil {
				lines[k] = m[1] + strings.TrimPrefix(strings.TrimPrefix(l[len(m[1]):], "#"), " ")
				hidden++
			}
		}
		if hidden > 0 {
			s.Content = strings.Join(lines, "\n")
			s.Evidence = append(s.Evidence, ruleHiddenLines.At(s.Line, fmt.Sprintf("%d hidden line(s)", hidden)))
		}
	}
}
