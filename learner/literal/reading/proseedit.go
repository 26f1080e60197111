package reading

import (
	"fmt"
	"path"

	"github.com/smile-loop/smile/learner/literal/proseedit"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

var ruleProseEdit = rule.Register(rule.Rule{ID: "file.prose-edit", Scope: rule.ScopeBefore,
	Doc: "a sentence that asks to change one inline text to another in a file the page wrote (\"change `VAR=0` to `VAR=1` in tr.sh\", in the page's language) is that edit, made before the next step"})

// proseEdit is the step a sentence asks for when it changes text in a file
// an earlier block wrote whole: the file written again with the change.
// False when the sentence asks for no such edit, or its old text is not in
// the file.
func (p *planner) proseEdit(b markdown.Block, sentence string, line int) (Step, bool) {
	e, ok := proseedit.Read(sentence, func(name string) bool { return p.lastWhole(name) >= 0 })
	if !ok {
		return Step{}, false
	}
	prev := p.steps[p.lastWhole(e.File)]
	content, ok := e.Apply(prev.Content)
	if !ok {
		return Step{}, false
	}
	return Step{Kind: StepWrite, Line: line, EndLine: line, Lang: prev.Lang, Prose: b.Text, File: prev.File, Content: content,
		Why:      fmt.Sprintf("the sentence asks to change `%s` to `%s` in %s, which line %d wrote", e.Old, e.New, prev.File.Path, prev.Line),
		Evidence: []rule.Evidence{ruleProseEdit.At(line, e.Verb)}}, true
}

// lastWhole is the index of the latest step that wrote the file named (its
// path or its base name) whole, -1 when none did.
func (p *planner) lastWhole(name string) int {
	for k := len(p.steps) - 1; k >= 0; k-- {
		s := p.steps[k]
		if s.Kind == StepWrite && !s.File.Append && (s.File.Path == name || path.Base(s.File.Path) == name) {
			return k
		}
	}
	return -1
}
