package later

import (
	"path"
	"strings"
	"unicode/utf8"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// A sentence may run on across a block: "the file hello.hs", the code, "with
// this content, create it". Japanese and Korean put the verb last, so the
// file is named before the block and the instruction to create it comes
// after; other languages do it too ("Put in hello.hs", code, "and save").
// The sentence before the block does not end there (no full stop, colon or
// question mark), and the block, read alone, is text with no file. It is the
// file the sentence names when what depends on what agrees: a later command
// uses that file and no step writes it.

// RuleWrapped is that reading.
var RuleWrapped = rule.Register(rule.Rule{ID: "file.sentence-wraps", Scope: rule.ScopeStep,
	Doc: "an untagged block inside a sentence that runs on across it (the text before it names one file and does not end there: \"hello.hsというファイルを\", code, \"という内容で作成し\"), whose file a later command uses and no step writes, is that file"})

// sentenceEnds are the marks that end a sentence before a block.
const sentenceEnds = ".:!?。：！？;；"

// Wrapped finds the blocks (display text, unplaced by anything else) that
// a sentence running on across them names one file of, which a later
// command uses and no step writes; User is that command's line.
func Wrapped(p Page, text []Unplaced) []Source {
	written := map[string]bool{}
	for _, w := range p.Writes {
		written[path.Clean(w.Path)] = true
	}
	var out []Source
	for _, u := range text {
		i := blockAt(p.Blocks, u.Line)
		next := pastComments(p.Blocks, i+1) // the sentence goes on after it
		if i < 1 || p.Blocks[i-1].Kind != markdown.BlockParagraph || next >= len(p.Blocks) || p.Blocks[next].Kind != markdown.BlockParagraph {
			continue
		}
		before := strings.TrimSpace(p.Blocks[i-1].Text)
		if last, _ := utf8.DecodeLastRuneInString(before); before == "" || strings.ContainsRune(sentenceEnds, last) {
			continue // the sentence ended before the block
		}
		names := destination.FilesNamed(before, func(name string) bool { return path.Ext(name) != "" })
		if len(names) != 1 || written[path.Clean(names[0])] {
			continue
		}
		if user, ok := usedAfter(p, u.Line, names[0]); ok {
			out = append(out, Source{Line: u.Line, File: names[0], User: user, Rule: RuleWrapped})
			written[path.Clean(names[0])] = true
		}
	}
	return out
}
