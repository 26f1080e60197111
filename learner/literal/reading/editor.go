package reading

import (
	"fmt"
	"path"
	"strings"

	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// A page that tells its reader to open a file in an editor (`nano app.py`,
// `vi hello.c  # or any editor`) means: type the program into that file.
// The program is the block right after the editor command, or, when the
// page showed the program first and names the editor after it, the last
// block above it the Student could not place. Either way the block is the
// file's content, and the editor itself is not run (there is no one at its
// keyboard).
var ruleEditorFile = rule.Register(rule.Rule{ID: "file.editor", Scope: rule.ScopeStep,
	Doc: "a block the page types into an editor is that file's content: the block after `nano FILE`, or the last unplaced block of the file's language above it"})

// editors are interactive text editors a learner drives by hand.
var editors = set("nano", "pico", "vi", "vim", "nvim", "emacs", "gedit", "kate", "code", "subl", "notepad", "notepad.exe", "micro", "joe", "mcedit")

// editorFile is the file an editor command opens, and whether the command
// is one: a single editor call (a trailing comment is allowed: "vi
// hello.c # or nano") on at most one file.
func editorFile(command string) (string, bool) {
	calls := shell.Calls(command)
	if len(calls) != 1 || len(calls[0]) == 0 {
		return "", false
	}
	words := calls[0]
	if words[0] == "open" && len(words) > 1 && words[1] == "-e" {
		words = words[1:]
	} else if !editors[path.Base(words[0])] {
		return "", false
	}
	file := ""
	for _, w := range words[1:] {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+") {
			continue
		}
		if file != "" || strings.ContainsAny(w, "$`*?") {
			return "", true // several files, or not a literal name: an editor, but no one file
		}
		file = w
	}
	return file, true
}

// editorBefore is the file the step just before the block opened in an
// editor, when the block's language fits it.
func (p *planner) editorBefore(lang string) (Destination, int, bool) {
	n := len(p.steps)
	if n == 0 || p.steps[n-1].Kind != StepOmit {
		return Destination{}, 0, false
	}
	prev := p.steps[n-1]
	file, ok := editorFile(prev.Command.Text)
	if !ok || file == "" || !WritesKind(lang, path.Base(file)) {
		return Destination{}, 0, false
	}
	return Destination{Path: file}, prev.Command.Line, true
}

// placeEditedAbove: an editor command among steps opens a file the page
// showed the program of before it; the last unplaced block of the file's
// language above becomes that file's write.
func (p *planner) placeEditedAbove(steps []Step) {
	for _, st := range steps {
		if st.Kind != StepOmit {
			continue
		}
		file, ok := editorFile(st.Command.Text)
		if !ok || file == "" {
			continue
		}
		for k := len(p.steps) - 1; k >= 0; k-- {
			s := &p.steps[k]
			if s.Kind == StepWrite && path.Clean(s.File.Path) == path.Clean(file) {
				break // the page already wrote it
			}
			if s.Kind != StepAmbiguous || !WritesKind(s.Lang, path.Base(file)) {
				continue
			}
			s.Kind, s.File = StepWrite, Destination{Path: file}
			s.Content = p.blockText(s.Line)
			s.Why = fmt.Sprintf("line %d opens %s in an editor to type the program in", st.Command.Line, file)
			s.Evidence = append(s.Evidence, ruleEditorFile.At(st.Command.Line, strings.TrimSpace(st.Command.Text)))
			break
		}
	}
}
