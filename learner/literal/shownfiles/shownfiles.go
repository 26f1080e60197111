// Package shownfiles finds the files a tutorial shows whole without ever
// creating them: a book's example files its readers get separately, which
// the Mentor can write from what the page shows.
package shownfiles

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec"
)

// catFile is a command that prints one whole file: what it prints is the
// file's content.
var catFile = regexp.MustCompile(`^cat\s+([\w./~-]+)\s*$`)

// File is a file the tutorial never creates but shows whole, as the output
// of `cat FILE`.
type File struct {
	Name    string
	Line    int // the line of the `cat` command
	Content string
}

// Of are the files a tutorial shows with `cat` (a transcript's `$ cat
// table.txt` and the lines after it, or a command followed by its output
// block) and never creates: a book's example files the reader has. The
// first showing of each counts, in the order shown.
func Of(t *spec.Tutorial) []File {
	steps := reading.Plan(t)
	created := map[string]bool{}
	for _, st := range steps {
		switch st.Kind {
		case reading.StepWrite:
			if !slices.ContainsFunc(st.Evidence, func(e rule.Evidence) bool { return e.Rule == reading.RuleCatShows.ID }) {
				created[st.File.Path] = true // not the Student's own copy of a listing (file.cat-shows)
			}
		case reading.StepRun:
			for _, w := range strings.Fields(st.Command.Text) {
				if reading.CreatesFile(st.Command.Text, strings.Trim(w, `'">`)) && !catFile.MatchString(strings.TrimSpace(st.Command.Text)) {
					created[strings.Trim(w, `'">`)] = true
				}
			}
		}
	}
	var out []File
	seen := map[string]bool{}
	for i, st := range steps {
		if st.Kind != reading.StepRun {
			continue
		}
		m := catFile.FindStringSubmatch(strings.TrimSpace(st.Command.Text))
		if m == nil || seen[m[1]] || created[m[1]] {
			continue
		}
		shown := st.Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == reading.StepCompare {
			shown = steps[i+1].Expected
		}
		if !expect.HasExpectation(shown) {
			continue
		}
		var lines []string
		for _, l := range shown {
			lines = append(lines, l.Text)
		}
		seen[m[1]] = true
		content := strings.TrimRight(strings.Join(lines, "\n"), "\n \t") + "\n"
		out = append(out, File{Name: m[1], Line: st.Command.Line, Content: content})
	}
	return out
}
