package transcript

import "regexp"

// A program fed a page's input answers an error and goes on: Python's REPL
// prints a traceback and exits 0 when its input ends, ghci a parse error,
// sqlite3 a "Parse error". Its exit code cannot tell a page's mistake; its
// answer can. replErrors are each program's marks of an error answer.
var replErrors = map[string]*regexp.Regexp{
	"python3":   regexp.MustCompile(`(?m)^Traceback \(most recent call last\):|^[A-Z]\w*(?:Error|Exception): `),
	"node":      regexp.MustCompile(`(?m)^Uncaught \w*(?:Error|Exception)\b|^\w*Error: .*\n\s+at `),
	"irb":       regexp.MustCompile(`(?m)\((?:irb)\):\d+:in .*\((?:\w+::)*\w*Error\)|^\w*Error \(`),
	"iex":       regexp.MustCompile(`(?m)^\*\* \((?:\w+\.)*\w*Error\)`),
	"ghci":      regexp.MustCompile(`(?m)^<interactive>:\d+:\d+: error|^\S+\.hs:\d+:\d+: error`),
	"sqlite3":   regexp.MustCompile(`(?m)^(?:Parse error|Runtime error|Error: (?:in prepare, )?)`),
	"psql":      regexp.MustCompile(`(?m)^(?:psql:\S+ )?ERROR: `),
	"mysql":     regexp.MustCompile(`(?m)^ERROR \d+ \(\w+\)`),
	"redis-cli": regexp.MustCompile(`(?m)^\(error\) `),
	"lua":       regexp.MustCompile(`(?m)^stdin:\d+: `),
	"R":         regexp.MustCompile(`(?m)^Error(?: in .*)?: `),
	"julia":     regexp.MustCompile(`(?m)^ERROR: `),
	"tclsh":     regexp.MustCompile(`(?m)^(?:invalid command name "|can't read "|wrong # args: |syntax error in expression )`),
}

// ErrorAnswer is the first line of the program's output that answers an
// error, "" when it answered none (or SMILE knows no mark for it).
func (p *Program) ErrorAnswer(output string) string {
	re := replErrors[p.Name]
	if re == nil {
		return ""
	}
	loc := re.FindStringIndex(output)
	if loc == nil {
		return ""
	}
	end := loc[0]
	for end < len(output) && output[end] != '\n' {
		end++
	}
	return output[loc[0]:end]
}
