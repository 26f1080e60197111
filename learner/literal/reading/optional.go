package reading

import (
	"regexp"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// optionalIntro is a sentence that makes the step after it optional: an
// extra the reader may take or leave ("Optionally, ...", "You can also
// ...", "If you want a PDF, also install ...", "(optional)"). Unlike an
// alternative, an optional step is followed; when it fails, the failure is
// a minor note and the Student goes on, since nothing on the path needs it.
var optionalIntro = regexp.MustCompile(`(?i)^(?:\(optional\)|optional(?:ly)?\b|you\s+(?:could|can|may|might)\s+also\b|` +
	`(?:also,?\s+)?if\s+you\s+(?:want|wish|would\s+like|'d\s+like|like|need)\b|(?:also,?\s+)?you\s+(?:can|could|may)\s+(?:also\s+)?(?:use|try|run)\b|` +
	`also,?\s+instead\s+of\b)|\((?:optional|this\s+step\s+is\s+optional)\)|\bthis\s+step\s+is\s+optional\b`)

// optionalHeading is a heading for an optional part: "Optional: a PDF",
// "Building the docs (optional)".
var optionalHeading = regexp.MustCompile(`(?i)^optional\b|\(optional\)\s*$|\boptional\s+steps?\b`)

// optionalLine is the line of the prose that makes the block after it
// optional, 0 when none does: the paragraph's first sentence or the one
// that leads into the block, or a heading above that says "optional".
func (c blockContext) optionalLine(headings []markdown.Block) int {
	for _, s := range []string{prose.Plain(c.before), prose.Plain(leadin.LastSentence(c.before))} {
		if optionalIntro.MatchString(s) {
			return c.beforeLine
		}
	}
	for _, h := range headings {
		if optionalHeading.MatchString(h.Text) {
			return h.Line
		}
	}
	return 0
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
