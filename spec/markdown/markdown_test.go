package markdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func heading(line, end int, text string, level ...int) Block {
	b := Block{Kind: BlockHeading, Line: line, EndLine: end, Text: text, Level: 1}
	if len(level) > 0 {
		b.Level = level[0]
	}
	return b
}

func para(line, end int, text string) Block {
	return Block{Kind: BlockParagraph, Line: line, EndLine: end, Text: text}
}

func html(line, end int, text string) Block {
	return Block{Kind: BlockHTML, Line: line, EndLine: end, Text: text}
}

func cl(line int, text string) CodeLine { return CodeLine{Line: line, Text: text} }

// fence is a fenced code block from its opening fence (line) to its closing
// one (end).
func fence(line, end int, info, lang string, code ...CodeLine) Block {
	b := Block{Kind: BlockCode, Line: line, EndLine: end, Info: info, Lang: lang, Fenced: true, Code: code}
	b.Text = codeText(code)
	return b
}

// unclosed is b with no closing fence.
func unclosed(b Block) Block { b.Unclosed = true; return b }

// indented is an indented code block: it spans its own lines.
// inSection is b inside a collapsed section titled title.
func inSection(title string, b Block) Block {
	b.Section = title
	return b
}

// inItem is b nested in a list item labelled label.
func inItem(label string, b Block) Block {
	b.Item = label
	return b
}

func indented(code ...CodeLine) Block {
	return Block{Kind: BlockCode, Line: code[0].Line, EndLine: code[len(code)-1].Line, Text: codeText(code), Code: code}
}

func codeText(code []CodeLine) string {
	var b strings.Builder
	for _, c := range code {
		b.WriteString(c.Text + "\n")
	}
	return b.String()
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestParseMarkdownBlocks(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []Block
	}{
		{
			name: "empty document",
			in:   "",
			want: nil,
		},
		{
			name: "headings and paragraphs",
			in: lines(
				"# Install",          // 1
				"",                   // 2
				"First you need",     // 3
				"a terminal.",        // 4
				"",                   // 5
				"### Step `one` ###", // 6
				"Text right under.",  // 7
			),
			want: []Block{
				heading(1, 1, "Install"),
				para(3, 4, "First you need\na terminal."),
				heading(6, 6, "Step `one`", 3),
				para(7, 7, "Text right under."),
			},
		},
		{
			name: "setext headings end on their underline",
			in: lines(
				"Getting started", // 1
				"===============", // 2
				"",                // 3
				"A heading over",  // 4
				"two lines",       // 5
				"---",             // 6
				"",                // 7
				"# ATX heading",   // 8
				"---",             // 9: a thematic break, not an underline
			),
			want: []Block{
				heading(1, 2, "Getting started"),
				heading(4, 6, "A heading over\ntwo lines", 2),
				heading(8, 8, "ATX heading"),
			},
		},
		{
			name: "fenced code block with backticks",
			in: lines(
				"Run:",       // 1
				"",           // 2
				"```bash",    // 3
				"echo hello", // 4
				"",           // 5
				"echo bye",   // 6
				"```",        // 7
				"Done.",      // 8
			),
			want: []Block{
				para(1, 1, "Run:"),
				fence(3, 7, "bash", "bash", cl(4, "echo hello"), cl(5, ""), cl(6, "echo bye")),
				para(8, 8, "Done."),
			},
		},
		{
			name: "tilde fence",
			in: lines(
				"~~~python", // 1
				"print(1)",  // 2
				"```",       // 3: not a closing fence for tildes
				"~~~",       // 4
			),
			want: []Block{fence(1, 4, "python", "python", cl(2, "print(1)"), cl(3, "```"))},
		},
		{
			name: "fence longer than three holds a shorter one",
			in: lines(
				"`````markdown", // 1
				"```sh",         // 2
				"ls",            // 3
				"```",           // 4
				"`````",         // 5
				"",              // 6
				"~~~~",          // 7
				"x",             // 8
				"~~~~~~",        // 9: a longer closing fence closes too
			),
			want: []Block{
				fence(1, 5, "markdown", "markdown", cl(2, "```sh"), cl(3, "ls"), cl(4, "```")),
				fence(7, 9, "", "", cl(8, "x")),
			},
		},
		{
			name: "empty fenced blocks",
			in: lines(
				"```",   // 1
				"```",   // 2
				"",      // 3
				"~~~sh", // 4
				"~~~",   // 5
			),
			want: []Block{
				fence(1, 2, "", ""),
				fence(4, 5, "sh", "sh"),
			},
		},
		{
			name: "unclosed fence runs to the end of the file",
			in: lines(
				"# Last step", // 1
				"```sh",       // 2
				"make",        // 3
				"make test",   // 4
			),
			want: []Block{
				heading(1, 1, "Last step"),
				unclosed(fence(2, 4, "sh", "sh", cl(3, "make"), cl(4, "make test"))),
			},
		},
		{
			name: "unclosed fence without a final newline",
			in:   "```\nmake",
			want: []Block{unclosed(fence(1, 2, "", "", cl(2, "make")))},
		},
		{
			name: "unclosed empty fence",
			in:   "text\n\n```go",
			want: []Block{para(1, 1, "text"), unclosed(fence(3, 3, "go", "go"))},
		},
		{
			name: "closing fence without a final newline",
			in:   "```\nmake\n```",
			want: []Block{fence(1, 3, "", "", cl(2, "make"))},
		},
		{
			name: "indented code block",
			in: lines(
				"Example:",     // 1
				"",             // 2
				"    cd app",   // 3
				"",             // 4
				"      npm ci", // 5
				"",             // 6
				"",             // 7
				"After.",       // 8
			),
			want: []Block{
				para(1, 1, "Example:"),
				indented(cl(3, "cd app"), cl(4, ""), cl(5, "  npm ci")),
				para(8, 8, "After."),
			},
		},
		{
			name: "tabs",
			in: lines(
				"\tgo test ./...", // 1
				"",                // 2
				"```make",         // 3
				"all:",            // 4
				"\tgo build",      // 5
				"```",             // 6
			),
			want: []Block{
				indented(cl(1, "go test ./...")),
				fence(3, 6, "make", "make", cl(4, "all:"), cl(5, "\tgo build")),
			},
		},
		{
			name: "code in an ordered list is de-indented",
			in: lines(
				"1. Install the tools:",   // 1
				"",                        // 2
				"   ```sh",                // 3
				"   apt-get update",       // 4
				"     && apt-get install", // 5
				"   ```",                  // 6
				"",                        // 7
				"2. Check:",               // 8
				"   ```",                  // 9
				"   make --version",       // 10
				"   ```",                  // 11
				"10. Indented code:",      // 12
				"",                        // 13
				"        ls -la",          // 14
			),
			want: []Block{
				para(1, 1, "Install the tools:"),
				inItem("Install the tools:", fence(3, 6, "sh", "sh", cl(4, "apt-get update"), cl(5, "  && apt-get install"))),
				para(8, 8, "Check:"),
				inItem("Check:", fence(9, 11, "", "", cl(10, "make --version"))),
				para(12, 12, "Indented code:"),
				inItem("Indented code:", indented(cl(14, "ls -la"))),
			},
		},
		{
			name: "code in unordered and nested lists",
			in: lines(
				"- Clone:",              // 1
				"  ```console",          // 2
				"  $ git clone repo",    // 3
				"  ```",                 // 4
				"* Then:",               // 5
				"  - Nested step:",      // 6
				"",                      // 7
				"    ```sh",             // 8
				"    cd repo",           // 9
				"    ```",               // 10
				"+ A fence right away:", // 11
				"",                      // 12
				"+ ```",                 // 13
				"  ls",                  // 14
				"  ```",                 // 15
			),
			want: []Block{
				para(1, 1, "Clone:"),
				inItem("Clone:", fence(2, 4, "console", "console", cl(3, "$ git clone repo"))),
				para(5, 5, "Then:"),
				para(6, 6, "Nested step:"),
				inItem("Nested step:", fence(8, 10, "sh", "sh", cl(9, "cd repo"))),
				para(11, 11, "A fence right away:"),
				fence(13, 15, "", "", cl(14, "ls")),
			},
		},
		{
			name: "fence in a list item ends with the item",
			in: lines(
				"- Run:",  // 1
				"  ```",   // 2
				"  make",  // 3
				"```",     // 4: not indented: opens a new block at the top level
				"outside", // 5
				"```",     // 6
				"",        // 7
				"- Item",  // 8
				"  ```",   // 9
				"  code",  // 10
				"",        // 11
				"Para.",   // 12: ends the list and the fence inside it
			),
			want: []Block{
				para(1, 1, "Run:"),
				inItem("Run:", unclosed(fence(2, 3, "", "", cl(3, "make")))),
				fence(4, 6, "", "", cl(5, "outside")),
				para(8, 8, "Item"),
				inItem("Item", unclosed(fence(9, 11, "", "", cl(10, "code"), cl(11, "")))),
				para(12, 12, "Para."),
			},
		},
		{
			name: "code in a blockquote",
			in: lines(
				"> **Note**",     // 1
				"> run this:",    // 2
				">",              // 3
				"> ```sh",        // 4
				"> export X=1",   // 5
				">",              // 6
				"> echo $X",      // 7
				"> ```",          // 8
				">",              // 9
				">     indented", // 10
				"",               // 11
				"> > nested",     // 12
				"> > ```",        // 13
				"> > deep",       // 14
				"> > ```",        // 15
			),
			want: []Block{
				para(1, 2, "**Note**\nrun this:"),
				fence(4, 8, "sh", "sh", cl(5, "export X=1"), cl(6, ""), cl(7, "echo $X")),
				indented(cl(10, "indented")),
				para(12, 12, "nested"),
				fence(13, 15, "", "", cl(14, "deep")),
			},
		},
		{
			name: "CRLF line endings",
			in:   "# Title\r\n\r\nTwo\r\nlines\r\n\r\n```sh\r\nls -l\r\n\r\npwd\r\n```\r\n\r\n    ind\r\n\r\nSetext\r\n---\r\n",
			want: []Block{
				heading(1, 1, "Title"),
				para(3, 4, "Two\nlines"),
				fence(6, 10, "sh", "sh", cl(7, "ls -l"), cl(8, ""), cl(9, "pwd")),
				indented(cl(12, "ind")),
				heading(14, 15, "Setext", 2),
			},
		},
		{
			name: "front matter is not a heading",
			in: lines(
				"---",                // 1
				"title: Quickstart",  // 2
				"tags: [go, docker]", // 3
				"---",                // 4
				"",                   // 5
				"```sh",              // 6
				"go version",         // 7
				"```",                // 8
			),
			want: []Block{fence(6, 8, "sh", "sh", cl(7, "go version"))},
		},
		{
			name: "YAML front matter closed by dots",
			in:   "---\na: 1\n...\n# H\n",
			want: []Block{heading(4, 4, "H")},
		},
		{
			name: "TOML front matter",
			in:   "+++\ntitle = \"x\"\n+++\n\nText\n",
			want: []Block{para(5, 5, "Text")},
		},
		{
			name: "a thematic break that is never closed is not front matter",
			in:   "---\nIntro text\n",
			want: []Block{para(2, 2, "Intro text")},
		},
		{
			name: "HTML comments before a fence",
			in: lines(
				"<!-- markdownlint-disable -->", // 1
				"<!--",                          // 2
				"  a longer comment",            // 3
				"-->",                           // 4
				"```js",                         // 5
				"let a = 1",                     // 6
				"```",                           // 7
			),
			want: []Block{
				html(1, 1, "<!-- markdownlint-disable -->"),
				html(2, 4, "<!--\n  a longer comment\n-->"),
				fence(5, 7, "js", "js", cl(6, "let a = 1")),
			},
		},
		{
			name: "HTML block",
			in:   "<details>\n<summary>More</summary>\n\nHidden *text*\n\n</details>\n",
			want: []Block{
				html(1, 2, "<details>\n<summary>More</summary>"),
				inSection("More", para(4, 4, "Hidden *text*")),
				html(6, 6, "</details>"),
			},
		},
		{
			name: "byte-order mark",
			in:   "\xef\xbb\xbf# Title\n```\nx\n```\n",
			want: []Block{heading(1, 1, "Title"), fence(2, 4, "", "", cl(3, "x"))},
		},
		{
			name: "empty heading is skipped",
			in:   "#\n\ntext\n",
			want: []Block{para(3, 3, "text")},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseMarkdown([]byte(tt.in)).Blocks
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseMarkdown(%q) blocks:\n%s\nwant:\n%s", tt.in, dumpBlocks(got), dumpBlocks(tt.want))
			}
		})
	}
}

func TestParseMarkdownLang(t *testing.T) {
	tests := []struct {
		info string
		want string
	}{
		{"", ""},
		{"bash", "bash"},
		{"Bash", "bash"},
		{"console", "console"},
		{"python title=\"app.py\"", "python"},
		{"  sh  ", "sh"},
		{"{.bash}", "bash"},
		{"{.bash .numberLines}", "bash"},
		{"{ .sh }", "sh"},
		{"{python}", "python"},
		{"{r, echo=FALSE}", "r"},
		{"js {1,3}", "js"},
		{"js{1,3}", "js"},
		{"ts:src/app.ts", "ts"},
		{"bash,linenos", "bash"},
		{"C++", "c++"},
		{"shell-session", "shell-session"},
	}
	for _, tt := range tests {
		t.Run(tt.info, func(t *testing.T) {
			doc := ParseMarkdown([]byte("~~~" + tt.info + "\nx\n~~~\n"))
			if len(doc.Blocks) != 1 {
				t.Fatalf("got %d blocks, want 1", len(doc.Blocks))
			}
			b := doc.Blocks[0]
			if b.Lang != tt.want || b.Info != strings.TrimSpace(tt.info) {
				t.Errorf("info %q: Lang = %q, Info = %q; want Lang %q, Info %q", tt.info, b.Lang, b.Info, tt.want, strings.TrimSpace(tt.info))
			}
		})
	}
}

func TestParseMarkdownImages(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []ImageRef
	}{
		{
			name: "paragraph lines",
			in:   "Look:\nthe screen ![s](a.png)\nand ![t](b.jpg \"t\") ![u](c.gif)\n",
			want: []ImageRef{{"a.png", 2}, {"b.jpg", 3}, {"c.gif", 3}},
		},
		{
			name: "list items",
			in:   "1. Click:\n\n   ![btn](img/btn.png)\n2. ![next](img/next.svg)\n- a\n  - ![deep](deep.png)\n",
			want: []ImageRef{{"img/btn.png", 3}, {"img/next.svg", 4}, {"deep.png", 6}},
		},
		{
			name: "heading, blockquote, link",
			in:   "# ![logo](logo.svg) Title\n\n> ![q](q.png)\n\n[![badge](badge.svg)](https://ci)\n",
			want: []ImageRef{{"logo.svg", 1}, {"q.png", 3}, {"badge.svg", 5}},
		},
		{
			name: "alt text over two lines",
			in:   "intro\n![a long\nalt text](two.png)\n",
			want: []ImageRef{{"two.png", 2}},
		},
		{
			name: "reference image is reported where it is used",
			in:   "![shot][s]\n\n[s]: shots/s.png\n",
			want: []ImageRef{{"shots/s.png", 1}},
		},
		{
			name: "HTML",
			in:   "<div>\n<img src=\"a.svg\"><img\n  alt=\"x\"\n  src='b.png'>\n</div>\n\ntext <img src=c.gif> <img data-src=\"no.png\">\n",
			want: []ImageRef{{"a.svg", 2}, {"b.png", 2}, {"c.gif", 7}},
		},
		{
			name: "remote, data and anchors are ignored",
			in:   "![a](http://x/a.png) ![b](https://x/b.png) ![c](data:image/png;base64,AA==) ![d](//cdn/d.png) ![e](#top) ![f](mailto:a@b) <img src=\"HTTPS://x/y.png\">\n",
			want: nil,
		},
		{
			name: "code is not an image",
			in:   "`![x](x.png)`\n\n```\n![y](y.png)\n<img src=\"z.png\">\n```\n\n    ![w](w.png)\n",
			want: nil,
		},
		{
			name: "CRLF",
			in:   "a\r\n\r\nb ![x](x.png)\r\n<img src=\"y.png\">\r\n",
			want: []ImageRef{{"x.png", 3}, {"y.png", 4}},
		},
		{
			name: "after front matter",
			in:   "---\nimage: cover.png\n---\n![c](cover.png)\n",
			want: []ImageRef{{"cover.png", 4}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseMarkdown([]byte(tt.in)).Images
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("ParseMarkdown(%q).Images =\n  %+v\nwant\n  %+v", tt.in, got, tt.want)
			}
		})
	}
}

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the parser's output")

// TestParseMarkdownGolden pins every block of a realistic tutorial: kind,
// lines, language and the line of every code line. The golden file was
// checked by hand against the tutorial; regenerate it with -update only after
// checking the diff.
func TestParseMarkdownGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "quickstart.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := ParseMarkdown(src)
	got := dumpBlocks(doc.Blocks)
	for _, img := range doc.Images {
		got += fmt.Sprintf("image %d %s\n", img.Line, img.Destination)
	}
	golden := filepath.Join("testdata", "quickstart.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("ParseMarkdown(testdata/quickstart.md) differs from %s:\n--- got\n%s\n--- want\n%s", golden, got, want)
	}
	// Every code line's text is the file's line, de-indented: the Student
	// runs exactly what the reader sees.
	fileLines := strings.Split(string(src), "\n")
	for _, b := range doc.Blocks {
		for _, c := range b.Code {
			if line := fileLines[c.Line-1]; !strings.HasSuffix(line, c.Text) {
				t.Errorf("code line %d = %q, but the file's line is %q", c.Line, c.Text, line)
			}
		}
	}
}

// dumpBlocks prints one block per line: kind, lines, language, and for code
// the lines of its content.
func dumpBlocks(blocks []Block) string {
	var b strings.Builder
	for _, blk := range blocks {
		fmt.Fprintf(&b, "%s %d-%d", blk.Kind, blk.Line, blk.EndLine)
		if blk.Kind == BlockCode {
			fmt.Fprintf(&b, " lang=%q fenced=%v code=[", blk.Lang, blk.Fenced)
			for i, c := range blk.Code {
				if i > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%d:%q", c.Line, c.Text)
			}
			b.WriteByte(']')
		} else {
			fmt.Fprintf(&b, " %q", blk.Text)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// One goldmark parser serves every call; each parse keeps its records apart.
func TestParseMarkdownConcurrent(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "quickstart.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := dumpBlocks(ParseMarkdown(src).Blocks)
	other := []byte("- a\n  ```\n  b\n```\nc\n```\n")
	wantOther := dumpBlocks(ParseMarkdown(other).Blocks)
	errs := make(chan string, 16)
	for i := range 16 {
		go func() {
			in, w := src, want
			if i%2 == 1 {
				in, w = other, wantOther
			}
			for range 20 {
				if got := dumpBlocks(ParseMarkdown(in).Blocks); got != w {
					errs <- got
					return
				}
			}
			errs <- ""
		}()
	}
	for range 16 {
		if got := <-errs; got != "" {
			t.Errorf("concurrent ParseMarkdown gave:\n%s", got)
		}
	}
}

// A fence with no closing line runs to the end of the page and is said to
// be unclosed; a closed one is not.
func TestParseMarkdownUnclosedFence(t *testing.T) {
	doc := ParseMarkdown([]byte("# T\n\n```bash\necho closed\n```\n\nText.\n\n```bash\necho open\n\n## Not a heading\n"))
	var code []Block
	for _, b := range doc.Blocks {
		if b.Kind == BlockCode {
			code = append(code, b)
		}
	}
	if len(code) != 2 || code[0].Unclosed || !code[1].Unclosed || code[1].EndLine != 12 {
		t.Fatalf("code blocks %+v, want the first closed and the second unclosed to line 12", code)
	}
}
