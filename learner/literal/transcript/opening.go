package transcript

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// A page often writes a whole session with a program in one block, without
// its prompts: the command that starts the program (`sqlite3 notes.db`,
// `psql -U app`, `python3`) on the first line, then what the reader types
// into it (SQL, the client's dot or backslash commands, the language's
// statements), maybe a line that leaves it (`.quit`, `\q`, `exit()`) and
// the shell commands after that. A reader runs the first line at the shell,
// types the rest at the program's prompt, and is back at the shell after
// the line that leaves it.

// RuleOpensSession is the reading of such a block.
var RuleOpensSession = rule.Register(rule.Rule{ID: "repl.opened-in-block", Scope: rule.ScopeBlock,
	Doc: "a block whose first line starts an interactive program (`sqlite3 notes.db`, `psql`, `python3`) and whose next lines are in that program's language (the block's tag, or the client's own commands) is one session: the first line runs at the shell, the rest is typed into the program up to a line that leaves it, and shell commands after that run at the shell again"})

// Opening is a block read as a session its first line opens.
type Opening struct {
	// Command is the first line, which starts Program at the shell.
	Command markdown.CodeLine
	Program *Program
	// Typed are the lines typed into the program, the one that leaves it
	// included.
	Typed []markdown.CodeLine
	// After are the lines after the program was left, back at the shell.
	After []markdown.CodeLine
}

// OpensSession reads a block without prompts as a session its first line
// opens, in a block tagged lang. isShell says whether a line is a shell
// command a reader knows (it starts a known program): no typed line may be
// one unless the tag is the program's own language, and every line after
// the program is left must be one.
func OpensSession(code []markdown.CodeLine, lang string, isShell func(text string) bool) (Opening, bool) {
	var lines []markdown.CodeLine
	for _, l := range code {
		if strings.TrimSpace(l.Text) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) < 2 {
		return Opening{}, false
	}
	first := strings.TrimSpace(lines[0].Text)
	prog := Started(first)
	if prog == nil {
		return Opening{}, false
	}
	typed, after := lines[1:], []markdown.CodeLine(nil)
	for k, l := range typed {
		if leaves.MatchString(l.Text) {
			typed, after = typed[:k+1], typed[k+1:]
			break
		}
	}
	body := typed
	if n := len(body); leaves.MatchString(body[n-1].Text) {
		body = body[:n-1]
	}
	if len(body) == 0 {
		return Opening{}, false
	}
	own := prog.Speaks(lang)
	if !own && !prog.Commands(body) {
		return Opening{}, false
	}
	for _, l := range body {
		if !own && isShell(l.Text) {
			return Opening{}, false
		}
	}
	for _, l := range after {
		if !isShell(l.Text) {
			return Opening{}, false
		}
	}
	return Opening{Command: markdown.CodeLine{Line: lines[0].Line, Text: first}, Program: prog, Typed: typed, After: after}, true
}
