package shell

import (
	"regexp"
	"strings"
)

// chainSep and assignments find the command a one-line chain ends with
// (`export FLASK_APP=app.py && flask run`, `cd site; PORT=8000 hugo serve`):
// the one that keeps running.
var (
	chainSep    = regexp.MustCompile(`&&|;`)
	assignments = regexp.MustCompile(`^(?:[A-Za-z_]\w*=\S*\s+)+`)
)

// LastInChain is the command a one-line chain ends with, less the variables
// assigned for it; a command of several lines is returned as it is.
func LastInChain(command string) string {
	c := strings.TrimSpace(command)
	if strings.Contains(c, "\n") {
		return c
	}
	parts := chainSep.Split(c, -1)
	return assignments.ReplaceAllString(strings.TrimSpace(parts[len(parts)-1]), "")
}
