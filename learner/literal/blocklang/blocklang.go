// Package blocklang says which language a page's code block is read in:
// its tag, or what its content shows when the tag says nothing, is only a
// site's default, or is a slip (a shell tag on a file's text, a
// programming language's tag on lines of shell commands). It reads one
// block and what the planner knows around it; it knows no page.
package blocklang

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

var (
	// RuleInferred gives an untagged block the language its content shows.
	RuleInferred = rule.Register(rule.Rule{ID: "lang.inferred", Scope: rule.ScopeBlock,
		Doc: "an untagged block whose content carries one language's marks (`package main` and `func`, `#include <stdio.h>`, lines that open with known programs) is read as that language"})

	// RuleUnparsableShell reads a shell-tagged block no shell parses as
	// untagged.
	RuleUnparsableShell = rule.Register(rule.Rule{ID: "lang.unparsable-shell", Scope: rule.ScopeBlock,
		Doc: "a block of several lines tagged as a shell script that a shell cannot parse (`server {` ... `}`, assembler's `; comments`) is some file's text under the wrong tag: it is read as untagged, never run line by line"})

	// RuleShellInOtherTag reads lines of shell commands under a
	// programming language's tag as shell.
	RuleShellInOtherTag = rule.Register(rule.Rule{ID: "lang.shell-in-other-tag", Scope: rule.ScopeBlock,
		Doc: "a block tagged with a programming language (```python, ```java) whose every line is a shell command starting a program the reader knows (`pip install pytest`, `git clone ...`, `javac Hello.java`), at least one of them not a shell builtin, is commands under a slipped tag: it is read as shell"})
)

// noHighlight are the tags that only turn highlighting off (Pandoc's
// {.default}): the block is as good as untagged.
var noHighlight = map[string]bool{"default": true, "none": true, "nohighlight": true, "plain": true}

// Context is what the planner knows around the block.
type Context struct {
	// Tools are the programs the page itself introduces.
	Tools map[string]bool
	// IntroducesOutput: the prose right before says output follows.
	IntroducesOutput bool
	// OutputOfCommands: the block comes right after commands the Student
	// runs, with nothing said between them.
	OutputOfCommands bool
}

// Of is the language block b is read in, with the evidence when it is not
// the block's tag.
func Of(b markdown.Block, c Context) (string, []rule.Evidence) {
	lang := codelang.InfoLang(b.Info)
	var inferred []rule.Evidence
	if (lang == "" && b.Info == "" || noHighlight[lang]) && !blockshape.OpensWithPrompt(b.Code) {
		// Source code shown after "it should look like this" is still
		// code; lines of commands there are output.
		// Lines of commands right after commands, with nothing said between
		// (`/opt/notes` after `ls -d /opt/notes`), are what they print.
		if guess := codelang.Infer(b.Code, c.Tools); guess != "" && (!c.IntroducesOutput && !c.OutputOfCommands || !codelang.IsShellish(guess)) {
			lang = guess
			inferred = []rule.Evidence{RuleInferred.At(b.Line, guess)}
		}
	} else if codelang.Shell[lang] && !blockshape.HasPromptLine(b.Code) && !strings.Contains(b.Text, "<<") && !codelang.KnownProgram(shell.CommandName(b.Code[0].Text)) {
		// ```sh holding `get "/" do ... end`: the tag is the site's
		// default, the content Ruby.
		if guess := codelang.Infer(b.Code, c.Tools); guess != "" && !codelang.IsShellish(guess) {
			lang = guess
			inferred = []rule.Evidence{RuleInferred.At(b.Line, guess)}
		}
	}
	if codelang.Shell[lang] && blockshape.MisTagged(b) {
		if lang = codelang.Infer(b.Code, c.Tools); codelang.IsShellish(lang) {
			lang = ""
		}
		inferred = []rule.Evidence{RuleUnparsableShell.At(b.Line, b.Info)}
	}
	if first, ok := shellInOtherTag(b, lang, c.Tools); ok {
		return "bash", []rule.Evidence{RuleShellInOtherTag.At(first.Line, strings.TrimSpace(first.Text))}
	}
	return lang, inferred
}

// builtins start no program of their own: a block of only these proves
// nothing about its tag (`source data.sql` is also a database client's).
var builtins = map[string]bool{"cd": true, "source": true, ".": true, "exit": true, "echo": true, "export": true, "set": true, "alias": true}

// shellInOtherTag: lang is a programming language's, not a shell's nor
// text, and every line of the block (comments aside) is a shell command of
// a program the reader knows, which a shell parses; first is the first
// command that starts a program.
func shellInOtherTag(b markdown.Block, lang string, tools map[string]bool) (markdown.CodeLine, bool) {
	if lang == "" || codelang.Shell[lang] || codelang.Console[lang] || codelang.Extensions[lang] == nil ||
		blockshape.HasPromptLine(b.Code) || !shell.Parses(b.Text) {
		return markdown.CodeLine{}, false
	}
	var first markdown.CodeLine
	found := false
	for _, l := range b.Code {
		t := strings.TrimSpace(l.Text)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			continue
		}
		name := shell.CommandName(t)
		if !codelang.KnownProgram(name) && !tools[name] {
			return markdown.CodeLine{}, false
		}
		if !found && !builtins[name] && len(strings.Fields(t)) > 1 {
			first, found = l, true
		}
	}
	return first, found
}
