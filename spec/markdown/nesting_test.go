package markdown

import (
	"strings"
	"testing"
)

func TestNesting(t *testing.T) {
	for src, want := range map[string][2]int{
		"# Title\n\nText\n":                            {0, 0},
		"- one\n  - two\n- - - three\n":                {3, 3},
		"> quoted\n> > twice\n":                        {2, 2},
		"1. first\n2) - mixed > no\n":                  {2, 2},
		"--- a rule\n-not a list\n12345678901. long\n": {0, 0},
		strings.Repeat("- ", 500) + "x\n":              {500, 1},
	} {
		d, l := Nesting([]byte(src))
		if d != want[0] || l != want[1] {
			t.Errorf("Nesting(%.40q) = %d at line %d, want %d at line %d", src, d, l, want[0], want[1])
		}
	}
}

// BenchmarkParseMarkdownNested is the worst a page under the size limit can
// ask of the parser once its nesting is capped: 100 KB of lines each opening
// MaxNesting lists.
func BenchmarkParseMarkdownNested(b *testing.B) {
	line := strings.Repeat("- ", MaxNesting) + "x\n"
	src := []byte(strings.Repeat(line, 100*1024/len(line)))
	if d, _ := Nesting(src); d != MaxNesting {
		b.Fatalf("depth %d, want %d", d, MaxNesting)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		ParseMarkdown(src)
	}
}
