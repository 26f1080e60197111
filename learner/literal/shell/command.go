package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// CommandName is the program a command line starts with, after any
// variable assignments, or "" when it is not a simple command.
func CommandName(command string) string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		fields := strings.Fields(command)
		if len(fields) == 0 {
			return ""
		}
		return fields[0]
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	if call, ok := cmd.(*syntax.CallExpr); ok && len(call.Args) > 0 {
		return call.Args[0].Lit()
	}
	return ""
}

// FirstArgs is the words of the first simple command of a command line (the
// producer of a pipe's output), with quotes removed and a leading sudo
// dropped; words that are not literal (`$HOME`, `$(date)`) keep their
// source text. nil when the line does not parse to a simple command.
func FirstArgs(command string) []string {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) == 0 {
		return nil
	}
	cmd := f.Stmts[0].Cmd
	for {
		b, ok := cmd.(*syntax.BinaryCmd)
		if !ok {
			break
		}
		cmd = b.X.Cmd
	}
	call, ok := cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	var words []string
	for _, w := range call.Args {
		words = append(words, wordText(command, w))
	}
	return withoutSudo(words)
}

// wordText is a word without its quotes when it is literal, else its source.
func wordText(src string, w *syntax.Word) string {
	if lit, ok := Literal(w); ok {
		return lit
	}
	return src[w.Pos().Offset():w.End().Offset()]
}

// Literal is a word without its quotes, and whether it is literal: no
// expansion (`$HOME`, `$(date)`, a glob's brace) in it.
func Literal(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// scopeFlags choose where a setting or an install goes: for the user, the
// system or the current project. Two commands that differ only in them do
// the same thing in another place.
var scopeFlags = map[string]bool{"--global": true, "--system": true, "--local": true, "--user": true, "-g": true, "--worktree": true}

// WithoutScope is the command's words, as written, without its scope
// flags, joined by spaces, and whether it had any; "" when it does not parse
// as one simple command.
func WithoutScope(command string) (string, bool) {
	if len(Calls(command)) != 1 {
		return "", false
	}
	var out []string
	scoped := false
	for _, w := range strings.Fields(command) {
		if scopeFlags[w] {
			scoped = true
			continue
		}
		out = append(out, w)
	}
	return strings.Join(out, " "), scoped
}

// OtherScope reports whether the commands b repeat the commands a, one for
// one, word for word but for scope flags, which one of them has (and are
// not the same lines again).
func OtherScope(a, b []string) bool {
	if len(a) == 0 || len(a) != len(b) || strings.Join(a, "\n") == strings.Join(b, "\n") {
		return false
	}
	scoped := false
	for i := range a {
		wa, sa := WithoutScope(a[i])
		wb, sb := WithoutScope(b[i])
		if wa == "" || wa != wb {
			return false
		}
		scoped = scoped || sa || sb
	}
	return scoped
}
