package reading

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// "If your main file is `app.js`, you can run it with `node app.js`": the
// sentence supposes a file of the reader's own, and the command shows how
// to use it. When no step before has made that file, the command is the
// reader's to run on their own file, not a step of this page.
var ruleSupposedFile = rule.Register(rule.Rule{ID: "usage.supposed-file", Scope: rule.ScopeBefore,
	Doc: "a command after a sentence that supposes the reader's own file (\"if your file is app.js, run\") that runs a file no step before made is a usage example, not a step"})

// supposedFile omits the commands of a block led in by a supposition whose
// file argument no step before made.
func (p *planner) supposedFile(steps []Step, ctx blockContext) []Step {
	last := prose.Plain(leadin.LastSentence(ctx.before))
	if !leadin.Supposes.MatchString(last) {
		return p.supposedInSection(steps)
	}
	for k := range steps {
		if steps[k].Kind != StepRun {
			continue
		}
		words := shell.FirstArgs(steps[k].Command.Text)
		for _, w := range words[min(1, len(words)):] {
			if shell.ScriptArg(w) && !p.madeBefore(w, steps[:k]) && !strings.HasPrefix(w, "-") {
				ev := ruleSupposedFile.At(ctx.beforeLine, textutil.FirstWord(last))
				steps[k] = omitted(steps[k], fmt.Sprintf("a usage example: the sentence before supposes the reader's own %s, which no step made", path.Base(w)))
				steps[k].Evidence = append(steps[k].Evidence, ev)
				break
			}
		}
	}
	return steps
}

// supposedInSection omits the commands that run the file a sentence earlier
// in the section supposes the reader has ("suppose you have a file named
// myscript.sh", then `bash myscript.sh` under "way 2"), when no step made
// it.
func (p *planner) supposedInSection(steps []Step) []Step {
	if p.supposed == "" {
		return steps
	}
	for k := range steps {
		if steps[k].Kind != StepRun || p.madeBefore(p.supposed, steps[:k]) {
			continue
		}
		for _, w := range shell.FirstArgs(steps[k].Command.Text) {
			if path.Base(strings.TrimPrefix(w, "./")) == path.Base(p.supposed) {
				ev := ruleSupposedFile.At(p.supposedLine, p.supposed)
				steps[k] = omitted(steps[k], fmt.Sprintf("a usage example: a sentence of the section supposes the reader's own %s, which no step made", path.Base(p.supposed)))
				steps[k].Evidence = append(steps[k].Evidence, ev)
				break
			}
		}
	}
	return steps
}
