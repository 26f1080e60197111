package reading

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
)

// A page says which file a block goes to in its own words, in any human
// language ("crie um arquivo chamado `ola.go`", "öffne `hallo.sh` und füge
// ein", "程序 `hello.c` 如下"); what every wording shares is the name itself.
// So when nothing else placed a block, the sentence leading into it decides
// it when it names exactly one file of the block's kind: a name with an extension the
// block's language is saved with, or any file for a block that starts with
// `#!`, which is a script's first line and never something typed at a prompt.

// namedByItsFile reads block i as the file its lead-in names, when the
// reader could not otherwise place it (one ambiguous step) or ran a script
// (a `#!` block) as commands.
func (p *planner) namedByItsFile(i int, steps []Step) []Step {
	b := p.blocks[i]
	if len(steps) == 0 || len(b.Code) == 0 {
		return steps
	}
	lang := steps[0].Lang
	script := strings.HasPrefix(strings.TrimSpace(b.Code[0].Text), "#!")
	switch {
	case len(steps) == 1 && steps[0].Kind == StepAmbiguous && codelang.Extensions[lang] != nil:
	case script && !slices.ContainsFunc(steps, func(s Step) bool { return s.Kind != StepRun }):
	default:
		return steps
	}
	fits := func(name string) bool {
		if script {
			return !strings.Contains(b.Text, path.Base(name)) // a script that names itself runs it
		}
		return slices.Contains(codelang.Extensions[lang], path.Ext(name)) || slices.Contains(codelang.Extensions[lang], path.Base(name))
	}
	// Only the lead-in: a sentence after a block that names a file ("the
	// compiler reads `hello.c` next") is as often about the next step.
	names := filesNamed(lastSentence(p.context(i).before), fits)
	if len(names) == 1 {
		s := Step{Kind: StepWrite, Line: b.Line, EndLine: b.EndLine, Lang: lang, File: Destination{Path: names[0]}, Content: b.Text,
			Prose: steps[0].Prose, Names: steps[0].Names}
		kind := fmt.Sprintf("the only file of a %s block's kind", codelang.Name(lang))
		if script {
			kind = "the only file, and the block starts with #!, as a script does"
		}
		s.Why = fmt.Sprintf("the sentence before it names %s, %s", names[0], kind)
		return []Step{s}
	}
	return steps
}

// filesNamed lists the distinct file names in text that fit.
func filesNamed(text string, fits func(string) bool) []string {
	var out []string
	for _, m := range mentionedFile.FindAllString(text, -1) {
		if n := CleanFileName(m); n != "" && codelang.IsFileName(path.Base(n)) && fits(n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
