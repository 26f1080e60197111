package reading

import (
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec/markdown"
)

// Command is one top-level command of a code block with the tutorial lines
// it spans (transcript.Command: a transcript's commands are read there).
type Command = transcript.Command

// scriptCommands splits a shell script into its top-level commands
// (shell.Split: a real shell parser; statements that share a line stay
// together, comments and blank lines are not commands).
func scriptCommands(lines []markdown.CodeLine) []Command {
	var cmds []Command
	for _, s := range shell.Split(lines) {
		cmds = append(cmds, Command{Line: s.Line, EndLine: s.EndLine, Text: s.Text})
	}
	return cmds
}
