// Package exitanswer says when a command's non-zero exit status is its
// answer rather than an error: an arithmetic test whose value was 0, a
// setting that is not set, crontab's "no crontab for" a reader who has none,
// grep that matched nothing, diff that found a difference. The Student
// follows such a step as done; the page is not at fault.
package exitanswer

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// ArithmeticOnly: the command is one arithmetic test, `(( expr ))`, whose
// status says whether the value was 0.
func ArithmeticOnly(command string) bool {
	c := strings.TrimSpace(shell.WithoutTrailingComment(command))
	return !strings.Contains(c, "\n") && strings.HasPrefix(c, "((") && strings.HasSuffix(c, "))")
}

// NothingThere: the command lists or removes the reader's own entries of a
// table the system keeps (crontab's) and answered that there are none yet,
// which it does with exit 1.
func NothingThere(command, output string) bool {
	calls := shell.Calls(shell.WithoutTrailingComment(command))
	if len(calls) != 1 || len(calls[0]) < 2 || calls[0][0] != "crontab" {
		return false
	}
	return (slices.Contains(calls[0][1:], "-l") || slices.Contains(calls[0][1:], "-r")) && noCrontab.MatchString(strings.TrimSpace(output))
}

// noCrontab is cron's answer for a user without a table.
var noCrontab = regexp.MustCompile(`^no crontab for \S+$`)

// SettingQuery: the command reads one setting (`git config user.name`,
// `git config --get core.editor`), which exits 1, silent, when it is unset.
func SettingQuery(command string) bool {
	calls := shell.Calls(shell.WithoutTrailingComment(command))
	if len(calls) != 1 || len(calls[0]) < 3 || calls[0][0] != "git" || calls[0][1] != "config" {
		return false
	}
	var args []string
	for _, w := range calls[0][2:] {
		switch {
		case w == "--global" || w == "--local" || w == "--system" || w == "--get":
		case strings.HasPrefix(w, "-"):
			return false
		default:
			args = append(args, w)
		}
	}
	return len(args) == 1 && strings.Contains(args[0], ".")
}

// answerStatus: programs whose exit status 1 is an answer they also print
// (no line matched, the files differ), not an error. In quiet mode (`grep
// -q`, `cmp -s`) the status is all they say: there a 1 is the check failing,
// as it is for `test`.
var answerStatus = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "diff": true, "cmp": true}

// WithStatus reports whether the command whose status the line ends
// with (the last of a pipe) is one of answerStatus, not in quiet mode.
func WithStatus(command string) bool {
	line := strings.TrimSpace(textutil.FirstLine(command))
	if strings.ContainsAny(line, ";&") {
		return false
	}
	parts := strings.Split(line, "|")
	last := strings.Fields(parts[len(parts)-1])
	if len(last) == 0 || !answerStatus[last[0]] {
		return false
	}
	for _, a := range last[1:] {
		if a == "--quiet" || a == "--silent" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "qs") {
			return false
		}
	}
	return true
}

// FindDiscardingErrors: a `find` whose complaints the page sends to
// /dev/null (`find / -perm -4000 2>/dev/null`). It exits 1 when some entry
// could not be read, which the page chose not to hear; what it printed is
// the search's answer.
func FindDiscardingErrors(command string) bool {
	c := strings.TrimSpace(shell.WithoutTrailingComment(command))
	return strings.HasPrefix(c, "find ") && !strings.ContainsAny(c, "|;&\n") && discarded.MatchString(c)
}

// discarded is standard error sent to /dev/null.
var discarded = regexp.MustCompile(`(?:^|\s)2>\s*/dev/null(?:\s|$)`)
