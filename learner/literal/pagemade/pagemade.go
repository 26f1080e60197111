// Package pagemade answers what a page makes anywhere in its plan, before
// or after the step at hand: a file (written whole, or created by a
// command: a redirection, touch, cp), a user or a group (useradd,
// groupadd). A name the page never makes is the reader's own, or a
// stand-in for it; a name it does make is the page's to get right.
package pagemade

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// File: a step of the page writes the file or a command of the page
// creates it (a redirection, touch, cp...), before or after this point.
func File(steps []reading.Step, name string) bool {
	base := path.Base(name)
	for _, st := range steps {
		switch {
		case st.Kind == reading.StepWrite && path.Base(st.File.Path) == base:
			return true
		case st.Kind == reading.StepRun && (reading.CreatesFile(st.Command.Text, base) || shell.Creates(st.Command.Text, name)):
			return true
		}
	}
	return false
}

// Account: a command of the page creates the user or group (each
// of `user:group`): useradd, adduser, groupadd, addgroup.
func Account(steps []reading.Step, account string) bool {
	for _, name := range strings.Split(account, ":") {
		for _, st := range steps {
			if st.Kind == reading.StepRun && accountMaker.MatchString(st.Command.Text) && slices.Contains(strings.Fields(st.Command.Text), name) {
				return true
			}
		}
	}
	return false
}

// accountMaker is a command that creates a user or a group.
var accountMaker = regexp.MustCompile(`\b(?:useradd|adduser|groupadd|addgroup|newusers)\b`)
