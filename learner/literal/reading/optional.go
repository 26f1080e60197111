package reading

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// optionalLine is the line of the prose that makes the block after it
// optional (leadin.Optional, in the page's language), 0 when none does: the paragraph's first sentence or the one
// that leads into the block, or a heading above that says "optional".
// ifPresent says the condition is the reader's machine (leadin.IfPresent).
func (c blockContext) optionalLine(headings []markdown.Block) (line int, ifPresent bool) {
	for _, s := range []string{prose.Plain(c.before), prose.Plain(leadin.LastSentence(c.before))} {
		if leadin.Optional(s) {
			return c.beforeLine, leadin.IfPresent(s)
		}
	}
	for _, h := range headings {
		if leadin.OptionalHeading(h.Text) {
			return h.Line, false
		}
	}
	return 0, false
}

// A section that sums up commands (a summary, a cheat sheet, "useful
// commands") shows each in its form on sample names (`archivo.tar`,
// `nome_file`), as a reference list does: a failure for want of them is no
// gap (Step.Reference); a misused command still is.
var ruleReferenceSection = rule.Register(rule.Rule{ID: "section.reference", Scope: rule.ScopeSection,
	Doc: "the commands of a section whose heading names a summary, a cheat sheet, useful commands or tips (in the page's language) are forms on sample names: a failure for want of them is no gap"})

// inReference marks the commands of a block under such a heading.
func (p *planner) inReference(steps []Step) {
	n := len(p.headings)
	if n == 0 || !leadin.ReferenceHeading(p.headings[n-1].Text) {
		return
	}
	for k := range steps {
		if steps[k].Kind == StepRun && !steps[k].Reference {
			steps[k].Reference = true
			steps[k].Evidence = append(steps[k].Evidence, ruleReferenceSection.At(p.headings[n-1].Line, p.headings[n-1].Text))
		}
	}
}

// commentOptional is the line of a command's own comment that makes it
// optional (leadin.OptionalComment: "# may not be installed", "# opcional"),
// at the end of its line or on the comment line right above it; 0 when none.
func commentOptional(b markdown.Block, c Command) int {
	if leadin.OptionalComment(shell.TrailingComment(c.Text)) {
		return c.Line
	}
	for _, l := range b.Code {
		if t := strings.TrimSpace(l.Text); l.Line == c.Line-1 && strings.HasPrefix(t, "#") && leadin.OptionalComment(t) {
			return l.Line
		}
	}
	return 0
}
