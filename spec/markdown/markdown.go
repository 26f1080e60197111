package markdown

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// BlockKind says what a Markdown block is.
type BlockKind string

// The kinds of block the Student reads.
const (
	BlockHeading   BlockKind = "heading"
	BlockParagraph BlockKind = "paragraph"
	BlockCode      BlockKind = "code"
	BlockHTML      BlockKind = "html"
)

// Block is one leaf block of the tutorial, in document order, with the exact
// 1-based lines it spans in the file. Paragraphs inside lists and quotes are
// blocks of their own.
type Block struct {
	Kind    BlockKind `json:"kind"`
	Line    int       `json:"line"`    // first line: the opening fence for fenced code
	EndLine int       `json:"endLine"` // last line: the closing fence (or setext underline) when there is one
	// Text is the block's source (paragraphs and headings keep their inline
	// Markdown, so `app.py` keeps its backticks) or a code block's content,
	// with "\n" line endings whatever the file uses.
	Text string `json:"text"`
	// Code blocks only.
	Info   string `json:"info,omitempty"` // the whole info string
	Lang   string `json:"lang,omitempty"` // its first word, lower-case
	Fenced bool   `json:"fenced,omitempty"`
	// Unclosed: a fenced block with no closing fence, which runs to the end
	// of what holds it (the page, a list item, a quote).
	Unclosed bool       `json:"unclosed,omitempty"`
	Code     []CodeLine `json:"code,omitempty"` // content lines with their own line numbers
	// Level is a heading's level (1 for `#`), 0 for other blocks.
	Level int `json:"level,omitempty"`
	// Tab is the label of the content tab the block is in ("Windows",
	// "Linux"), and TabGroup numbers its group of tabs from 1: tabs of one
	// group are alternatives. 0 when the block is in no tab.
	Tab      string `json:"tab,omitempty"`
	TabGroup int    `json:"tabGroup,omitempty"`
	// Section is the title of the collapsed section the block is in (a
	// <details> with its <summary>, GitBook's <!--sec data-title="..."-->),
	// "" outside one.
	Section string `json:"section,omitempty"`
	// Item is the label of the list item the block is nested in: the
	// item's first paragraph ("For Fedora:"), when the block comes after
	// it in the item. "" outside lists and for the label itself.
	Item string `json:"item,omitempty"`
}

// CodeLine is one line of a code block with its line number in the file.
type CodeLine struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// ImageRef is an image reference as written in the Markdown.
type ImageRef struct {
	Destination string
	Line        int
}

// Document is a parsed tutorial.
type Document struct {
	Blocks []Block
	Images []ImageRef
}

// htmlImgSrc finds the first src attribute of an <img> tag (not data-src),
// quoted or not.
var htmlImgSrc = regexp.MustCompile(`(?i)<img\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))`)

var utf8BOM = []byte("\xef\xbb\xbf")

// markdownParser is goldmark's CommonMark parser with two block parsers
// wrapped so that they record the lines goldmark does not keep: a fenced code
// block's closing fence and a setext heading's underline. A goldmark parser is
// safe for concurrent use once built; the records live in each parse's Context.
var markdownParser = parser.NewParser(
	parser.WithBlockParsers(
		util.Prioritized(lineRecorder{parser.NewSetextHeadingParser(), setextUnderlineKey, true}, 100),
		util.Prioritized(parser.NewThematicBreakParser(), 200),
		util.Prioritized(parser.NewListParser(), 300),
		util.Prioritized(parser.NewListItemParser(), 400),
		util.Prioritized(parser.NewCodeBlockParser(), 500),
		util.Prioritized(parser.NewATXHeadingParser(), 600),
		util.Prioritized(lineRecorder{parser.NewFencedCodeBlockParser(), closingFenceKey, false}, 700),
		util.Prioritized(parser.NewBlockquoteParser(), 800),
		util.Prioritized(parser.NewHTMLBlockParser(), 900),
		util.Prioritized(parser.NewParagraphParser(), 1000),
	),
	parser.WithInlineParsers(parser.DefaultInlineParsers()...),
	parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
)

var (
	closingFenceKey    = parser.NewContextKey()
	setextUnderlineKey = parser.NewContextKey()
)

// lineRecorder wraps a block parser and records, per node, the offset of the
// line that ends it: the line a setext parser opens on (its underline), or the
// line on which a fenced code parser closes (its closing fence).
type lineRecorder struct {
	parser.BlockParser
	key    parser.ContextKey
	onOpen bool
}

func (r lineRecorder) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	_, seg := reader.PeekLine()
	node, state := r.BlockParser.Open(parent, reader, pc)
	if r.onOpen && node != nil {
		r.record(pc, node, seg.Start)
	}
	return node, state
}

func (r lineRecorder) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	_, seg := reader.PeekLine()
	state := r.BlockParser.Continue(node, reader, pc)
	if !r.onOpen && state&parser.Close != 0 {
		r.record(pc, node, seg.Start)
	}
	return state
}

func (r lineRecorder) record(pc parser.Context, node ast.Node, offset int) {
	m, _ := pc.Get(r.key).(map[ast.Node]int)
	if m == nil {
		m = map[ast.Node]int{}
		pc.Set(r.key, m)
	}
	m[node] = offset
}

func recorded(pc parser.Context, key parser.ContextKey, node ast.Node) (int, bool) {
	m, _ := pc.Get(key).(map[ast.Node]int)
	off, ok := m[node]
	return off, ok
}

// ParseMarkdown parses CommonMark (goldmark) into leaf blocks and local image
// references, all with exact line numbers. A leading byte-order mark is
// ignored, and so is front matter (a first line of "---" or "+++" up to the
// matching closing line): it is metadata, not a heading. Code in the other
// forms pages carry it (an HTML <pre>, a generator's highlight tag, a MyST
// directive, a fence indented past a list item's content) is a code block
// too: see codeforms.go.
func ParseMarkdown(source []byte) Document {
	source = bytes.TrimPrefix(source, utf8BOM)
	source = blankFrontMatter(source)
	source, tabs := findTabs(source)
	directives := newDirectiveTabs(tabs)
	var forms []Block
	for pass := 1; ; pass++ {
		lines := newLineIndex(source)
		pc := parser.NewContext()
		root := markdownParser.Parse(text.NewReader(source), parser.WithContext(pc))
		if pass < maxFormPasses {
			if found := findCodeForms(source, root, pc, lines, directives); len(found.blank) > 0 {
				forms = append(forms, found.blocks...)
				source = blankLines(source, found.blank)
				continue
			}
		}
		doc := readBlocks(root, pc, source, lines)
		if len(forms) > 0 {
			doc.Blocks = append(doc.Blocks, forms...)
			sort.SliceStable(doc.Blocks, func(i, j int) bool { return doc.Blocks[i].Line < doc.Blocks[j].Line })
		}
		sections := sectionTitles(strings.Split(string(source), "\n"))
		for i := range doc.Blocks {
			if t, ok := tabs[doc.Blocks[i].Line]; ok {
				doc.Blocks[i].Tab, doc.Blocks[i].TabGroup = t.label, t.group
			}
			doc.Blocks[i].Section = sections[doc.Blocks[i].Line]
		}
		return doc
	}
}

// readBlocks reads a parse's leaf blocks and local images in document order.
func readBlocks(root ast.Node, pc parser.Context, source []byte, lines lineIndex) Document {
	var doc Document
	var items []string // the labels of the list items the walk is in
	add := func(b Block) {
		if len(items) > 0 && items[len(items)-1] != b.Text {
			b.Item = items[len(items)-1]
		}
		doc.Blocks = append(doc.Blocks, b)
	}
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if _, ok := n.(*ast.ListItem); ok {
			if entering {
				items = append(items, itemLabel(n, source, lines))
			} else {
				items = items[:len(items)-1]
			}
			return ast.WalkContinue, nil
		}
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := n.(type) {
		case *ast.Heading, *ast.Paragraph, *ast.TextBlock:
			kind := BlockParagraph
			if _, ok := node.(*ast.Heading); ok {
				kind = BlockHeading
			}
			if b, ok := leafBlock(node, kind, source, lines); ok {
				if off, ok := recorded(pc, setextUnderlineKey, node); ok {
					b.EndLine = lines.line(off)
				}
				if h, ok := node.(*ast.Heading); ok {
					b.Level = h.Level
				}
				add(b)
			}
		case *ast.FencedCodeBlock:
			b := codeBlock(node, node.Info, true, source, lines)
			if off, ok := recorded(pc, closingFenceKey, node); ok {
				b.EndLine = lines.line(off)
			} else {
				b.Unclosed = true
			}
			add(b)
			return ast.WalkSkipChildren, nil
		case *ast.CodeBlock:
			for _, b := range indentedFences(codeBlock(node, nil, false, source, lines)) {
				add(b)
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			if b, ok := htmlBlock(node, source, lines); ok {
				add(b)
				doc.Images = append(doc.Images, htmlImages(b.Text, b.Line)...)
			}
			return ast.WalkSkipChildren, nil
		case *ast.Image:
			if dest := string(node.Destination); isLocalPath(dest) {
				doc.Images = append(doc.Images, ImageRef{Destination: dest, Line: lines.line(inlinePos(node))})
			}
		case *ast.RawHTML:
			var buf bytes.Buffer
			for i := 0; i < node.Segments.Len(); i++ {
				seg := node.Segments.At(i)
				buf.Write(seg.Value(source))
			}
			if node.Segments.Len() > 0 {
				doc.Images = append(doc.Images, htmlImages(buf.String(), lines.line(node.Segments.At(0).Start))...)
			}
		}
		return ast.WalkContinue, nil
	})
	return doc
}

// itemLabel is the text of a list item's first paragraph, "" when the item
// starts with something else.
func itemLabel(item ast.Node, source []byte, lines lineIndex) string {
	first := item.FirstChild()
	switch first.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		if b, ok := leafBlock(first, BlockParagraph, source, lines); ok {
			return b.Text
		}
	}
	return ""
}

// FrontMatter is the text of a page's leading front matter block (between
// its opening and closing lines, which are not included) and its delimiter:
// "---" for YAML, "+++" for TOML. ok is false when the page has none (a
// first line of "---" with no closing line is a thematic break).
func FrontMatter(source []byte) (body, delim string, ok bool) {
	first, rest, found := bytes.Cut(source, []byte("\n"))
	delim = string(bytes.TrimRight(first, " \t\r"))
	if !found || (delim != "---" && delim != "+++") {
		return "", "", false
	}
	var lines []string
	for len(rest) > 0 {
		line, next, _ := bytes.Cut(rest, []byte("\n"))
		if l := string(bytes.TrimRight(line, " \t\r")); l == delim || (delim == "---" && l == "...") {
			return strings.Join(lines, "\n"), delim, true
		}
		lines = append(lines, string(bytes.TrimRight(line, "\r")))
		rest = next
	}
	return "", "", false
}

// blankFrontMatter empties the lines of a leading front matter block, keeping
// its newlines so that every later line keeps its number.
func blankFrontMatter(source []byte) []byte {
	first, rest, ok := bytes.Cut(source, []byte("\n"))
	delim := string(bytes.TrimRight(first, " \t\r"))
	if !ok || (delim != "---" && delim != "+++") {
		return source
	}
	end := len(first) + 1
	for len(rest) > 0 {
		line, next, hasNL := bytes.Cut(rest, []byte("\n"))
		end += len(line)
		if hasNL {
			end++
		}
		if l := string(bytes.TrimRight(line, " \t\r")); l == delim || (delim == "---" && l == "...") {
			out := make([]byte, 0, len(source))
			out = append(out, bytes.Repeat([]byte("\n"), bytes.Count(source[:end], []byte("\n")))...)
			return append(out, source[end:]...)
		}
		rest = next
	}
	return source // no closing line: a thematic break, not front matter
}

func leafBlock(n ast.Node, kind BlockKind, source []byte, lines lineIndex) (Block, bool) {
	segs := n.Lines()
	if segs.Len() == 0 {
		return Block{}, false
	}
	first, last := segs.At(0), segs.At(segs.Len()-1)
	var buf strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		buf.Write(seg.Value(source))
	}
	start := lines.line(first.Start)
	if kind == BlockHeading && n.Pos() >= 0 {
		start = lines.line(n.Pos())
	}
	return Block{
		Kind:    kind,
		Line:    start,
		EndLine: lines.line(max(last.Start, last.Stop-1)),
		Text:    strings.TrimRight(normalizeEOL(buf.String()), "\r\n"),
	}, true
}

func codeBlock(n ast.Node, info *ast.Text, fenced bool, source []byte, lines lineIndex) Block {
	b := Block{Kind: BlockCode, Fenced: fenced}
	segs := n.Lines()
	var buf strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		value := trimEOL(string(seg.Value(source)))
		if seg.Padding > 0 { // a tab that stood for more columns than were used
			value = strings.Repeat(" ", seg.Padding) + value
		}
		buf.WriteString(value)
		buf.WriteByte('\n')
		b.Code = append(b.Code, CodeLine{Line: lines.line(seg.Start), Text: value})
	}
	b.Text = buf.String()
	if info != nil {
		setInfo(&b, strings.TrimSpace(string(info.Segment.Value(source))))
	}
	switch {
	case n.Pos() >= 0:
		b.Line = lines.line(n.Pos())
	case len(b.Code) > 0:
		b.Line = b.Code[0].Line
	}
	// An unclosed fence ends with its last line (or with its container).
	b.EndLine = b.Line
	if len(b.Code) > 0 {
		b.EndLine = b.Code[len(b.Code)-1].Line
	}
	return b
}

// infoLang is the language of a code block's info string: its first word,
// lower-case, also in the attribute forms `{.bash}`, `{python}`,
// `{r, echo=FALSE}`, `js{1,3}` and `js:app.js`.
func infoLang(info string) string {
	s := strings.TrimSpace(info)
	if strings.HasPrefix(s, "{") {
		s = strings.TrimLeft(s[1:], " .")
	}
	if end := strings.IndexFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",{}:", r)
	}); end >= 0 {
		s = s[:end]
	}
	return strings.ToLower(s)
}

func htmlBlock(n *ast.HTMLBlock, source []byte, lines lineIndex) (Block, bool) {
	segs := n.Lines()
	if segs.Len() == 0 {
		return Block{}, false
	}
	var buf strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		buf.Write(seg.Value(source))
	}
	last := segs.At(segs.Len() - 1)
	if n.HasClosure() {
		buf.Write(n.ClosureLine.Value(source))
		last = n.ClosureLine
	}
	return Block{
		Kind:    BlockHTML,
		Line:    lines.line(segs.At(0).Start),
		EndLine: lines.line(max(last.Start, last.Stop-1)),
		Text:    strings.TrimRight(normalizeEOL(buf.String()), "\r\n"),
	}, true
}

func htmlImages(html string, firstLine int) []ImageRef {
	var refs []ImageRef
	for _, m := range htmlImgSrc.FindAllStringSubmatchIndex(html, -1) {
		var dest string
		for g := 2; g < len(m); g += 2 {
			if m[g] >= 0 {
				dest = html[m[g]:m[g+1]]
				break
			}
		}
		if isLocalPath(dest) {
			refs = append(refs, ImageRef{Destination: dest, Line: firstLine + strings.Count(html[:m[0]], "\n")})
		}
	}
	return refs
}

// inlinePos is the offset of an inline node, or of its first text child.
func inlinePos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			return p.Lines().At(0).Start
		}
	}
	return 0
}

func isLocalPath(dest string) bool {
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "//") {
		return false
	}
	if i := strings.Index(dest, ":"); i > 0 && !strings.ContainsAny(dest[:i], "/.") {
		return false // a URL scheme: http:, https:, data:, mailto:
	}
	return true
}

func normalizeEOL(s string) string { return strings.ReplaceAll(s, "\r\n", "\n") }

func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// lineIndex maps byte offsets to 1-based line numbers.
type lineIndex []int

func newLineIndex(source []byte) lineIndex {
	idx := lineIndex{0}
	for i, b := range source {
		if b == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

func (l lineIndex) line(offset int) int {
	return sort.Search(len(l), func(i int) bool { return l[i] > offset })
}
