// Package drawing recognises a drawing of a folder layout in a code block:
// a tree drawn with box characters (├── src) or with indentation alone (one
// name a line, nested, with notes). Such a block names files; no line of it
// is a command.
package drawing

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// treeGlyphs are the box characters and ASCII stand-ins trees are drawn with.
var treeGlyphs = regexp.MustCompile(`├──|└──|│  |\|-- |` + "`" + `-- `)

// Glyphs reports whether text draws a tree with box characters.
func Glyphs(text string) bool { return treeGlyphs.MatchString(text) }

// Tree reports whether a block is a drawing of a folder layout: drawn with
// box characters, or with indentation alone.
func Tree(text string, code []markdown.CodeLine) bool {
	return Glyphs(text) || indentedTree(code)
}

// treeEntry is one line of an indented layout: a name or path, then at most
// a note in brackets or after a comment mark.
var treeEntry = regexp.MustCompile(`^(/?[\w.~-][\w.~/-]*/?)(?:\s+(?:\(.*\)|（.*）|#.*|//.*|<-.*|←.*|-\s.*|—.*))?\s*$`)

// indentedTree: every line of the block is a name (with a note at most), at
// least three of them, nested at two depths or more, none starting a
// program the reader knows unless it reads as a file name.
func indentedTree(code []markdown.CodeLine) bool {
	depths := map[int]bool{}
	n := 0
	for _, l := range code {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		m := treeEntry.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		name := m[1]
		if codelang.KnownProgram(shell.CommandName(name)) && !strings.ContainsAny(name, "./") {
			return false
		}
		depths[indentWidth(l.Text)] = true
		n++
	}
	return n >= 3 && len(depths) >= 2
}

// indentWidth is a line's indentation, a tab counting as four spaces.
func indentWidth(line string) int {
	w := 0
	for _, r := range line {
		switch r {
		case ' ':
			w++
		case '\t':
			w += 4
		default:
			return w
		}
	}
	return w
}
