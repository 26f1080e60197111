package drawing

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func codeLines(text string) []markdown.CodeLine {
	var out []markdown.CodeLine
	for i, l := range strings.Split(text, "\n") {
		out = append(out, markdown.CodeLine{Line: i + 1, Text: l})
	}
	return out
}

func TestIndentedTree(t *testing.T) {
	for text, want := range map[string]bool{
		// Nested names with notes: a drawing of a project.
		"/home/ana/garden\n\tplants.go\t(the entry point)\n\tMakefile (builds it)\n\tsrc/beds\n\t\tbeds.go\n\tbin/  # programs": true,
		"project/\n  README.md\n  docs/\n    intro.md": true,
		// Commands, flat names, code: not drawings.
		"make\n  make test\n  make install":        false,
		"notes.txt\ntodo.txt\nplan.txt":            false, // one depth: a listing
		"def greet():\n    return 'hi'\n\ngreet()": false,
		"name: garden\n  version: 1":               false,
	} {
		if got := indentedTree(codeLines(text)); got != want {
			t.Errorf("indentedTree(%q) = %v, want %v", text, got, want)
		}
	}
}
