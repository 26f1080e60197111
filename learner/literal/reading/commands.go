package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"mvdan.cc/sh/v3/syntax"

	"github.com/smile-loop/smile/learner/literal/expect"
)

// Command is one top-level command of a code block with the tutorial lines it
// spans. Multi-line commands (continuations, heredocs, if/for/while blocks,
// functions) are one command.
type Command struct {
	Line    int // the tutorial line of its first line
	EndLine int
	Text    string
	// Expected is the output a console block shows after the command.
	Expected []expect.Line
	// Folder is the folder a transcript's prompt shows for it (`/home` in
	// `host:/home$ ls`), "" when the prompt shows none.
	Folder string
}

// promptRe is a shell prompt at the start of a transcript line: `$ `, a
// virtualenv's `(venv) $ `, `user@host:~/app$ `, `host:~/app$ ` (a host and
// its folder, no user), zsh's `% `.
// A `%` counts only at the very start of the line: curl's progress header
// ("  % Total    % Received") is output.
var promptRe = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s+)?(?:[\w.-]+@[\w.-]+(?::[^\s$]*)?\s?|[\w.-]+:[~/][^\s$]*)?\$(?: |$)|^%(?: |$)`)

// hasPrompt reports whether a code line starts with a shell prompt.
func hasPrompt(text string) bool { return promptRe.MatchString(text) }

func stripPrompt(text string) string {
	if m := promptRe.FindString(text); m != "" {
		return text[len(m):]
	}
	return strings.TrimLeft(text, " \t")
}

// scriptCommands splits a shell script into its top-level commands with a
// real shell parser. Statements that share a line stay together (the line is
// one instruction); comments and blank lines are not commands. A script the
// parser rejects is split line by line (joining `\` continuations), so each
// line still fails on its own with the shell's own error.
func scriptCommands(lines []markdown.CodeLine) []Command {
	src := make([]string, len(lines))
	for i, l := range lines {
		src[i] = l.Text
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(strings.Join(src, "\n")), "")
	if err != nil || len(f.Stmts) == 0 {
		return lineCommands(lines)
	}
	// Group statements into line ranges: a statement that starts on a line
	// the previous group still covers joins that group.
	type group struct{ start, end int } // 1-based indexes into lines
	var groups []group
	for _, stmt := range f.Stmts {
		start, end := int(stmt.Pos().Line()), maxLine(stmt)
		if n := len(groups); n > 0 && start <= groups[n-1].end {
			groups[n-1].end = max(groups[n-1].end, end)
			continue
		}
		groups = append(groups, group{start, end})
	}
	var cmds []Command
	for i, g := range groups {
		last := len(lines)
		if i+1 < len(groups) {
			last = groups[i+1].start - 1
		}
		// Heredoc bodies end after the statement's last node: keep the lines
		// up to the next command, less trailing blanks and comments.
		for last > g.end && isBlankOrComment(lines[last-1].Text) {
			last--
		}
		last = max(last, g.end)
		var text []string
		for _, l := range lines[g.start-1 : last] {
			text = append(text, l.Text)
		}
		cmds = append(cmds, Command{Line: lines[g.start-1].Line, EndLine: lines[last-1].Line, Text: strings.Join(text, "\n")})
	}
	return cmds
}

// maxLine is the last line any node of the statement reaches.
func maxLine(stmt *syntax.Stmt) int {
	end := int(stmt.End().Line())
	syntax.Walk(stmt, func(n syntax.Node) bool {
		if n != nil && n.End().IsValid() {
			end = max(end, int(n.End().Line()))
		}
		return true
	})
	return end
}

func isBlankOrComment(text string) bool {
	t := strings.TrimSpace(text)
	return t == "" || strings.HasPrefix(t, "#")
}

// lineCommands is the fallback split: one command per line, `\` joining.
func lineCommands(lines []markdown.CodeLine) []Command {
	var cmds []Command
	var cur *Command
	for _, l := range lines {
		if cur == nil {
			if isBlankOrComment(l.Text) {
				continue
			}
			cmds = append(cmds, Command{Line: l.Line, EndLine: l.Line, Text: l.Text})
			cur = &cmds[len(cmds)-1]
		} else {
			cur.Text += "\n" + l.Text
			cur.EndLine = l.Line
		}
		if !strings.HasSuffix(strings.TrimRight(l.Text, " \t"), `\`) {
			cur = nil
		}
	}
	return cmds
}

// consoleCommands reads a terminal transcript: lines starting with `$ ` are
// commands (a command that is not complete, ending in `\` or with an open
// heredoc, quote or block, takes the following lines, less a `> ` prompt),
// `#` lines are comments, and every other line is output the preceding
// command should print. Output before the first command is returned apart:
// it belongs to the command run before the block.
func consoleCommands(lines []markdown.CodeLine) (leading []expect.Line, cmds []Command) {
	lines = plainTranscript(lines)
	var cur *Command
	open := false // cur still needs lines
	for _, l := range lines {
		switch {
		case cur != nil && open:
			t := l.Text
			if s := strings.TrimLeft(t, " \t"); strings.HasPrefix(s, "> ") || s == ">" {
				t = strings.TrimPrefix(strings.TrimPrefix(s, ">"), " ")
			}
			cur.Text += "\n" + t
			cur.EndLine = l.Line
		case hasPrompt(l.Text):
			cmds = append(cmds, Command{Line: l.Line, EndLine: l.Line, Text: stripPrompt(l.Text)})
			cur = &cmds[len(cmds)-1]
		case strings.HasPrefix(strings.TrimSpace(l.Text), "#"):
			continue
		case cur != nil:
			cur.Expected = append(cur.Expected, expect.Line{Line: l.Line, Text: l.Text})
			continue
		default:
			leading = append(leading, expect.Line{Line: l.Line, Text: l.Text})
			continue
		}
		open = incomplete(cur.Text)
	}
	intoOwnHome(cmds, lines)
	// Drop empty commands (a bare `$`).
	kept := cmds[:0]
	for _, c := range cmds {
		if strings.TrimSpace(c.Text) != "" {
			kept = append(kept, c)
		}
	}
	return leading, kept
}

// incomplete reports whether shell text needs more lines to be a command.
func incomplete(text string) bool {
	if strings.HasSuffix(strings.TrimRight(text, " \t"), `\`) {
		return true
	}
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text+"\n"), "")
	return err != nil && syntax.IsIncomplete(err)
}

var (
	// styleTag: the markup animated-terminal widgets put in a transcript to colour it.
	styleTag = regexp.MustCompile(`(?i)</?(?:font|span|b|u|i|em|strong)\b[^>]*>`)
	entities = strings.NewReplacer("&apos;", "'", "&quot;", `"`, "&lt;", "<", "&gt;", ">", "&amp;", "&", "&#39;", "'")
)

// plainTranscript removes colouring markup from a transcript, so that its
// commands and output read as they appear in a terminal.
func plainTranscript(lines []markdown.CodeLine) []markdown.CodeLine {
	marked := false
	for _, l := range lines {
		if styleTag.MatchString(l.Text) {
			marked = true
			break
		}
	}
	if !marked {
		return lines
	}
	out := make([]markdown.CodeLine, len(lines))
	for i, l := range lines {
		out[i] = markdown.CodeLine{Line: l.Line, Text: entities.Replace(styleTag.ReplaceAllString(l.Text, ""))}
	}
	return out
}

var (
	// promptFolder: the folder a `host:folder$ ` or `user@host:folder$ ` prompt shows.
	promptFolder = regexp.MustCompile(`^\s*(?:\([\w.-]+\)\s+)?(?:[\w.-]+@)?[\w.-]+:([~/][^\s$]*)\$`)
	// cdName moves into one folder named relative to the current one.
	cdName = regexp.MustCompile(`^cd\s+[\w.-]+/?$`)
)

// intoOwnHome notes each command's prompt folder and reads a transcript's `cd NAME` from a folder outside the home
// (`/home`) whose next prompt shows `~`: the author went into their own home
// folder, whose name is theirs; the reader goes into their own, so the
// command becomes `cd ~`.
func intoOwnHome(cmds []Command, lines []markdown.CodeLine) {
	folder := map[int]string{}
	for _, l := range lines {
		if m := promptFolder.FindStringSubmatch(l.Text); m != nil {
			folder[l.Line] = m[1]
		}
	}
	for i := range cmds {
		cmds[i].Folder = folder[cmds[i].Line]
	}
	for i := 0; i+1 < len(cmds); i++ {
		from, to := folder[cmds[i].Line], folder[cmds[i+1].Line]
		if strings.HasPrefix(from, "/") && to == "~" && cdName.MatchString(strings.TrimSpace(cmds[i].Text)) && strings.TrimSpace(cmds[i].Text) != "cd .." {
			cmds[i].Text = "cd ~"
		}
	}
}
