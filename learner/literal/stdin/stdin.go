// Package stdin tells how many lines a program reads from its user: a
// Ruby script's `gets`, Python's `input()`, C's `scanf`, Java's Scanner on
// System.in. A transcript of such a program shows what the reader typed on
// the lines right after the command, before what the program printed: those
// lines are its input, not output to compare.
package stdin

import (
	"path"
	"regexp"
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
