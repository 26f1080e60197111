package reading

import (
	"fmt"
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/codelang"
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
	captionFits := func(d Destination) bool { return !shellish || shellFile(d.Path) }
	if d, ok := infoDestination(b.Info); ok {
		return write(d, fmt.Sprintf("the info string names %s", d.Path)), true
	}
	if d, ok := htmlDestination(ctx.html); ok {
		return write(d, fmt.Sprintf("the HTML around it names %s", d.Path)), true
	}
	var named *Destination
	var why string
	if d, ok := captionDestination(ctx.before); ok && captionFits(d) {
		named, why = &d, "the caption before it names "+d.Path
	} else if d, ok := proseDestination(ctx.before); ok {
		named, why = &d, "the prose before it names "+d.Path
	} else if d, ok := captionDestination(ctx.after); ok && captionFits(d) {
		named, why = &d, "the caption after it names "+d.Path
	} else if d, ok := proseDestination(ctx.after); ok && refersBack.MatchString(strings.TrimSpace(ctx.after)) && !strings.HasSuffix(strings.TrimSpace(ctx.after), ":") {
		named, why = &d, "the sentence after it names "+d.Path
	}
	// A block in the rule's own language is one of its examples even when the
	// prose says what it prints ("run this example to see it print ...").
	ruleKind := p.rule != nil && WritesKind(base.Lang, path.Base(p.rule.dest.Path))
	if ruleKind && named != nil && !WritesKind(base.Lang, path.Base(named.Path)) {
		named = nil // "the `clean` target" in the prose is not where a makefile goes
	}
	if p.rule != nil && generalForm.MatchString(lastSentence(ctx.before)) {
		// "Here's their syntax:" under a rule: the form, not an example.
		return []Step{omitted(base, "a syntax template: the prose introduces the syntax, not an example")}, true
	}
	if r := p.rule; r != nil && captionFits(r.dest) && (ruleKind || !outputIntro.MatchString(ctx.before)) && (named == nil || named.Path == r.dest.Path) {
		return p.ruleSteps(base, b, *r), true
	}
	if named != nil && shellish && !named.Append && !shellFile(named.Path) && !rcFile.MatchString(named.Path) {
		named = nil // commands named near a config file are run, not written into it
	}
	if named != nil && treeGlyphs.MatchString(b.Text) {
		return nil, false // "this creates the `demo` folder with the following content:" and a drawn tree
	}
	if named != nil && shellish && createsFile(b.Text, path.Base(named.Path)) {
		return nil, false // "create a file named /data.txt" over the command that creates it
	}
	if named != nil {
		return write(*named, why), true
	}
	return nil, false
}

// ruleSteps follows a section's rule for one block: write it to the file,
// replacing the previous example, and run the rule's command.
func (p *planner) ruleSteps(base Step, b markdown.Block, r sectionRule) []Step {
	if why := template(b.Text); why != "" {
		return []Step{omitted(base, why)}
	}
	s := base
	s.Kind, s.File, s.Content = StepWrite, r.dest, b.Text
	s.Why = fmt.Sprintf("the rule at line %d puts each example of the section in %s", r.line, r.dest.Path)
	steps := []Step{s}
	if r.command != "" {
		run := base
		run.Kind, run.Why = StepRun, fmt.Sprintf("the rule at line %d runs `%s` after each example", r.line, r.command)
		run.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: r.command}
		run.Example = true
		steps = append(steps, run)
	}
	return steps
}

// refersBack: a sentence after a block that names the block's file (one
// ending in a colon introduces the next block instead).
var refersBack = regexp.MustCompile(`(?i)^(?:now\s+|then\s+)?(?:save|name|call|store|put|write)\s+(?:this|it|that|your\s+(?:file|document|work)|the\s+(?:above|file|code|script|program))\b`)

func shellFile(name string) bool {
	switch path.Ext(name) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return true
	}
	return false
}

// createsFile says whether shell text makes the file itself (a redirection
// into it, touch, tee, cp, curl -o...), outside comments: then the block is
// the command that creates the file, not the file's content. A script that
// only names itself ("# Usage: bash attack.sh") is content.
func createsFile(text, base string) bool {
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
