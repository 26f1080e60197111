package reading

import (
	"path"
	"strings"

	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/stdin"
)

// A transcript of a program the page wrote that reads from its user (`ruby
// score.rb`, whose script calls gets) shows what the reader typed on the
// lines right after the command, then what the program printed: `56`, then
// `soso`. Those first lines are its input.
var ruleProgramReads = rule.Register(rule.Rule{ID: "input.program-reads", Scope: rule.ScopeLine,
	Doc: "in a transcript of a program the page wrote that reads what its user types (gets, input(), scanf), the first shown lines after the command, one per read, are typed into it, not output"})

// feedProgram gives a transcript's command that runs such a program the
// lines it reads, when they are bare values (no `:` or `?`, which a
// program's own question would print). A question the program prints
// before it reads (`Your age:`) stays as its output, and the value after it
// is typed. The program is the file the page last wrote by the name the
// command gives.
func (p *planner) feedProgram(s *Step) {
	if s.Kind != StepRun || s.Stdin != "" {
		return
	}
	for _, call := range shell.Calls(s.Command.Text) {
		for _, w := range call {
			n := stdin.Reads(w, p.written(path.Clean(w), s.Line))
			if n == 0 || n >= len(s.Command.Expected) {
				continue
			}
			typed, shown, ok := stdin.Typed(s.Command.Expected, n)
			if !ok {
				continue
			}
			for _, l := range typed {
				s.Stdin += strings.TrimSpace(l.Text) + "\n"
			}
			s.Evidence = append(s.Evidence, ruleProgramReads.At(typed[0].Line, path.Base(w)))
			s.Command.Expected = shown
			return
		}
	}
}

// written is what the page last wrote whole to file before line, "" when
// nothing.
func (p *planner) written(file string, line int) string {
	for k := len(p.steps) - 1; k >= 0; k-- {
		if s := p.steps[k]; s.Line < line && s.Kind == StepWrite && !s.File.Append && path.Clean(s.File.Path) == file {
			return s.Content
		}
	}
	return ""
}
