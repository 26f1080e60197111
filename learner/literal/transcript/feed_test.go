package transcript

import (
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

// Lines typed into a program lose the block's shared indentation, keeping
// what one line has more than the others.
func TestFeedTypesWithoutTheBlocksIndent(t *testing.T) {
	lines := []markdown.CodeLine{{Line: 9, Text: "  .tables"}, {Line: 10, Text: "  CREATE TABLE t ("}, {Line: 11, Text: "      a INTEGER"}, {Line: 12, Text: ""}, {Line: 13, Text: "  );"}}
	in, _, ok := Feed(lines, "sqlite3 shop.db")
	if want := ".tables\nCREATE TABLE t (\n    a INTEGER\n\n);\n"; !ok || in != want {
		t.Errorf("Feed = %q, %v; want %q", in, ok, want)
	}
	if got := commonIndent([]markdown.CodeLine{{Text: "\tx"}, {Text: "\t y"}}); got != "\t" {
		t.Errorf("commonIndent = %q, want a tab", got)
	}
}
