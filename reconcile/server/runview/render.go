package runview

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Page is a tutorial rendered for the dashboard.
type Page struct {
	// HTML is the page as safe HTML: goldmark's default renderer leaves raw
	// HTML out and drops dangerous links; headings get no id (a tutorial's
	// heading must not take the id of one of the dashboard's elements). Every
	// top-level block carries data-line, its first source line, and every
	// code block data-line and data-end-line, its fences.
	HTML string
	// Blocks are the code blocks, in page order.
	Blocks []Block
}

// Render renders untrusted Markdown for the dashboard.
func Render(source string) (Page, error) {
	src := []byte(source)
	lines := lineIndex(src)
	cr := &codeRenderer{lines: lines}
	md := goldmark.New(
		goldmark.WithExtensions(extension.Table, extension.Strikethrough),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(cr, 100))),
	)
	doc := md.Parser().Parse(text.NewReader(src), parser.WithContext(parser.NewContext()))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if l := firstLine(n, lines); l > 0 {
			n.SetAttributeString("data-line", fmt.Sprint(l))
		}
	}
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		return Page{}, fmt.Errorf("render tutorial: %w", err)
	}
	return Page{HTML: buf.String(), Blocks: cr.blocks}, nil
}

// lines maps byte offsets to 1-based line numbers.
type lines struct {
	starts []int
	src    []byte
}

func lineIndex(src []byte) *lines {
	l := &lines{starts: []int{0}, src: src}
	for i, c := range src {
		if c == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// at is the line of byte offset off.
func (l *lines) at(off int) int { return sort.SearchInts(l.starts, off+1) }

// text is line n without its line ending ("" past the end).
func (l *lines) text(n int) string {
	if n < 1 || n > len(l.starts) {
		return ""
	}
	end := len(l.src)
	if n < len(l.starts) {
		end = l.starts[n]
	}
	return strings.TrimRight(string(l.src[l.starts[n-1]:end]), "\r\n")
}

// firstLine is the first source line of n or of its first descendant with
// text (0: none).
func firstLine(n ast.Node, l *lines) int {
	if fc, ok := n.(*ast.FencedCodeBlock); ok {
		return fenceLines(fc, l).Line
	}
	if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		return l.at(n.Lines().At(0).Start)
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if c.Type() != ast.TypeBlock {
			continue
		}
		if f := firstLine(c, l); f > 0 {
			return f
		}
	}
	return 0
}

// fenceLines are a fenced block's fence lines: the opening one (its info
// string's, else the line above its code) and the closing one when it has
// one.
func fenceLines(n *ast.FencedCodeBlock, l *lines) Block {
	var b Block
	switch {
	case n.Info != nil:
		b.Line = l.at(n.Info.Segment.Start)
	case n.Lines().Len() > 0:
		b.Line = l.at(n.Lines().At(0).Start) - 1
	}
	last := b.Line
	if k := n.Lines().Len(); k > 0 {
		last = l.at(n.Lines().At(k - 1).Start)
	}
	b.EndLine = last
	if c := strings.TrimSpace(l.text(last + 1)); strings.HasPrefix(c, "```") || strings.HasPrefix(c, "~~~") {
		b.EndLine = last + 1
	}
	return b
}

// codeRenderer renders code blocks with their lines on them, and records
// them.
type codeRenderer struct {
	lines  *lines
	blocks []Block
}

// RegisterFuncs is part of renderer.NodeRenderer.
func (r *codeRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.render)
	reg.Register(ast.KindCodeBlock, r.render)
}

func (r *codeRenderer) render(w util.BufWriter, src []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		_, _ = w.WriteString("</code></pre>\n")
		return ast.WalkContinue, nil
	}
	var b Block
	var lang []byte
	if fc, ok := node.(*ast.FencedCodeBlock); ok {
		b, lang = fenceLines(fc, r.lines), fc.Language(src)
	} else if k := node.Lines().Len(); k > 0 {
		b = Block{Line: r.lines.at(node.Lines().At(0).Start), EndLine: r.lines.at(node.Lines().At(k - 1).Start)}
	}
	r.blocks = append(r.blocks, b)
	fmt.Fprintf(w, `<pre class="code-block" data-line="%d" data-end-line="%d"`, b.Line, b.EndLine)
	if len(lang) > 0 {
		_, _ = w.WriteString(` data-lang="`)
		_, _ = w.Write(util.EscapeHTML(lang))
		_ = w.WriteByte('"')
	}
	_, _ = w.WriteString("><code>")
	for i := range node.Lines().Len() {
		seg := node.Lines().At(i)
		_, _ = w.Write(util.EscapeHTML(seg.Value(src)))
	}
	return ast.WalkContinue, nil
}
