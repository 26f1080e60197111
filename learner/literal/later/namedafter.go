package later

import (
	"path"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// A page may name a program's file right after its block: "2. Type the
// program:", the code, "3. Save the file as `Hello.java`", then `javac
// Hello.java`. The sentence after a block alone is as often about the next
// step ("the compiler reads `util.c` next"), so it places the block only
// when what depends on what agrees: a later command uses that file, and no
// step writes it.

// RuleNamedAfter is that reading.
var RuleNamedAfter = rule.Register(rule.Rule{ID: "file.named-after", Scope: rule.ScopeStep,
	Doc: "an unplaced block whose next paragraph names one file of its kind, which a later command uses and no step writes (\"Save the file as `Hello.java`\", then `javac Hello.java`), is that file"})

// NamedAfter finds the unplaced blocks whose next paragraph (before any
// other code block) names one file of the block's kind that a later command
// uses and no step writes; User is that command's line.
func NamedAfter(p Page, unplaced []Unplaced) []Source {
	written := map[string]bool{}
	for _, w := range p.Writes {
		written[path.Clean(w.Path)] = true
	}
	var out []Source
	for _, u := range unplaced {
		i := blockAt(p.Blocks, u.Line)
		if i < 0 {
			continue
		}
		next := pastComments(p.Blocks, i+1) // the paragraph after it
		if next >= len(p.Blocks) || p.Blocks[next].Kind != markdown.BlockParagraph {
			continue
		}
		names := destination.FilesNamed(p.Blocks[next].Text, func(name string) bool { return p.Kind(u.Lang, path.Base(name)) })
		if len(names) != 1 || written[path.Clean(names[0])] {
			continue
		}
		if user, ok := usedAfter(p, u.Line, names[0]); ok {
			out = append(out, Source{Line: u.Line, File: names[0], User: user, Rule: RuleNamedAfter})
			written[path.Clean(names[0])] = true
		}
	}
	return out
}

// pastComments is the index of the first block from i on that is not an
// author's HTML comment.
func pastComments(blocks []markdown.Block, i int) int {
	for i < len(blocks) && blocks[i].Kind == markdown.BlockHTML && strings.HasPrefix(strings.TrimSpace(blocks[i].Text), "<!--") {
		i++
	}
	return i
}

// usedAfter is the line of the first command after line that uses file.
func usedAfter(p Page, line int, file string) (int, bool) {
	for _, r := range p.Runs {
		if r.Line > line && shell.NamesFile(r.Command, file) {
			return r.Line, true
		}
	}
	return 0, false
}
