package reading

import (
	"fmt"

	"github.com/smile-loop/smile/learner/literal/later"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// A program the page never names may be the source a Makefile it writes
// later builds from: what depends on what places the block (later.Sources).
var ruleUsedLater = rule.Register(rule.Rule{ID: "file.used-later", Scope: rule.ScopeStep,
	Doc: "an unplaced block is the source file of its language that a Makefile the page writes builds from and the page never writes (`hello: hello.c`): the last such block before the Makefile"})

// placeUsedLater writes each unplaced block that a later Makefile names as
// a prerequisite of its language (and no step writes) to that file.
func placeUsedLater(steps []Step) {
	for _, src := range later.Sources(writesOf(steps), unplacedOf(steps), WritesKind) {
		for k := range steps {
			if s := &steps[k]; s.Kind == StepAmbiguous && s.Line == src.Line {
				s.Kind, s.File = StepWrite, Destination{Path: src.File}
				s.Why = fmt.Sprintf("line %d uses %s, which the page never writes: this is the %s program it means", src.User, src.File, s.Lang)
				s.Evidence = append(s.Evidence, ruleUsedLater.At(src.User, src.File))
			}
		}
	}
}

// writesOf lists the files steps write, with their text.
func writesOf(steps []Step) []later.Write {
	var out []later.Write
	for _, s := range steps {
		if s.Kind == StepWrite {
			out = append(out, later.Write{Line: s.Line, Path: s.File.Path, Content: s.Content})
		}
	}
	return out
}

// unplacedOf lists the blocks steps could not place, with their code.
func unplacedOf(steps []Step) []later.Unplaced {
	var out []later.Unplaced
	for _, s := range steps {
		if s.Kind == StepAmbiguous {
			out = append(out, later.Unplaced{Line: s.Line, Lang: s.Lang, Content: s.Content})
		}
	}
	return out
}
