package literal

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"mvdan.cc/sh/v3/syntax"
)

// A list's status is its last command's: `apt-get install postgresql-13;
// echo "installed"` ends 0 though apt found no such package, and a reader
// still sees apt's error above the echo. So a one-line list of commands
// joined by `;` that exits 0, but whose output holds the error line of a
// command that failed (mentor.FailedLine, the errors Classify reads), has
// failed.

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
	return mentor.FailedLine(output)
}
