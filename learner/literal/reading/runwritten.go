package reading

import (
	"fmt"

	"github.com/smile-loop/smile/learner/literal/later"
	"github.com/smile-loop/smile/learner/literal/rule"
)

var ruleRunWritten = rule.Register(rule.Rule{ID: "file.run-as-before", Scope: rule.ScopeSection,
	Doc: "a script the page writes and then tells the reader to run in words (\"when you run this script, you should see ...\"), with no command for it, is run the way the page ran its scripts before (`./hello.sh`, so `./array.sh`), by its #! line when the page ran none"})

// runWrittenScripts adds the runs the page asks for in words after the
// scripts it writes (package later finds them).
func (p *planner) runWrittenScripts(steps []Step) []Step {
	page := later.Page{Blocks: p.blocks, Writes: writesOf(steps), Runs: runsOf(steps)}
	for _, r := range later.RunsInWords(page) {
		steps = append(steps, Step{Kind: StepRun, Line: r.Line, EndLine: r.Line, Lang: "bash",
			Command:  Command{Line: r.Line, EndLine: r.Line, Text: r.Command},
			Why:      fmt.Sprintf("the prose after the script at line %d says the reader runs it; the page gives no command, so it is run as the page ran its scripts", r.Write),
			Evidence: []rule.Evidence{ruleRunWritten.At(r.Line, r.Words)}})
	}
	return steps
}

// runsOf lists the commands steps run, at their lines.
func runsOf(steps []Step) []later.Run {
	var out []later.Run
	for _, s := range steps {
		if s.Kind == StepRun && s.Command.Text != "" {
			out = append(out, later.Run{Line: s.Command.Line, Command: s.Command.Text})
		}
	}
	return out
}
