package reading

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// A block that opens with a shebang for a program other than a shell
// (`#!/usr/bin/env bats`, `#!/usr/bin/python3`) is a script for that program:
// nobody types a shebang at a prompt, and its lines (`@test "x" {`, Python)
// are not shell commands, whatever the block's tag. Its file is the one a
// later command gives that program (`bats addition.bats`); with none, the
// block is left unplaced, never run line by line.
var (
	ruleInterpreterScript = rule.Register(rule.Rule{ID: "file.interpreter-script", Scope: rule.ScopeBlock,
		Doc: "a block opening with a shebang for a program other than a shell is that program's script, written to the file a later command runs it on, never typed into the shell"})
)

// interpreterScript reads block i as a script for the program its shebang
// names, when it has one.
func (p *planner) interpreterScript(base Step, i int) (Step, bool) {
	prog := blockshape.ShebangProgram(p.blocks[i].Code)
	if prog == "" {
		return Step{}, false
	}
	s := base
	s.Evidence = append(s.Evidence, ruleInterpreterScript.At(base.Line, "#!"+prog))
	if names := destination.FilesNamed(leadin.LastSentence(p.context(i).before), func(string) bool { return true }); len(names) == 1 {
		s.Kind, s.File, s.Content = StepWrite, Destination{Path: names[0]}, p.blocks[i].Text
		s.Why = fmt.Sprintf("a %s script (its shebang), which the sentence before it names %s", prog, names[0])
		return s, true
	}
	if name, line := p.runLater(prog, i); name != "" {
		s.Kind, s.File, s.Content = StepWrite, Destination{Path: name}, p.blocks[i].Text
		s.Why = fmt.Sprintf("a %s script (its shebang), which line %d runs as %s", prog, line, name)
		return s, true
	}
	s.Kind, s.Content = StepAmbiguous, p.blocks[i].Text
	s.Why = fmt.Sprintf("a %s script (its shebang) whose file the page never names: not shell commands", prog)
	return s, true
}

// runLater is the file a command in a block after i gives prog (`bats
// addition.bats`: its first argument that is no option), and its line.
func (p *planner) runLater(prog string, i int) (string, int) {
	for _, b := range p.blocks[i+1:] {
		if b.Kind != markdown.BlockCode {
			continue
		}
		for _, l := range b.Code {
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.Text), "$ "))
			args := shell.FirstArgs(text)
			if len(args) < 2 || path.Base(args[0]) != prog {
				continue
			}
			for _, a := range args[1:] {
				if !strings.HasPrefix(a, "-") && OwnPath(a) {
					return a, l.Line
				}
			}
		}
	}
	return "", 0
}
