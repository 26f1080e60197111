package reading

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec/markdown"
)

// A page says which file a block goes to in its own words, in any human
// language ("crie um arquivo chamado `ola.go`", "öffne `hallo.sh` und füge
// ein", "程序 `hello.c` 如下"); what every wording shares is the name itself.
// So when nothing else placed a block, the sentence leading into it decides
// it when it names exactly one file of the block's kind: a name with an extension the
// block's language is saved with, or any file for a block that starts with
// `#!`, which is a script's first line and never something typed at a prompt.

var ruleDataCaption = rule.Register(rule.Rule{ID: "file.data-caption", Scope: rule.ScopeBlock,
	Doc: "lines of text (no command of a known program) after a sentence that ends with a colon and names exactly one file (\"The data, in `sales.txt`:\") are that file's content"})

// namedByItsFile reads block i as the file its lead-in (or its own first
// line, a comment) names, when the reader could not otherwise place it (one
// ambiguous step) or ran a script (a `#!` block, or shell lines under a
// comment naming a .sh file they do not run) as commands.
func (p *planner) namedByItsFile(i int, steps []Step) []Step {
	b := p.blocks[i]
	if len(steps) == 0 || len(b.Code) == 0 {
		return steps
	}
	lang := steps[0].Lang
	script := strings.HasPrefix(strings.TrimSpace(b.Code[0].Text), "#!")
	allRun := !slices.ContainsFunc(steps, func(s Step) bool { return s.Kind != StepRun })
	comment := destination.LineComment(b.Code[0].Text)
	shellScript := codelang.Shell[lang] && allRun && len(destination.FilesNamed(comment, isShellFile)) == 1
	lead := leadin.LastSentence(p.context(i).before)
	// "The data, in `sales.txt`:" over lines of text: the sentence gives the
	// file its content, as a caption does.
	data := len(steps) == 1 && steps[0].Kind == StepSkip && textLangs[lang] &&
		(strings.HasSuffix(strings.TrimSpace(lead), ":") && !leadin.IntroducesOutput(lead) || captioned(comment, b)) && !p.knownCommands(b.Code)
	switch {
	case len(steps) == 1 && steps[0].Kind == StepAmbiguous && codelang.Extensions[lang] != nil:
	case (script || shellScript) && (allRun || len(steps) == 1 && steps[0].Kind == StepAmbiguous):
	case data:
	default:
		return steps
	}
	rest := strings.Join(strings.SplitN(b.Text, "\n", 2)[1:], "")
	fits := func(name string) bool {
		switch {
		case shellScript && !script:
			return isShellFile(name) && !strings.Contains(rest, path.Base(name))
		case script:
			return !strings.Contains(rest, path.Base(name)) // a block that names its file again runs it
		case data:
			return !slices.Contains(codelang.Extensions["sh"], path.Ext(name)) // text, not a script
		case codelang.Shell[lang]:
			return false
		}
		return slices.Contains(codelang.Extensions[lang], path.Ext(name)) || slices.Contains(codelang.Extensions[lang], path.Base(name))
	}
	if parts := destination.Parts(codeTexts(b.Code), fits); len(parts) > 1 && !shellScript && !data && !script {
		return partSteps(b, steps[0], parts)
	}
	// The lead-in, else the block's own first line when it is a comment
	// (`# app.py`, `// save as main.go`). Not the sentence after the block:
	// one that names a file ("the compiler reads `hello.c` next") is as often
	// about the next step.
	where, names := "the sentence before it", destination.FilesNamed(lead, fits)
	if shellScript && !script {
		names = nil // commands whose first line names a script: only that line says they are it
	}
	if len(names) != 1 && comment != "" {
		where, names = "its first line, a comment,", destination.FilesNamed(comment, fits)
	}
	if len(names) == 0 && !shellScript && !data {
		// "Create a file named `hello.rb` (Ruby files end in .rb). In the
		// file, write:": the paragraph names the file, its last sentence
		// says only "the file".
		where, names = "the paragraph before it", destination.FilesNamed(p.context(i).before, fits)
	}
	if len(names) == 1 {
		s := Step{Kind: StepWrite, Line: b.Line, EndLine: b.EndLine, Lang: lang, File: Destination{Path: names[0]}, Content: b.Text,
			Prose: steps[0].Prose, Names: steps[0].Names}
		kind := fmt.Sprintf("the only file of a %s block's kind", codelang.Name(lang))
		if script {
			kind = "the only file, and the block starts with #!, as a script does"
		} else if data && where == "its first line, a comment," {
			kind = "the only file, as a caption over lines of text"
			s.Content = rest // the caption is the page's, not a line of the file
		} else if data {
			kind = "the only file, and the sentence ends with a colon over lines of text"
		} else if shellScript {
			kind = "a shell script's name, and the block does not run it"
		}
		s.Why = fmt.Sprintf("%s names %s, %s", where, names[0], kind)
		if data {
			s.Evidence = append(s.Evidence, ruleDataCaption.At(b.Line, names[0]))
		}
		return []Step{s}
	}
	return steps
}

// isShellFile: a shell script's name.
func isShellFile(name string) bool { return path.Ext(name) == ".sh" || path.Ext(name) == ".bash" }

var ruleFileHeaders = rule.Register(rule.Rule{ID: "file.headers", Scope: rule.ScopeBlock,
	Doc: "a block whose first line is a comment that is only a file's name, and that has more such comments after blank lines (`// list.h` ... `// list.c`), holds several files: each part is written to the file its comment names"})

// partSteps writes each file of a block that holds several, each under a
// comment naming it (destination.Parts).
func partSteps(b markdown.Block, base Step, parts []destination.Part) []Step {
	out := make([]Step, 0, len(parts))
	for _, part := range parts {
		lines := b.Code[part.From:part.To]
		text := strings.TrimRight(strings.Join(codeTexts(lines), "\n"), "\n \t") + "\n"
		first, last := lines[0].Line, lines[len(lines)-1].Line
		s := Step{Kind: StepWrite, Line: first, EndLine: last, Lang: base.Lang, File: Destination{Path: part.Path}, Content: text,
			Prose: base.Prose, Names: base.Names}
		s.Why = fmt.Sprintf("the comment at line %d names %s, one of the %d files the block holds", first, part.Path, len(parts))
		s.Evidence = append(s.Evidence, ruleFileHeaders.At(first, part.Path))
		out = append(out, s)
	}
	return out
}

func codeTexts(lines []markdown.CodeLine) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = l.Text
	}
	return out
}

// captioned: the block's first line is a comment that names one file and
// nothing to run (`# test.json, the file's content`), a caption over the
// lines below it, as a sentence ending with a colon is.
func captioned(comment string, b markdown.Block) bool {
	return len(b.Code) > 1 && len(destination.FilesNamed(comment, func(string) bool { return true })) == 1 && !transcript.ReadsAsCommand(comment)
}
