package reading

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
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

// editorBefore is the file the step just before the block opened in an
// editor, when the block's language fits it.
func (p *planner) editorBefore(lang string) (Destination, int, bool) {
	n := len(p.steps)
	if n == 0 || p.steps[n-1].Kind != StepOmit {
		return Destination{}, 0, false
	}
	prev := p.steps[n-1]
	file, ok := shell.EditorFile(prev.Command.Text)
	// An untagged block fits any file, a shell block a shell script.
	if !ok || file == "" || lang != "" && !WritesKind(lang, path.Base(file)) && !(codelang.Shell[lang] && destination.ShellFile(file)) {
		return Destination{}, 0, false
	}
	return Destination{Path: file}, prev.Command.Line, true
}

// placeEditedAbove: an editor command among steps opens a file the page
// showed the program of before it; that block (editedProgram) becomes the
// file's write.
func (p *planner) placeEditedAbove(steps []Step) {
	for _, st := range steps {
		if st.Kind != StepOmit {
			continue
		}
		file, ok := shell.EditorFile(st.Command.Text)
		if !ok || file == "" {
			continue
		}
		if k := p.editedProgram(file); k >= 0 {
			s := &p.steps[k]
			s.Kind, s.File = StepWrite, Destination{Path: file}
			s.Content = p.blockText(s.Line)
			s.Why = fmt.Sprintf("line %d opens %s in an editor to type the program in", st.Command.Line, file)
			s.Evidence = append(s.Evidence, ruleEditorFile.At(st.Command.Line, strings.TrimSpace(st.Command.Text)))
		}
	}
}

// completeProgram is a heading or lead-in that calls its block the whole
// program ("Complete code", "Codice completo", "完整代码"), not one of its
// variants or parts.
var completeProgram = regexp.MustCompile(`(?i)\b(?:complete|whole|full|entire|final) (?:code|program|listing|source|file|example|version)\b|` +
	`\b(?:codice|programma|c(?:ó|o)digo|programa|code|programme) complet[oa]?s?\b|\bvollst(?:ä|a)ndige[rns]? (?:code|programm|quelltext)\b|` +
	`\b(?:pe(?:ł|l)ny|kompletny) (?:kod|program)\b|полный (?:код|текст)|повний код|完整(?:的)?(?:代码|程序)|完全な(?:コード|プログラム)|全体のコード|전체 코드`)

// editedProgram is the step of the program the page means by an editor
// command on file: among the unplaced blocks of the file's kind since the
// page last wrote it, the last one the page calls complete, else the last.
// -1 when there is none.
func (p *planner) editedProgram(file string) int {
	last := -1
	for k := len(p.steps) - 1; k >= 0; k-- {
		s := p.steps[k]
		if s.Kind == StepWrite && path.Clean(s.File.Path) == path.Clean(file) {
			break // the page already wrote it
		}
		if s.Kind != StepAmbiguous || !WritesKind(s.Lang, path.Base(file)) {
			continue
		}
		if completeProgram.MatchString(s.Prose) {
			return k
		}
		if last < 0 {
			last = k
		}
	}
	return last
}

var ruleEditorOwnText = rule.Register(rule.Rule{ID: "file.editor-own-text", Scope: rule.ScopeStep,
	Doc: "an editor opened on a file the page gives no text for, which a later step uses (`git add notes.txt`), is saved by the reader with text of their own: the Student writes the file with a line of its own"})

var ruleEditorTranscript = rule.Register(rule.Rule{ID: "file.editor-transcript", Scope: rule.ScopeStep,
	Doc: "in a transcript, the lines between an editor command (`$ nano GetPages`) and the next prompt are not its output (an editor prints none) but the text the reader types into the file"})

// linesBetween is the text of the code lines after line from up to line to,
// as the page has them (comment lines, a #! line and indentation kept).
func (p *planner) linesBetween(from, to int) string {
	var b strings.Builder
	for _, blk := range p.blocks {
		for _, l := range blk.Code {
			if l.Line > from && l.Line <= to {
				b.WriteString(l.Text + "\n")
			}
		}
	}
	return b.String()
}

// ownText is what the Student types into a file the page leaves to the
// reader.
const ownText = "a line of the reader's own\n"

// editedWithOwnText: an editor step on a file the page never writes, which
// a later command names, becomes a write of a line of the reader's own (a
// reader types something and saves); without it `git add notes.txt` finds
// no file the page is not at fault for.
func (p *planner) editedWithOwnText(steps []Step) {
	for k := range steps {
		s := &steps[k]
		file, ok := shell.EditorFile(s.Command.Text)
		if s.Kind != StepOmit || !ok || file == "" || slices.ContainsFunc(steps, func(w Step) bool { return w.Kind == StepWrite && path.Clean(w.File.Path) == path.Clean(file) }) {
			continue
		}
		if typed := s.Command.Expected; len(typed) > 0 {
			// In a transcript, an editor prints nothing: the lines after its
			// command, up to the next prompt, are what the reader types in.
			s.Kind, s.File, s.Content = StepWrite, Destination{Path: file}, p.linesBetween(s.Command.Line, typed[len(typed)-1].Line)
			s.Why = fmt.Sprintf("opens %s in an editor in a transcript: the %d lines after it, before the next prompt, are what the reader types into it", file, len(typed))
			s.Evidence = append(s.Evidence, ruleEditorTranscript.At(typed[0].Line, strings.TrimSpace(s.Command.Text)))
			continue
		}
		if !slices.ContainsFunc(steps[k+1:], func(r Step) bool { return r.Kind == StepRun && shell.NamesFile(r.Command.Text, file) }) {
			continue
		}
		s.Kind, s.File, s.Content = StepWrite, Destination{Path: file}, ownText
		s.Why = fmt.Sprintf("opens %s in an editor, and the page gives no text for it: a later step uses it, so the Student saves it with a line of its own", file)
		s.Evidence = append(s.Evidence, ruleEditorOwnText.At(s.Command.Line, strings.TrimSpace(s.Command.Text)))
	}
}
