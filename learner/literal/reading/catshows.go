package reading

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/supply"
)

// Pages show a file's content by printing it: `$ cat lib/hola.rb` and the
// lines under it. When no step before has written that file, the listing is
// how the page tells the reader what to put in it (a reader copies it into
// their editor), so the Student writes the file with the lines shown and
// then runs the `cat`, which prints them. A name one letter off a file the
// page did write is a misspelling to report, never a file to make up.
//
// RuleCatShows is that reading.
var RuleCatShows = rule.Register(rule.Rule{ID: "file.cat-shows", Scope: rule.ScopeLine,
	Doc: "a transcript's `cat FILE` with its output shown, when no earlier step wrote FILE (or only touched it), gives FILE's content: the reader writes it"})

// catCommand is `cat` of one file, nothing else.
var catCommand = regexp.MustCompile(`^cat\s+([\w./~-]+)\s*$`)

// catShows puts a write of the file before each `cat FILE` of a
// transcript's steps whose output shows a file no earlier step made.
func (p *planner) catShows(steps []Step) []Step {
	var out []Step
	for k, s := range steps {
		m := catCommand.FindStringSubmatch(strings.TrimSpace(s.Command.Text))
		// `cat: x.txt: No such file or directory` is cat's error, not x.txt.
		if s.Kind != StepRun || m == nil || len(s.Command.Expected) == 0 || !OwnPath(m[1]) || p.madeBefore(m[1], steps[:k]) || p.suppliedBefore(s.Line) ||
			strings.HasPrefix(strings.TrimSpace(s.Command.Expected[0].Text), "cat: "+m[1]+":") {
			out = append(out, s)
			continue
		}
		var content strings.Builder
		for _, l := range s.Command.Expected {
			content.WriteString(l.Text + "\n")
		}
		last := s.Command.Expected[len(s.Command.Expected)-1].Line
		w := Step{Kind: StepWrite, Line: s.Line, EndLine: last, Lang: s.Lang, File: Destination{Path: m[1]}, Content: content.String(),
			Prose: s.Prose, Names: s.Names, Why: "the listing under `cat " + m[1] + "` gives the content of a file no step before wrote",
			Evidence: []rule.Evidence{RuleCatShows.At(s.Line, "cat "+m[1])}}
		out = append(out, w, s)
	}
	return out
}

// suppliedBefore: a sentence before line says the reader gets the page's
// files elsewhere (supply.Before): then the listing shows a file the reader
// has, and a container without it lacks the reader's files.
func (p *planner) suppliedBefore(line int) bool {
	_, ok := supply.In(p.blocks, line)
	return ok
}

// OwnPath: a path in the reader's work folder, never the system's or a
// home folder's own files.
func OwnPath(p string) bool {
	return !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.Contains(p, "..")
}

// madeBefore: a step planned so far (or one of the block's own before it)
// wrote the file, or names it other than by touching it, or wrote a file
// whose name is one letter off it.
func (p *planner) madeBefore(name string, own []Step) bool {
	for _, s := range append(append([]Step{}, p.steps...), own...) {
		switch s.Kind {
		case StepWrite:
			if s.File.Path == name || path.Base(s.File.Path) == path.Base(name) || destination.OneLetterOff(path.Base(s.File.Path), path.Base(name)) {
				return true
			}
		case StepRun:
			t := s.Command.Text
			if strings.Contains(t, name) && !strings.HasPrefix(strings.TrimSpace(t), "touch ") {
				return true
			}
			for _, w := range strings.Fields(t) {
				if destination.OneLetterOff(path.Base(strings.Trim(w, `'">;`)), path.Base(name)) {
					return true
				}
			}
		}
	}
	return false
}
