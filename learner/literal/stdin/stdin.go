// Package stdin tells how many lines a program reads from its user: a
// Ruby script's `gets`, Python's `input()`, C's `scanf`, Java's Scanner on
// System.in. A transcript of such a program shows what the reader typed on
// the lines right after the command, before what the program printed: those
// lines are its input, not output to compare.
package stdin

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
)

// reads finds, per file extension, a call that reads a line from the user.
var reads = map[string]*regexp.Regexp{
	".rb":   regexp.MustCompile(`\bgets\b|\bSTDIN\.|\$stdin\.`),
	".py":   regexp.MustCompile(`\binput\s*\(|\bsys\.stdin\.readline\s*\(`),
	".pl":   regexp.MustCompile(`<STDIN>`),
	".sh":   regexp.MustCompile(`(?m)^\s*read\s+(?:-[a-z]+\s+)*[A-Za-z_]\w*`),
	".c":    regexp.MustCompile(`\bscanf\s*\(|\bgetchar\s*\(|\bfgets\s*\([^)]*\bstdin\b`),
	".cpp":  regexp.MustCompile(`\bcin\s*>>|\bgetline\s*\(\s*(?:std::)?cin\b`),
	".java": regexp.MustCompile(`\.next(?:Int|Line|Double|Float|Long)?\s*\(`),
	".go":   regexp.MustCompile(`\bfmt\.Scan(?:ln|f)?\s*\(|\.ReadString\s*\(\s*'\\n'\s*\)`),
	".lua":  regexp.MustCompile(`\bio\.read\s*\(`),
	".php":  regexp.MustCompile(`\bfgets\s*\(\s*STDIN\b|\breadline\s*\(`),
}

// Reads is how many lines the program in file (its text given) reads from
// its user, counting each reading call once (a call in a loop is one): 0
// for a program that reads none, or a language this package does not know.
func Reads(file, text string) int {
	re, ok := reads[path.Ext(file)]
	if !ok {
		return 0
	}
	return len(re.FindAllStringIndex(text, -1))
}

// Typed splits the first lines of a transcript's output into the n
// values typed and what the program shows: its questions, which end in `:`
// or `?`, and all that follows the last value. ok is false when a line
// before the n-th value is neither a question nor a bare value.
func Typed(lines []expect.Line, n int) (typed, shown []expect.Line, ok bool) {
	for k, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case len(typed) == n:
			return typed, append(shown, lines[k:]...), true
		case strings.HasSuffix(t, ":") || strings.HasSuffix(t, "?") || strings.HasSuffix(t, "："):
			shown = append(shown, l)
		case bare([]expect.Line{l}):
			typed = append(typed, l)
		default:
			return nil, nil, false
		}
	}
	if len(typed) < n {
		return nil, nil, false
	}
	return typed, shown, true
}

// bare: lines a reader types, not a program's question.
func bare(lines []expect.Line) bool {
	for _, l := range lines {
		if t := strings.TrimSpace(l.Text); t == "" || strings.ContainsAny(t, ":?") || len(t) > 40 {
			return false
		}
	}
	return true
}
