package markdown

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseMarkdown checks what every caller relies on, for any input: no
// panic, every block within the file's lines and after the one before it, and
// code lines in order inside their block.
func FuzzParseMarkdown(f *testing.F) {
	seeds := []string{
		"",
		"\n",
		"# T\n\npara\n",
		"```sh\nls\n```\n",
		"```\nunclosed",
		"~~~~\n```\n~~~~\n",
		"- a\n  ```\n  b\n```\n",
		"> ```\n> x\n> ```\n",
		"1. x\n\n       code\n",
		"---\ntitle: x\n---\n# H\n",
		"Setext\n===\n",
		"a\r\nb\r\n\r\n```\r\nc\r\n```\r\n",
		"<!--\nc\n-->\n<img src=\"a.png\">\n",
		"\xef\xbb\xbf# BOM\n",
		"\t\tcode\n\n\tmore\n",
		"![a](b.png)\n[x]: y.png\n![z][x]\n",
		"\r\r\n\r",
		"<pre><code class=\"language-sh\">a &lt; b\n\nc</code></pre>\n",
		"<div class=\"highlight\"><pre>\nx\n\ny\n</pre></div>\n",
		"> <pre>\n> x\n> </pre>\n",
		"{{< highlight bash >}}\n# x\n{{< /highlight >}}\n",
		"- a\n\n  {% highlight ruby %}\n  b\n  {% endhighlight %}\n",
		"1. a\n        ```sh\n        b\n        ```\n",
		"1. a\n\n        ```sh\n        b\n        ```\n",
		"````{note}\n```sh\nx\n```\n````\n",
		"`````{tab-set}\n````{tab-item} A\n```sh\nx\n```\n````\n`````\n",
		"```{code-block} python\n:caption: x\n\nprint()\n```\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if src, err := os.ReadFile(filepath.Join("testdata", "quickstart.md")); err == nil {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := ParseMarkdown(src)
		n := numLines(src)
		for i, b := range doc.Blocks {
			if b.Line < 1 || b.Line > b.EndLine || b.EndLine > n {
				t.Fatalf("block %d (%s) spans lines %d-%d of %d", i, b.Kind, b.Line, b.EndLine, n)
			}
			if i > 0 && b.Line <= doc.Blocks[i-1].EndLine {
				t.Fatalf("block %d (%s %d-%d) overlaps block %d (%s %d-%d)", i, b.Kind, b.Line, b.EndLine, i-1, doc.Blocks[i-1].Kind, doc.Blocks[i-1].Line, doc.Blocks[i-1].EndLine)
			}
			prev := b.Line - 1 // an indented block's first line is code
			if b.Fenced {
				prev = b.Line // a fenced block's first line is its fence
			}
			for _, c := range b.Code {
				if c.Line <= prev || c.Line > b.EndLine {
					t.Fatalf("block %d (%s %d-%d): code line %d after line %d", i, b.Kind, b.Line, b.EndLine, c.Line, prev)
				}
				prev = c.Line
			}
		}
		for _, img := range doc.Images {
			if img.Line < 1 || img.Line > n {
				t.Fatalf("image %q on line %d of %d", img.Destination, img.Line, n)
			}
		}
	})
}

// numLines counts the lines of src; a final newline ends the last line
// rather than starting an empty one.
func numLines(src []byte) int {
	src = bytes.TrimPrefix(src, utf8BOM)
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte("\n"))
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}
