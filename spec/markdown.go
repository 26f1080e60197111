package spec

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
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
	EndLine int       `json:"endLine"` // last line: the closing fence when there is one
	// Text is the block's source (paragraphs and headings keep their inline
	// Markdown, so `app.py` keeps its backticks) or a code block's content.
	Text string `json:"text"`
	// Code blocks only.
	Info   string     `json:"info,omitempty"` // the whole info string
	Lang   string     `json:"lang,omitempty"` // its first word, lower-case
	Fenced bool       `json:"fenced,omitempty"`
	Code   []CodeLine `json:"code,omitempty"` // content lines with their own line numbers
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

var htmlImgSrc = regexp.MustCompile(`(?i)<img\b[^>]*\bsrc\s*=\s*["']([^"']+)["']`)

// ParseMarkdown parses CommonMark (goldmark) into leaf blocks and local image
// references, all with exact line numbers.
func ParseMarkdown(source []byte) Document {
	lines := newLineIndex(source)
	root := goldmark.New().Parser().Parse(text.NewReader(source))
	var doc Document
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
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
				doc.Blocks = append(doc.Blocks, b)
			}
		case *ast.FencedCodeBlock:
			doc.Blocks = append(doc.Blocks, codeBlock(node, node.Info, true, source, lines))
			return ast.WalkSkipChildren, nil
		case *ast.CodeBlock:
			doc.Blocks = append(doc.Blocks, codeBlock(node, nil, false, source, lines))
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock:
			b := htmlBlock(node, source, lines)
			doc.Blocks = append(doc.Blocks, b)
			doc.Images = append(doc.Images, htmlImages(b.Text, b.Line)...)
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
		Text:    strings.TrimRight(buf.String(), "\n"),
	}, true
}

func codeBlock(n ast.Node, info *ast.Text, fenced bool, source []byte, lines lineIndex) Block {
	b := Block{Kind: BlockCode, Fenced: fenced}
	if info != nil {
		b.Info = strings.TrimSpace(string(info.Segment.Value(source)))
		if f := strings.Fields(b.Info); len(f) > 0 {
			b.Lang = strings.ToLower(strings.TrimPrefix(strings.TrimSuffix(strings.Split(f[0], ",")[0], "}"), "{."))
		}
	}
	segs := n.Lines()
	var buf strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		value := strings.Repeat(" ", seg.Padding) + string(seg.Value(source))
		buf.WriteString(value)
		b.Code = append(b.Code, CodeLine{Line: lines.line(seg.Start), Text: strings.TrimRight(value, "\r\n")})
	}
	b.Text = buf.String()
	switch {
	case n.Pos() >= 0:
		b.Line = lines.line(n.Pos())
	case len(b.Code) > 0:
		b.Line = b.Code[0].Line
	}
	b.EndLine = b.Line
	if len(b.Code) > 0 {
		b.EndLine = b.Code[len(b.Code)-1].Line
	}
	if fenced {
		b.EndLine = closingFence(source, lines, b)
	}
	return b
}

// closingFence finds the line of a fenced block's closing fence, which
// goldmark does not record: the line right after the content when it is a
// fence of the same character at least as long as the opening one.
func closingFence(source []byte, lines lineIndex, b Block) int {
	opening := strings.TrimLeft(lineAt(source, lines, b.Line), " >\t-*+0123456789.)")
	fence := opening[:len(opening)-len(strings.TrimLeft(opening, "`~"))]
	if fence == "" {
		return b.EndLine
	}
	next := b.Line + 1
	if len(b.Code) > 0 {
		next = b.Code[len(b.Code)-1].Line + 1
	}
	candidate := strings.TrimSpace(strings.TrimLeft(lineAt(source, lines, next), " >\t"))
	if len(candidate) >= len(fence) && strings.Trim(candidate, fence[:1]) == "" {
		return next
	}
	return b.EndLine // unclosed: the block ends with its container
}

func htmlBlock(n *ast.HTMLBlock, source []byte, lines lineIndex) Block {
	segs := n.Lines()
	var buf strings.Builder
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		buf.Write(seg.Value(source))
	}
	if n.HasClosure() {
		buf.Write(n.ClosureLine.Value(source))
	}
	b := Block{Kind: BlockHTML, Text: strings.TrimRight(buf.String(), "\n")}
	if segs.Len() > 0 {
		b.Line = lines.line(segs.At(0).Start)
		b.EndLine = b.Line + strings.Count(b.Text, "\n")
	}
	return b
}

func htmlImages(html string, firstLine int) []ImageRef {
	var refs []ImageRef
	for _, m := range htmlImgSrc.FindAllStringSubmatchIndex(html, -1) {
		dest := html[m[2]:m[3]]
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

func (l lineIndex) count() int { return len(l) }

func lineAt(source []byte, l lineIndex, line int) string {
	if line < 1 || line > len(l) {
		return ""
	}
	start := l[line-1]
	end := len(source)
	if line < len(l) {
		end = l[line] - 1
	}
	return strings.TrimRight(string(source[start:end]), "\r")
}
