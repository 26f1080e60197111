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

// Path: a step of the page writes the path (or a file under it, when it
// is a folder) or runs a command that makes it, named as the page names it.
func Path(steps []reading.Step, name string) bool {
	for _, st := range steps {
		switch st.Kind {
		case reading.StepWrite:
			p := strings.TrimPrefix(path.Clean(st.File.Path), "./")
			if p == name || strings.HasPrefix(p, name+"/") {
				return true
			}
		case reading.StepRun:
			if shell.Creates(st.Command.Text, name) {
				return true
			}
		}
	}
	return false
}

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

// Account: a command of the page creates or changes the user or group
// (each of `user:group`): AccountCommand.
func Account(steps []reading.Step, account string) bool {
	for _, name := range strings.Split(account, ":") {
		for _, st := range steps {
			if st.Kind == reading.StepRun && AccountCommand(st.Command.Text) && slices.Contains(strings.Fields(st.Command.Text), name) {
				return true
			}
		}
	}
	return false
}

// AccountCommand: the command makes a user or a group, or moves a user's
// home (useradd, adduser, usermod, groupadd, addgroup, newusers).
func AccountCommand(command string) bool { return accountMaker.MatchString(command) }

var accountMaker = regexp.MustCompile(`\b(?:useradd|adduser|usermod|groupadd|addgroup|newusers)\b`)
