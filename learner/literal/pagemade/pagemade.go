// Package pagemade answers what a page makes anywhere in its plan, before
// or after the step at hand: a file (written whole, or created by a
// command: a redirection, touch, cp), a user or a group (useradd,
// groupadd), or what a general form of a command it shows but the Student
// cannot run would make. A name the page never makes is the reader's own,
// or a stand-in for it; a name it does make is the page's to get right.
package pagemade

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/samplename"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
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

// ByUnrunForm is the line of a general form of the same program, earlier in
// st's code block, that the Student did not run (`tmux new -s <name>`
// before `tmux ls`): what st uses, that form would have made. 0 when there
// is none.
func ByUnrunForm(steps []reading.Step, blocks []markdown.Block, st reading.Step) int {
	name := shell.CommandName(st.Command.Text)
	for _, b := range blocks {
		if name == "" || b.Kind != markdown.BlockCode || st.Line < b.Line || st.Line > b.EndLine {
			continue
		}
		for _, o := range steps {
			if o.Kind == reading.StepOmit && o.Line > b.Line && o.Line < st.Line && shell.CommandName(o.Command.Text) == name && placeholder.Template(o.Command.Text) != "" {
				return o.Line
			}
		}
	}
	return 0
}

// StandInArgument is an argument of the failed command that is a stand-in
// name (samplename.Is: `url.git`, `my-repo`) which its error names and no
// other step of the page makes (the command itself aside: `git clone
// url.git` would make it): the form shows where the reader's own goes.
func StandInArgument(steps []reading.Step, cmd reading.Command, output string) string {
	others := slices.DeleteFunc(slices.Clone(steps), func(o reading.Step) bool { return o.Command.Line == cmd.Line })
	words := strings.Fields(cmd.Text)
	for _, w := range words[min(1, len(words)):] {
		w = strings.Trim(w, `'"`)
		if !strings.HasPrefix(w, "-") && samplename.Is(w) && strings.Contains(output, w) && !File(others, w) {
			return w
		}
	}
	return ""
}
