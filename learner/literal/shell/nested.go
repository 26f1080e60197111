package shell

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"
)

// A block that switches to another user's shell (`sudo su - ana`, `su -
// ana`, `sudo -iu ana`) goes on in that shell: the lines after the switch,
// up to its `exit` (or the block's end), are typed at ana's prompt, in
// ana's home, with ana's rights. Run one by one at SMILE's own prompt they
// would run as the Student, and the switch itself would wait for a
// keyboard. Split keeps them with the switch, as the heredoc that typing
// amounts to. A switch to root needs none of this: the Student is root.

// userSwitch is a command line that starts a login shell of another user.
var userSwitch = regexp.MustCompile(`^\s*(?:sudo\s+su|su)\s+(?:-|-l|--login)\s+([a-z_][\w.-]*)\s*$|^\s*sudo\s+(?:-iu\s*|-i\s+-u\s+|-u\s+)([a-z_][\w.-]*)(?:\s+-i)?\s*$`)

// leaveShell ends the other user's shell.
var leaveShell = regexp.MustCompile(`^\s*(?:exit|logout)\s*$`)

// nestedShell finds the first switch to another user with lines after it:
// its index, the index just past the lines typed into that user's shell
// (and its exit), and the span that runs them. ok is false when there is
// none.
func nestedShell(lines []markdown.CodeLine) (at, next int, span Span, ok bool) {
	for i, l := range lines {
		m := userSwitch.FindStringSubmatch(l.Text)
		if m == nil || m[1]+m[2] == "root" || i+1 >= len(lines) {
			continue
		}
		if m[2] != "" && !strings.Contains(l.Text, "-i") {
			continue // `sudo -u ana` with no command and no -i starts no shell
		}
		var typed []string
		j, end := i+1, l.Line
		for ; j < len(lines); j++ {
			if leaveShell.MatchString(lines[j].Text) {
				end = lines[j].Line
				j++
				break
			}
			typed = append(typed, lines[j].Text)
			if strings.TrimSpace(lines[j].Text) != "" {
				end = lines[j].Line
			}
		}
		if strings.TrimSpace(strings.Join(typed, "")) == "" || strings.Contains(strings.Join(typed, "\n"), typedEnd) {
			continue
		}
		text := strings.TrimSpace(l.Text) + " <<'" + typedEnd + "'\n" + strings.Join(typed, "\n") + "\n" + typedEnd
		return i, j, Span{Line: l.Line, EndLine: end, Text: text}, true
	}
	return 0, 0, Span{}, false
}
