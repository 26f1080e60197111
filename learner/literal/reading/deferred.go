package reading

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/later"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// Books walk through a program first and say where it goes only after the
// walk: "So copy that code into a file called `hello.c` and build it." The
// sentence refers back to code already shown (later.RefersBack); the block
// it means is the last one the Student could not place whose language the
// file's name fits. That block becomes the file's write, where it stands.
var ruleDeferredName = rule.Register(rule.Rule{ID: "file.named-later", Scope: rule.ScopeSection,
	Doc: "a later sentence that refers back to code shown above and names its file (\"copy that code into hello.c\") places the last unplaced block of the file's language"})

// placeLater reads paragraph i for a sentence that names, after the fact,
// the file an unplaced block above is; it turns that block's step into the
// file's write.
func (p *planner) placeLater(i int) {
	b := p.blocks[i]
	if b.Kind != markdown.BlockParagraph {
		return
	}
	text := prose.Plain(strings.Join(strings.Fields(b.Text), " "))
	m := later.RefersBack(text)
	if m == "" {
		return
	}
	for _, name := range destination.FilesNamed(text, OwnPath) {
		line := later.LastUnplaced(writesOf(p.steps), unplacedOf(p.steps), b.Line, name, WritesKind)
		for k := range p.steps {
			if s := &p.steps[k]; line > 0 && s.Line == line && s.Kind == StepAmbiguous {
				s.Kind, s.File = StepWrite, Destination{Path: name}
				s.Content = p.blockText(s.Line)
				s.Why = fmt.Sprintf("line %d names it after the fact: %q", b.Line, m)
				s.Evidence = append(s.Evidence, ruleDeferredName.At(b.Line, m))
				return
			}
		}
	}
}

// blockText is the text of the code block at line.
func (p *planner) blockText(line int) string {
	for _, b := range p.blocks {
		if b.Kind == markdown.BlockCode && b.Line == line {
			return b.Text
		}
	}
	return ""
}
