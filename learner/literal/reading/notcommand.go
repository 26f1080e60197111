package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/rule"
)

// Not every line of a shell block is a command for the shell. Some are
// text in another syntax that the page shows in a shell block because it
// has no better tag: a crontab entry (five schedule fields and a command,
// added with `crontab -e`), or a note written as another language's comment
// (`// prints 42`). The shell would fail on each ("0: command not found",
// "//: Is a directory"), and the failure would be SMILE's misreading.
var (
	ruleCrontab = rule.Register(rule.Rule{ID: "text.crontab", Scope: rule.ScopeLine,
		Doc: "a line that opens with five cron schedule fields (or @daily, @reboot) is a crontab entry, added with crontab -e, not a shell command"})
	ruleSlashComment = rule.Register(rule.Rule{ID: "text.slash-comment", Scope: rule.ScopeLine,
		Doc: "a line of a shell block that opens with `//` is a note in another language's comment syntax, not a command"})

	ruleEllipsis = rule.Register(rule.Rule{ID: "text.ellipsis", Scope: rule.ScopeLine,
		Doc: "a line of a shell block that is only an ellipsis (`...`, `…`) stands for lines left out or time passing, not a command"})
	ellipsis = regexp.MustCompile(`^(?:\.{3,}|…+)$`)

	ruleWindowsPath = rule.Register(rule.Rule{ID: "text.windows-path", Scope: rule.ScopeLine,
		Doc: "a command whose words are Windows paths (`venv\\Scripts\\activate`, `.\\run.bat`, `C:\\tools`) is for Windows' shells; bash would eat its backslashes"})
	// windowsPath is a word written with Windows' separators: a drive or
	// `.\` first, two separators or more, or Python's Windows venv folder.
	windowsPath = regexp.MustCompile(`(?:^|\s)(?:[A-Za-z]:\\|\.{1,2}\\|[\w.-]+\\[\w.-]+\\[\w.-]|[\w.-]+\\Scripts\\)`)

	cronField   = `(?:\*|\d{1,2}(?:-\d{1,2})?)(?:/\d{1,2})?(?:,(?:\*|\d{1,2}(?:-\d{1,2})?)(?:/\d{1,2})?)*`
	cronNamed   = `(?:` + cronField + `|(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)(?:-\w{3})?)`
	crontabLine = regexp.MustCompile(`^(?:@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)|` +
		cronField + `\s+` + cronField + `\s+` + cronField + `\s+` + cronNamed + `\s+` + cronNamed + `)\s+\S`)
)

// notCommand is why a command of a shell block is not one, with the rule's
// evidence, or "" when it reads as a command.
func notCommand(c Command) (string, *rule.Evidence) {
	lines := strings.Split(strings.TrimSpace(c.Text), "\n")
	first := strings.TrimSpace(lines[0])
	switch {
	case crontabLine.MatchString(first):
		ev := ruleCrontab.At(c.Line, strings.Join(strings.Fields(first)[:min(5, len(strings.Fields(first)))], " "))
		return "a crontab entry: the reader adds it with crontab -e; it is not a shell command", &ev
	case ellipsis.MatchString(first) && len(lines) == 1:
		ev := ruleEllipsis.At(c.Line, first)
		return "an ellipsis: lines left out or time passing, not a command", &ev
	case windowsPath.MatchString(first) && !strings.ContainsAny(first, "'\""):
		ev := ruleWindowsPath.At(c.Line, windowsPath.FindString(first))
		return "a command for Windows: its paths are written with backslashes", &ev
	case strings.HasPrefix(first, "//") && allSlashComments(lines):
		ev := ruleSlashComment.At(c.Line, "//")
		return "a note in comment syntax, not a command", &ev
	}
	return "", nil
}

func allSlashComments(lines []string) bool {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			return false
		}
	}
	return true
}
