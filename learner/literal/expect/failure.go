package expect

import (
	"regexp"
	"strings"
)

// failureShown is what a failed run prints and a page shows to make its
// point: a test runner's failures (pytest's `1 failed`, `FAILED x::y`, its
// `E   ` lines, TAP's `not ok`, Jest's `FAIL`), a compiler's `file:3:5:
// error:` or rustc's `error[E0425]`, Python's traceback, npm's `npm ERR!`.
var failureShown = regexp.MustCompile(`(?m)^(?:FAILED\s|FAIL\s|E {2,}\S|not ok \d|npm ERR!|Traceback \(most recent call last\)|error(?:\[E\d{4}\])?: |\S+:\d+(?::\d+)?: (?:fatal )?error\b)|` +
	`\b[1-9]\d* (?:failed|errors?)\b`)

// ShowsFailure reports whether the output a page shows for a command is a
// failure's: the page runs it to show it failing, so its non-zero exit is
// what the reader sees too.
func ShowsFailure(shown []Line) bool {
	var text strings.Builder
	for _, l := range shown {
		text.WriteString(l.Text)
		text.WriteByte('\n')
	}
	return failureShown.MatchString(text.String())
}
