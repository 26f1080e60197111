package literal

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A list's status is its last command's: `apt-get install postgresql-13;
// echo "installed"` ends 0 though apt found no such package, and a reader
// still sees apt's error above the echo. So a one-line list of commands
// joined by `;` that exits 0, but whose output holds the error line of a
// command that failed, has failed.

// failedLine is an error line a failing command prints: apt's and dpkg's
// `E: `, bash's "command not found", a missing file, a permission refused.
var failedLine = regexp.MustCompile(`(?m)^E: .*$|^.*: command not found$|^.*: No such file or directory$|^.*: Permission denied$`)

// listHidesFailure is the error line a `;` list's earlier command printed
// ("" when the command is no such list, or printed none).
func listHidesFailure(command, output string) string {
	if strings.Contains(strings.TrimSpace(command), "\n") {
		return ""
	}
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) < 2 {
		return ""
	}
	return strings.TrimSpace(failedLine.FindString(output))
}
