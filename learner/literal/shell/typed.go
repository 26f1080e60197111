package shell

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/spec/markdown"
)

// A script block that writes a file from the keyboard (`cat > fruits.txt`
// on a line of its own, no heredoc, no input redirected) goes on with what
// the reader types into it: the lines after it, up to a `^D`, a blank line
// before a known program's command, or the end of the block, are the file's
// text, not commands. Split keeps them with the
// command as the heredoc a reader's typing amounts to, so that `apple` is
// written to fruits.txt rather than run.

// keyboardWriter is a command that writes what is typed to a file.
var keyboardWriter = regexp.MustCompile(`^\s*(?:sudo\s+)?(?:cat\s*>>?\s*[^\s<>|&;]+|tee\s+(?:-a\s+)?[^\s<>|&;-][^\s<>|&;]*)\s*$`)

// endOfTyping is how a page shows the Ctrl-D that ends the typing.
var endOfTyping = regexp.MustCompile(`(?i)^\s*(?:\^D|<?ctrl[-+ ]?d>?|\[ctrl[-+ ]?d\])\s*$`)

// typedEnd marks the end of the heredoc that stands for typed lines; no
// page line is it.
const typedEnd = "SMILE_TYPED_END"

// typedInput finds the first keyboard writer of lines that has lines typed
// after it: its index, the index just past the typed lines (and the ^D that
// ends them, if any), and the span that writes them. ok is false when there
// is none.
func typedInput(lines []markdown.CodeLine) (at, next int, span Span, ok bool) {
	for i, l := range lines {
		if !keyboardWriter.MatchString(l.Text) || i+1 >= len(lines) {
			continue
		}
		var typed []string
		end, j, stopped := l.Line, i+1, false
		for ; j < len(lines) && !stopped; j++ {
			if j > i+1 && strings.TrimSpace(lines[j-1].Text) == "" && codelang.KnownProgram(CommandName(lines[j].Text)) {
				break // a blank line, then a command: the typing ended (Ctrl-D the page did not show)
			}
			if stopped = endOfTyping.MatchString(lines[j].Text); !stopped {
				typed = append(typed, lines[j].Text)
			}
			if stopped || strings.TrimSpace(lines[j].Text) != "" {
				end = lines[j].Line // the ^D, or the last line typed; not the blank lines after it
			}
		}
		for len(typed) > 0 && strings.TrimSpace(typed[len(typed)-1]) == "" {
			typed = typed[:len(typed)-1]
		}
		if len(typed) == 0 || strings.Contains(strings.Join(typed, "\n"), typedEnd) {
			continue
		}
		text := strings.TrimRight(l.Text, " \t") + " <<'" + typedEnd + "'\n" + strings.Join(typed, "\n") + "\n" + typedEnd
		return i, j, Span{Line: l.Line, EndLine: end, Text: text}, true
	}
	return 0, 0, Span{}, false
}
