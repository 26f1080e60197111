package later

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// A page may write a script and then say what running it does ("when you
// run this script, you should see ...") without a command for it: the
// reader runs it as the page ran its scripts before (`./hello.sh`, so
// `./array.sh`), or as the sentence writes it inline.

// InWords is a run the page asks for in words after a script it wrote:
// at Line (the sentence's paragraph), Command, because of Words; Write is
// the line of the script's block.
type InWords struct {
	Line    int
	Command string
	Words   string
	Write   int
}

// RunsInWords finds the scripts the prose after their block says the
// reader runs, when no command of the page runs them before another write
// of the same file.
func RunsInWords(p Page) []InWords {
	var out []InWords
	for k, w := range p.Writes {
		if !script(w) || runBefore(p, k) {
			continue
		}
		para, words := runSentence(p.Blocks, w.Line)
		if words == "" {
			continue
		}
		cmd := spanRunning(para.Text, w.Path)
		if cmd == "" {
			cmd = asBefore(p.Runs, w)
		}
		out = append(out, InWords{Line: para.Line, Command: cmd, Words: words, Write: w.Line})
	}
	return out
}

// script: a write of a shell script (its name, or its #! line).
func script(w Write) bool {
	ext := path.Ext(w.Path)
	return ext == ".sh" || ext == ".bash" || strings.HasPrefix(w.Content, "#!/bin/sh") || strings.HasPrefix(w.Content, "#!/bin/bash") || strings.HasPrefix(w.Content, "#!/usr/bin/env bash")
}

// runBefore: a command after write k names its file before another write
// of it replaces it.
func runBefore(p Page, k int) bool {
	w := p.Writes[k]
	next := -1
	for _, o := range p.Writes[k+1:] {
		if o.Path == w.Path {
			next = o.Line
			break
		}
	}
	for _, r := range p.Runs {
		if r.Line > w.Line && (next < 0 || r.Line < next) && strings.Contains(r.Command, path.Base(w.Path)) {
			return true
		}
	}
	return false
}

// runSentence finds, in the paragraphs between the code block at line and
// the next code block, the first sentence that says the reader runs the
// file just shown: its paragraph and the words that say so ("" when none
// does).
func runSentence(blocks []markdown.Block, line int) (markdown.Block, string) {
	i := blockAt(blocks, line)
	for j := i + 1; i >= 0 && j < len(blocks) && blocks[j].Kind != markdown.BlockCode; j++ {
		if blocks[j].Kind != markdown.BlockParagraph {
			continue
		}
		for _, sentence := range prose.Sentences(blocks[j].Text) {
			if m := leadin.WhenRun.FindString(sentence); m != "" {
				return blocks[j], strings.TrimSpace(m)
			}
		}
	}
	return markdown.Block{}, ""
}

// inlineCode is a code span.
var inlineCode = regexp.MustCompile("`([^`\n]+)`")

// blockAt is the index of the code block at line, -1 if none.
func blockAt(blocks []markdown.Block, line int) int {
	for i, b := range blocks {
		if b.Kind == markdown.BlockCode && b.Line == line {
			return i
		}
	}
	return -1
}

// spanRunning is a command written inline in the paragraph that runs the
// file ("when you run it with `bash third.sh`"), "" when there is none.
func spanRunning(paragraph, file string) string {
	for _, m := range inlineCode.FindAllStringSubmatch(paragraph, -1) {
		if f, _, ok := shell.RunsScript(m[1]); ok && path.Base(f) == path.Base(file) {
			return strings.TrimSpace(m[1])
		}
	}
	return ""
}

// asBefore is how the page's last script run before the write ran its
// file, applied to the write's: `bash hello.sh` gives `bash FILE`;
// `./hello.sh`, or no run at all, gives `chmod +x FILE && ./FILE`, which
// runs it by its #! line.
func asBefore(runs []Run, w Write) string {
	for k := len(runs) - 1; k >= 0; k-- {
		if runs[k].Line > w.Line {
			continue
		}
		if _, runner, ok := shell.RunsScript(runs[k].Command); ok {
			if runner != "" {
				return runner + " " + w.Path
			}
			break
		}
	}
	return "chmod +x " + w.Path + " && ./" + strings.TrimPrefix(w.Path, "./")
}
