package reading

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/drawing"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// destinationSteps writes a block to the file the tutorial names for it, in
// the first place a reader would look: the info string, an HTML wrapper, a
// caption or sentence before it, a caption after it, a rule stated for the
// whole section.
func (p *planner) destinationSteps(base Step, b markdown.Block, ctx blockContext) ([]Step, bool) {
	write := func(d Destination, why string) []Step {
		s := base
		s.Kind, s.File, s.Content, s.Why = StepWrite, d, b.Text, why
		return []Step{s}
	}
	shellish := codelang.Shell[base.Lang] || codelang.Console[base.Lang]
	captionFits := func(d Destination) bool { return !shellish || destination.ShellFile(d.Path) }
	if d, ok := destination.InInfo(b.Info); ok {
		return write(d, fmt.Sprintf("the info string names %s", d.Path)), true
	}
	if d, ok := destination.InHTML(ctx.html); ok {
		return write(d, fmt.Sprintf("the HTML around it names %s", d.Path)), true
	}
	var named *Destination
	var why string
	if d, ok := destination.InCaption(ctx.before); ok && captionFits(d) {
		named, why = &d, "the caption before it names "+d.Path
	} else if d, ok := destination.InProse(ctx.before); ok {
		named, why = &d, "the prose before it names "+d.Path
	} else if d, ok := destination.InCaption(ctx.after); ok && captionFits(d) {
		named, why = &d, "the caption after it names "+d.Path
	} else if d, ok := destination.InProse(ctx.after); ok && refersBack.MatchString(strings.TrimSpace(ctx.after)) && !strings.HasSuffix(strings.TrimSpace(ctx.after), ":") {
		named, why = &d, "the sentence after it names "+d.Path
	} else if d, ok := destination.SupposedContent(p.supposed, leadin.LastSentence(ctx.before)); ok && !shellish {
		named, why = &d, fmt.Sprintf("the section supposes the reader has %s (line %d), and the sentence before it shows its content", d.Path, p.supposedLine)
	}
	// A block in the rule's own language is one of its examples even when the
	// prose says what it prints ("run this example to see it print ...").
	ruleKind := p.rule != nil && WritesKind(base.Lang, path.Base(p.rule.Dest.Path))
	if ruleKind && named != nil && !WritesKind(base.Lang, path.Base(named.Path)) {
		named = nil // "the `clean` target" in the prose is not where a makefile goes
	}
	if p.rule != nil && placeholder.GeneralForm.MatchString(leadin.LastSentence(ctx.before)) {
		// "Here's their syntax:" under a rule: the form, not an example.
		return []Step{omitted(base, "a syntax template: the prose introduces the syntax, not an example")}, true
	}
	if r := p.rule; r != nil && captionFits(r.Dest) && (ruleKind || !leadin.Output.MatchString(ctx.before)) && (named == nil || named.Path == r.Dest.Path) {
		return p.ruleSteps(base, b, *r), true
	}
	script := false
	if named != nil && shellish && !named.Append && !destination.ShellFile(named.Path) && !rcFile.MatchString(named.Path) {
		if script = blockshape.StartsWithShebang(b.Text); !script {
			named = nil // commands named near a config file are run, not written into it
		}
	}
	if named != nil && blockshape.RunsNamed(b.Text, named.Path) {
		named = nil // "a file called `hello` that you can run with this command:" over `./hello`
	}
	if named != nil && drawing.Glyphs(b.Text) {
		return nil, false // "this creates the `demo` folder with the following content:" and a drawn tree
	}
	if named != nil && shellish && CreatesFile(b.Text, path.Base(named.Path)) {
		return nil, false // "create a file named /data.txt" over the command that creates it
	}
	if named != nil {
		steps := write(*named, why)
		if script {
			steps[0].Evidence = append(steps[0].Evidence, ruleShebangScript.At(b.Line, textutil.FirstLine(strings.TrimSpace(b.Text))))
		}
		return steps, true
	}
	if d, line, ok := p.editorBefore(base.Lang); ok && (!shellish || destination.ShellFile(d.Path) && !shell.NamesFile(b.Text, d.Path)) {
		steps := write(d, fmt.Sprintf("line %d opens %s in an editor, and this is what is typed into it", line, d.Path))
		steps[0].Evidence = append(steps[0].Evidence, ruleEditorFile.At(line, d.Path))
		return steps, true
	}
	if d, verb, ok := p.currentFile(base.Lang, ctx); ok && !shellish {
		steps := write(d, fmt.Sprintf("the sentence before it asks to %s it and names no file: it goes on in %s, the %s file the page is building", verb, d.Path, base.Lang))
		steps[0].Evidence = append(steps[0].Evidence, ruleCurrentFile.At(ctx.beforeLine, verb))
		return steps, true
	}
	return nil, false
}

// A page that builds a file piece by piece names it once ("create main.go",
// "paste this into main.go") and then only says where the next piece goes:
// "beneath the package declaration, paste the following", "add this route".
// The piece belongs to the file the page is building, the last one written
// in its language, after what is there.
var (
	ruleCurrentFile = rule.Register(rule.Rule{ID: "file.current", Scope: rule.ScopeBefore,
		Doc: "a block the sentence before asks to paste, add or insert, naming no file, goes on in the file the page is building: the last one written in the block's language"})
	// addVerb asks to add code to something, in the languages tutorials
	// are written in.
	addVerb = regexp.MustCompile(`(?i)\b(?:paste|add|insert|append|put)\b|` +
		`\b(?:pega|agrega|añade|añadir|agregar|cole|adicione|adicionar|colle[zr]?|ajoute[zr]?|füge\w*|einfügen|hinzu|aggiungi|incolla|dodaj|wklej)\b|вставьте|добавьте|` +
		`追加|貼り付け|添加|粘贴|加入|추가|붙여`)
)

// configLangs are data and configuration formats.
var configLangs = set("toml", "yaml", "yml", "json", "jsonc", "ini", "cfg", "conf", "properties", "xml", "env", "dotenv")

// currentFile is the file the page is building in the block's language,
// when the sentence before asks to add the block and names no file.
func (p *planner) currentFile(lang string, ctx blockContext) (Destination, string, bool) {
	last := prose.Plain(leadin.LastSentence(ctx.before))
	verb := addVerb.FindString(last)
	if verb == "" || lang == "" || codelang.IsShellish(lang) || configLangs[lang] {
		// A configuration snippet shows the section as it should read, not
		// lines to add after the file's end (a table twice is an error).
		return Destination{}, "", false
	}
	for i := len(p.steps) - 1; i >= 0; i-- {
		if s := p.steps[i]; s.Kind == StepWrite && WritesKind(lang, path.Base(s.File.Path)) {
			return Destination{Path: s.File.Path, Append: true}, strings.ToLower(verb), true
		}
	}
	return Destination{}, "", false
}

// A script saved without a shell extension (`greet`, `backup`, a wrapper
// like `mvnw`) is still a script when its first line is a shebang: typed
// into a shell, `#!/bin/bash` is a comment, so a block that opens with one
// is a file's content, the file the prose names.
var ruleShebangScript = rule.Register(rule.Rule{ID: "file.shebang-script", Scope: rule.ScopeBlock,
	Doc: "a shell block the prose saves under a name with no shell extension is that script's content when it opens with a shebang line (#!)"})

// ruleSteps follows a section's rule for one block: write it to the file,
// replacing the previous example, and run the rule's command.
func (p *planner) ruleSteps(base Step, b markdown.Block, r sectionRule) []Step {
	if why := placeholder.Template(b.Text); why != "" {
		return []Step{omitted(base, why)}
	}
	s := base
	s.Kind, s.File, s.Content = StepWrite, r.Dest, b.Text
	s.Why = fmt.Sprintf("the rule at line %d puts each example of the section in %s", r.line, r.Dest.Path)
	steps := []Step{s}
	if r.Command != "" {
		run := base
		run.Kind, run.Why = StepRun, fmt.Sprintf("the rule at line %d runs `%s` after each example", r.line, r.Command)
		run.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: r.Command}
		run.Example = true
		steps = append(steps, run)
	}
	return steps
}

// refersBack: a sentence after a block that names the block's file (one
// ending in a colon introduces the next block instead).
var refersBack = regexp.MustCompile(`(?i)^(?:now\s+|then\s+)?(?:save|name|call|store|put|write)\s+(?:this|it|that|your\s+(?:file|document|work)|the\s+(?:above|file|code|script|program))\b`)

// CreatesFile says whether shell text makes the file itself (a redirection
// into it, touch, tee, cp, curl -o...), outside comments: then the block is
// the command that creates the file, not the file's content. A script that
// only names itself ("# Usage: bash attack.sh") is content.
func CreatesFile(text, base string) bool {
	creates := regexp.MustCompile(`(?:>>?|\btee(?:\s+-a)?|\btouch|\bcp\s+\S+|\bmv\s+\S+|\s-[oO])\s*['"]?[\w./~-]*` + regexp.QuoteMeta(base) + `\b`)
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") && creates.MatchString(l) {
			return true
		}
	}
	return false
}

// rcFile is a shell start-up file, which shell text may be written to.
var rcFile = regexp.MustCompile(`(?:^|/)\.(?:bash|zsh|k?sh)(?:rc|_profile|_login)$|(?:^|/)\.profile$`)

// WritesKind says whether file is the kind of file a block in lang is saved
// as (a `.py` file for python, a Makefile for makefile).
func WritesKind(lang, file string) bool {
	for _, ext := range codelang.Extensions[lang] { // the table the Mentor also guesses file names from
		if strings.HasPrefix(ext, ".") && strings.HasSuffix(file, ext) || file == ext {
			return true
		}
	}
	return false
}
