// Package book reads the markup of books built with mdBook (the Rust book
// and its many translations, and others), which a reader never sees as
// text:
//
//   - In a Rust block, a line that starts with `# ` (or is only `#`) is
//     hidden when the page is rendered but is part of the program: the
//     compiler sees it. Rust itself has no line that starts so (attributes
//     start with `#[` or `#![`), so the file the block is written to holds
//     those lines without the mark (Unhide).
//   - `{{#include FILE}}` and `{{#rustdoc_include FILE:ANCHOR}}` stand for
//     the content of another file of the book's repository, shown in its
//     place when the book is built. The directive is not code: a block made
//     only of directives shows code the page does not hold (IncludesOnly).
package book

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/step"
)

// The rules, for the reader's evidence.
var (
	RuleHiddenLines = rule.Register(rule.Rule{ID: "book.hidden-lines", Scope: rule.ScopeBlock,
		Doc: "in a Rust block, lines starting with `# ` are hidden from the rendered book but part of the program: written to the file without the mark"})
	RuleInclude = rule.Register(rule.Rule{ID: "book.include", Scope: rule.ScopeBlock,
		Doc: "a block made only of mdBook include directives ({{#include FILE}}, {{#rustdoc_include FILE}}) shows another file of the book's repository: not written as code"})
)

var (
	include    = regexp.MustCompile(`^\s*\{\{#(?:include|rustdoc_include|playground)\s+([^}\s]+)[^}]*\}\}\s*$`)
	hiddenLine = regexp.MustCompile(`^(\s*)#(?: |$)`)
)

// IncludesOnly says, for a block made only of include directives (and
// blank lines), the file the first one names, without its anchor or lines.
func IncludesOnly(text string) (string, bool) {
	file := ""
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		m := include.FindStringSubmatch(l)
		if m == nil {
			return "", false
		}
		if file == "" {
			file, _, _ = strings.Cut(m[1], ":")
		}
	}
	return file, file != ""
}

// Unhide is a Rust block's text with its hidden lines unmarked, and how
// many there were.
func Unhide(text string) (string, int) {
	lines := strings.Split(text, "\n")
	hidden := 0
	for k, l := range lines {
		if m := hiddenLine.FindStringSubmatch(l); m != nil {
			lines[k] = m[1] + strings.TrimPrefix(strings.TrimPrefix(l[len(m[1]):], "#"), " ")
			hidden++
		}
	}
	return strings.Join(lines, "\n"), hidden
}

// IncludeReason says why a block of mdBook include directives is not the
// page's code (it shows another file of the book's repository), with the
// rule as evidence; "" when the block is not one.
func IncludeReason(text string, line int) (string, []rule.Evidence) {
	file, ok := IncludesOnly(text)
	if !ok {
		return "", nil
	}
	return fmt.Sprintf("an mdBook include of %s: the book shows that file of its repository here, which the page itself does not hold", file),
		[]rule.Evidence{RuleInclude.At(line, textutil.FirstLine(text))}
}

// UnhideRust writes the hidden lines of a Rust block's file without their
// mark, with the rule as evidence when there were any.
func UnhideRust(steps []step.Step) {
	for i := range steps {
		s := &steps[i]
		if s.Kind != step.Write || (s.Lang != "rust" && path.Ext(s.File.Path) != ".rs") {
			continue
		}
		if content, hidden := Unhide(s.Content); hidden > 0 {
			s.Content = content
			s.Evidence = append(s.Evidence, RuleHiddenLines.At(s.Line, fmt.Sprintf("%d hidden line(s)", hidden)))
		}
	}
}
