package reading

import (
	"fmt"
	"path"

	"github.com/smile-loop/smile/learner/literal/makerule"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// A page shows a program and then a Makefile whose rule builds it (`hello:
// hello.c`) without ever saying "save this as hello.c": the build file the
// page writes names its sources, so the program is the source of its
// language it names. What depends on what places the block. A command that
// merely uses a name the page never gave (`cat hello.py` after an unnamed
// block) is still the page's gap: it forgot the file's name.
var ruleUsedLater = rule.Register(rule.Rule{ID: "file.used-later", Scope: rule.ScopeStep,
	Doc: "an unplaced block is the source file of its language that a Makefile the page writes builds from and the page never writes (`hello: hello.c`): the last such block before the Makefile"})

// placeUsedLater writes each unplaced block that a later Makefile names as
// a prerequisite of its language (and no step writes) to that file.
func placeUsedLater(steps []Step) {
	written := map[string]bool{}
	for _, s := range steps {
		if s.Kind == StepWrite {
			written[path.Clean(s.File.Path)] = true
		}
	}
	for k, user := range steps {
		if user.Kind != StepWrite || !makerule.IsMakefile(user.File.Path) {
			continue
		}
		for _, name := range makerule.Prerequisites(user.Content) {
			if j := lastUnplaced(steps[:k], path.Clean(name)); j >= 0 && !written[path.Clean(name)] {
				s := &steps[j]
				s.Kind, s.File = StepWrite, Destination{Path: path.Clean(name)}
				s.Why = fmt.Sprintf("line %d uses %s, which the page never writes: this is the %s program it means", user.Line, s.File.Path, s.Lang)
				s.Evidence = append(s.Evidence, ruleUsedLater.At(user.Line, s.File.Path))
				written[s.File.Path] = true
			}
		}
	}
}

// lastUnplaced is the last unplaced block of steps in name's language, or
// -1 when there is none since the page last wrote name.
func lastUnplaced(steps []Step, name string) int {
	for j := len(steps) - 1; j >= 0; j-- {
		s := steps[j]
		if s.Kind == StepWrite && path.Clean(s.File.Path) == name {
			return -1
		}
		if s.Kind == StepAmbiguous && s.Content != "" && WritesKind(s.Lang, path.Base(name)) {
			return j
		}
	}
	return -1
}
