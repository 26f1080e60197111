package reading

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/later"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// ruleQuotedLines reads an untagged block whose every line is a line of a
// file the page wrote before as a quote of that file, there to be explained.
var ruleQuotedLines = rule.Register(rule.Rule{ID: "text.quoted-lines", Scope: rule.ScopeBlock,
	Doc: "an untagged block whose every line is, word for word, a line of a file the page wrote before (`./c-echo ${INPUTS[2]}` from array.sh) quotes that file to explain it: the lines run where the file runs, not at the prompt"})

// quotedLines is the step that skips an untagged block quoting lines of a
// file an earlier step wrote; false when the block is tagged, is one line,
// or one of its lines is in no such file.
func (p *planner) quotedLines(base Step, b markdown.Block) (Step, bool) {
	if b.Info != "" {
		return Step{}, false
	}
	var lines []string
	for _, l := range b.Code {
		if t := strings.TrimSpace(l.Text); t != "" {
			lines = append(lines, t)
		}
	}
	if len(lines) < 2 {
		return Step{}, false // one line may as well be the file's command run by hand
	}
	w, ok := later.Quoted(writesOf(p.steps), lines)
	if !ok {
		return Step{}, false
	}
	s := base
	s.Kind = StepSkip
	s.Why = fmt.Sprintf("lines quoted from %s, which line %d writes: they run where that file runs, not at the prompt", w.Path, w.Line)
	s.Evidence = append(s.Evidence, ruleQuotedLines.At(b.Line, w.Path))
	return s, true
}
