// Package typedinput tells a command that waits for its reader to type text
// at the terminal until the end of input: `cat > notes.txt`, `cat >>
// log.txt`, `tee out.txt`, `cat -`. Such a step works only if the page says
// what to type and how to end it (Ctrl-D): without that, a reader's
// terminal seems to hang, and the file the page uses next holds whatever
// they guessed. Run with nothing typed, the command ends at once and hides
// the gap, so the Student reports it before it runs the step.
package typedinput

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/shell"
)

// readers are programs that, given no file to read, read what is typed.
var readers = map[string]bool{"cat": true, "tee": true}

// Waits says whether command is a single call of such a program that reads
// the terminal: no file operand (or `-`), no pipe into it, no redirect or
// here-document feeding it; program is the program's name.
func Waits(command string) (program string, ok bool) {
	text := strings.TrimSpace(shell.WithoutTrailingComment(command))
	if strings.ContainsAny(text, "|<;&\n") || strings.Contains(text, "$(") {
		return "", false
	}
	calls := shell.Calls(text)
	if len(calls) != 1 || len(calls[0]) == 0 || !readers[calls[0][0]] {
		return "", false
	}
	prog := calls[0][0]
	for _, w := range calls[0][1:] {
		if prog == "cat" && w != "-" && !strings.HasPrefix(w, "-") {
			return "", false // a file to print; tee's operands are files it writes
		}
	}
	return prog, true
}

// endOfInput is how a page tells its reader to end typed input.
var endOfInput = regexp.MustCompile(`(?i)ctrl\s*[-+]?\s*d\b|control\s*[-+]?\s*d\b|\^D|⌃D|\bEOF\b|(?:strg|ctrl)\s*[-+]\s*d`)

// Told says whether the page's text around the step tells how to end
// typed input.
func Told(around string) bool { return endOfInput.MatchString(around) }
