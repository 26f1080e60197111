package blocklang

import (
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func block(info, text string) markdown.Block {
	doc := markdown.ParseMarkdown([]byte("```" + info + "\n" + text + "```\n"))
	return doc.Blocks[0]
}

// TestShellInOtherTag: a programming language's tag over lines that each
// start a program the reader knows is a slip (read as shell); the
// language's own code, a database client's `source`, a Makefile's rule and
// shell-tagged or untagged blocks keep their reading.
func TestShellInOtherTag(t *testing.T) {
	for _, tc := range []struct {
		info, text, want string
	}{
		{"python", "pip install pytest\ngit clone https://example.org/x.git\npython3 -m pytest\n", "bash"},
		{"java", "# compile and run\njavac Hello.java\njava Hello\n", "bash"},
		{"python", "import os\nprint(os.getcwd())\n", "python"},
		{"sql", "source dump.sql\n", "sql"},
		{"makefile", "all: hello\n\tgcc -o hello hello.c\n", "makefile"},
		{"python", "python3\n", "python"},
	} {
		got, _ := Of(block(tc.info, tc.text), Context{})
		if got != tc.want {
			t.Errorf("```%s %q: read as %q, want %q", tc.info, tc.text, got, tc.want)
		}
	}
}
