package reading

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/spec"
)

// A block the tutorial types into a program that is waiting for input (a
// REPL, `cat > file`, a script that reads standard input) is that program's
// standard input: it is not run as shell and not compared.
var (
	inputIntro = regexp.MustCompile(`(?i)\b(?:type|enter|paste|input)\b|\bat the (?:\S+\s+)?prompt\b|\bin(?:to)? the (?:repl|interpreter|console|shell|prompt)\b`)
	// interactive programs, started with nothing to run and no input given.
	interactive = regexp.MustCompile(`^(?:python[\d.]*|ipython3?|node|deno|irb|ruby|ghci|lua[\d.]*|bc(?:\s+-q?l)?|sqlite3(?:\s+[\w./-]+)?|` +
		`psql\b[^<|;&]*|mysql\b[^<|;&]*|redis-cli\b[^<|;&]*|mongosh?\b[^<|;&]*|php\s+-a|iex|erl|julia|scala|` +
		`cat\s*>>?\s*[\w./~-]+|tee\s+(?:-a\s+)?[\w./~-]+|` +
		// Filters given no file read what is typed: `pandoc -f html -t markdown`,
		// `awk '{ print $1 }'`, `sort`, `wc -l`.
		`pandoc(?:\s+-{1,2}[\w-]+(?:=\S+|\s+[a-z][\w+-]*)?)*|cat|sort(?:\s+-\w+)*|wc(?:\s+-\w+)*|` +
		`(?:awk|sed(?:\s+-\w+)*|jq(?:\s+-\w+)*)\s+'[^']*')\s*$`)
	// scriptRun runs a file the tutorial wrote; it reads input if the file does.
	scriptRun  = regexp.MustCompile(`^(?:(?:python[\d.]*|node|ruby|sh|bash|perl|php|go\s+run)\s+([\w./-]+)|(\./[\w./-]+))\s*$`)
	readsInput = regexp.MustCompile(`\binput\(|\breadline\b|\bstdin\b|\bSTDIN\b|\bgets\b|\bread\s+-?\w|\bScanner\b|\bgetline\b|\bscanf\b|\bfgets\b`)
	replPrompt = regexp.MustCompile(`^(?:>>>|\.\.\.)(?: |$)|^irb\([^)]*\):\d+:\d+[>*"'] ?|^(?:sqlite|mysql|postgres|\w+)[=-]?[#>] `)
	nodePrompt = regexp.MustCompile(`^> `)
	pythonREPL = regexp.MustCompile(`^python[\d.]*$`)
	fileWriter = regexp.MustCompile(`^(?:cat\s*>>?|tee\s)`)
	// filterProgram reads what is typed until Ctrl-D, prints, and ends
	// (unlike a REPL, which answers line by line and stays).
	filterProgram = regexp.MustCompile(`^(?:pandoc|cat|sort|wc|awk|sed|jq)\b`)
	// infoFlag asks a program about itself; it reads no input.
	infoFlag = regexp.MustCompile(`(?:^|\s)(?:--version|--help|-[vVh])(?:\s|$)`)
)

// readsStdin reports whether a command starts a program that waits for
// what the user types.
func (p *planner) readsStdin(command string) bool {
	c := strings.TrimSpace(command)
	if strings.Contains(c, "\n") {
		return false
	}
	if interactive.MatchString(c) {
		return !infoFlag.MatchString(c) // `pandoc --version` answers and exits
	}
	m := scriptRun.FindStringSubmatch(c)
	if m == nil {
		return false
	}
	file := path.Base(m[1] + m[2])
	for i := len(p.steps) - 1; i >= 0; i-- {
		if s := p.steps[i]; s.Kind == StepWrite && path.Base(s.File.Path) == file {
			return readsInput.MatchString(s.Content)
		}
	}
	return false
}

// feedInput folds block b into the last command as its standard input when
// that command waits for input and the block is typed into it.
func (p *planner) feedInput(b spec.Block, ctx blockContext, lang string) bool {
	idx := p.lastRunIndex()
	if idx < 0 || codelang.Console[lang] {
		return false
	}
	prev := p.steps[idx]
	if prev.Background || !p.readsStdin(prev.Command.Text) {
		return false
	}
	filter := filterProgram.MatchString(strings.TrimSpace(prev.Command.Text))
	for _, s := range p.steps[idx+1:] {
		if len(s.AltRun) > 0 {
			return false // a block since then may itself be a command
		}
		if filter && s.Kind == StepCompare {
			return false // the filter printed its result: it has ended
		}
	}
	// A shell block is typed into a file being written, not into a program.
	if codelang.Shell[lang] && !fileWriter.MatchString(strings.TrimSpace(prev.Command.Text)) {
		return false
	}
	node := strings.HasPrefix(strings.TrimSpace(prev.Command.Text), "node")
	transcript := isTranscript(b.Code, node)
	if !transcript && !inputIntro.MatchString(lastSentence(ctx.before)) {
		return false
	}
	in, out := splitTranscript(b.Code, transcript, node)
	s := &p.steps[idx]
	s.Stdin += in
	s.Input = append(s.Input, b.Line)
	s.Command.Expected = append(s.Command.Expected, out...)
	s.Why = strings.TrimPrefix(s.Why+"; ", "; ") + fmt.Sprintf("the block at line %d is typed into it", b.Line)
	return true
}

// replStep reads a Python or Ruby session shown with its prompts and no
// command that started it: the interpreter is run with the input lines.
func replStep(base Step, b spec.Block, lang string) (Step, bool) {
	first := strings.TrimSpace(b.Code[0].Text)
	for _, l := range b.Code {
		if t := strings.TrimSpace(l.Text); t != "" {
			first = t
			break
		}
	}
	prog := ""
	switch {
	case strings.HasPrefix(first, ">>>"):
		prog = "python3"
	case strings.HasPrefix(first, "irb("):
		prog = "irb"
	default:
		return Step{}, false
	}
	in, out := splitTranscript(b.Code, true, false)
	s := base
	s.Kind, s.Stdin = StepRun, in
	s.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: prog, Expected: out}
	s.Why = fmt.Sprintf("a %s session: its input lines are typed into %s", codelang.Name(lang), prog)
	return s, true
}

func isTranscript(lines []spec.CodeLine, node bool) bool {
	for _, l := range lines {
		if replPrompt.MatchString(l.Text) || node && nodePrompt.MatchString(l.Text) {
			return true
		}
	}
	return false
}

// splitTranscript separates what is typed from what the program shows. In a
// transcript the prompted lines are typed and the others shown; otherwise
// the whole block is typed.
func splitTranscript(lines []spec.CodeLine, transcript, node bool) (string, []expect.Line) {
	var in strings.Builder
	var out []expect.Line
	for _, l := range lines {
		switch {
		case !transcript:
			in.WriteString(l.Text + "\n")
		case replPrompt.MatchString(l.Text):
			in.WriteString(strings.TrimPrefix(replPrompt.ReplaceAllString(l.Text, ""), " ") + "\n")
		case node && nodePrompt.MatchString(l.Text):
			in.WriteString(strings.TrimPrefix(l.Text, "> ") + "\n")
		default:
			out = append(out, expect.Line(l))
		}
	}
	return in.String(), out
}

// WithInput is the shell text that runs a command with the tutorial's input
// as its standard input. Python's REPL is kept interactive without prompts,
// so that it echoes values as it does for a person.
func WithInput(command, stdin string) string {
	if stdin == "" {
		return command
	}
	if pythonREPL.MatchString(strings.TrimSpace(command)) {
		command = strings.TrimSpace(command) + ` -i -q -c 'import sys; sys.ps1 = sys.ps2 = ""'`
	}
	delim := "SMILE_INPUT"
	for n := 1; strings.Contains(stdin, delim); n++ {
		delim = fmt.Sprintf("SMILE_INPUT_%d", n)
	}
	if !strings.HasSuffix(stdin, "\n") {
		stdin += "\n"
	}
	return fmt.Sprintf("%s <<'%s'\n%s%s", command, delim, stdin, delim)
}
