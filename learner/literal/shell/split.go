package shell

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/smile-loop/smile/spec/markdown"
)

// Span is one top-level command of a script with the lines of the page it
// spans.
type Span struct {
	Line, EndLine int
	Text          string
}

// Split splits a shell script into its top-level commands with a
// real shell parser. Statements that share a line stay together (the line is
// one instruction); comments and blank lines are not commands. A script the
// parser rejects is split line by line (joining `\` continuations), so each
// line still fails on its own with the shell's own error. Lines typed into
// a command that writes a file from the keyboard go with it (typed.go), as
// do the lines typed into another user's shell (nested.go).
func Split(lines []markdown.CodeLine) []Span {
	if at, next, span, ok := nestedShell(lines); ok {
		spans := append(Split(lines[:at]), span)
		return append(spans, Split(lines[next:])...)
	}
	if at, next, span, ok := typedInput(lines); ok {
		spans := append(Split(lines[:at]), span)
		return append(spans, Split(lines[next:])...)
	}
	src := make([]string, len(lines))
	for i, l := range lines {
		src[i] = l.Text
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(strings.Join(src, "\n")), "")
	if err != nil || len(f.Stmts) == 0 {
		return lineSpans(lines)
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
	var cmds []Span
	for i, g := range groups {
		last := len(lines)
		if i+1 < len(groups) {
			last = groups[i+1].start - 1
		}
		// Heredoc bodies end after the statement's last node: keep the lines
		// up to the next command, less trailing blanks and comments.
		for last > g.end && BlankOrComment(lines[last-1].Text) {
			last--
		}
		last = max(last, g.end)
		var text []string
		for _, l := range lines[g.start-1 : last] {
			text = append(text, l.Text)
		}
		cmds = append(cmds, Span{Line: lines[g.start-1].Line, EndLine: lines[last-1].Line, Text: strings.Join(text, "\n")})
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

// BlankOrComment: a line of a script that is no command.
func BlankOrComment(text string) bool {
	t := strings.TrimSpace(text)
	return t == "" || strings.HasPrefix(t, "#")
}

// lineSpans is the fallback split: one command per line, `\` joining.
func lineSpans(lines []markdown.CodeLine) []Span {
	var cmds []Span
	var cur *Span
	for _, l := range lines {
		if cur == nil {
			if BlankOrComment(l.Text) {
				continue
			}
			cmds = append(cmds, Span{Line: l.Line, EndLine: l.Line, Text: l.Text})
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

// WithoutTrailingComment is command less the comment that ends its last line
// (`apt-get install nginx # Ubuntu`): input or a redirection appended to the
// command would land inside the comment and never reach it. A command the
// parser rejects is returned as it is.
func WithoutTrailingComment(command string) string {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		return command
	}
	end := int(maxLine(f.Stmts[len(f.Stmts)-1]))
	cut := -1
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.Comment); ok && int(c.Pos().Line()) >= end {
			if off := int(c.Pos().Offset()); cut < 0 || off < cut {
				cut = off
			}
		}
		return true
	})
	if cut < 0 || strings.Contains(command[cut:], "\n") {
		return command
	}
	return strings.TrimRight(command[:cut], " \t")
}

// Parses reports whether text is a script a shell can parse: a block tagged
// as shell that holds a config file (`server {` ... `}`) or another
// language's source (assembler's `; comments`) is not.
func Parses(text string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	return err == nil
}

// TrailingComment is the text of the comment that ends command's last line,
// without its `#` ("" when there is none): what WithoutTrailingComment
// leaves out.
func TrailingComment(command string) string {
	rest := strings.TrimPrefix(command, WithoutTrailingComment(command))
	if rest == command {
		return ""
	}
	return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "#"))
}

// AlwaysFalse fails by the shell's own rules (`false && echo never`, shown to demonstrate `&&`): not a gap.
var AlwaysFalse = regexp.MustCompile(`^(?:!\s+true|false)(?:\s*&&[^|;&\n]+)*$`)
