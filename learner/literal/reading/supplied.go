package reading

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec"
)

// catFile is a command that prints one whole file: what it prints is the
// file's content.
var catFile = regexp.MustCompile(`^cat\s+([\w./~-]+)\s*$`)

// ShownFile is a file the tutorial never creates but shows whole, as the
// output of `cat FILE`.
type ShownFile struct {
	Name    string
	Line    int // the line of the `cat` command
	Content string
}

// ShownFiles are the files a tutorial shows with `cat` (a transcript's
// `$ cat table.txt` and the lines after it, or a command followed by its
// output block) and never creates: a book's example files the reader has.
// The first showing of each counts, in the order shown.
func ShownFiles(t *spec.Tutorial) []ShownFile {
	steps := Plan(t)
	created := map[string]bool{}
	for _, st := range steps {
		switch st.Kind {
		case StepWrite:
			if !slices.ContainsFunc(st.Evidence, func(e rule.Evidence) bool { return e.Rule == ruleCatShows.ID }) {
				created[st.File.Path] = true // not the Student's own copy of a listing (file.cat-shows)
			}
		case StepRun:
			for _, w := range strings.Fields(st.Command.Text) {
				if createsFile(st.Command.Text, strings.Trim(w, `'">`)) && !catFile.MatchString(strings.TrimSpace(st.Command.Text)) {
					created[strings.Trim(w, `'">`)] = true
				}
			}
		}
	}
	var out []ShownFile
	seen := map[string]bool{}
	for i, st := range steps {
		if st.Kind != StepRun {
			continue
		}
		m := catFile.FindStringSubmatch(strings.TrimSpace(st.Command.Text))
		if m == nil || seen[m[1]] || created[m[1]] {
			continue
		}
		shown := st.Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == StepCompare {
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
		out = append(out, ShownFile{Name: m[1], Line: st.Command.Line, Content: content})
	}
	return out
}
