package markdown

import (
	htmlstd "html"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
)

// Pages carry code in more forms than CommonMark's fences and indented
// blocks, and a reader sees each as code: an HTML <pre> (as site generators
// and converters write it, highlighted or not) or an MDX <CodeBlock>, a generator's highlight tag
// (Hugo's {{< highlight bash >}}, Liquid's {% highlight ruby %}), a fence
// that a list item's lazy continuation turned into paragraph text, and the
// directives of MyST (directives.go). CommonMark reads these as HTML or
// paragraphs, or splits them at their blank lines. So ParseMarkdown parses,
// finds them (findCodeForms), turns each into a code block with its exact
// lines, blanks their lines (every line keeps its number, a block quote its
// markers) and parses again, until none is left.

// maxFormPasses bounds the parses: each pass finds the forms a previous one
// uncovered (a <pre> inside a MyST note, a tab inside a tab set).
const maxFormPasses = 6

// codeForms is what one pass found: code blocks to add, and the lines to
// blank before the next parse.
type codeForms struct {
	blocks []Block
	blank  map[int]bool // 1-based lines
}

// frame is where a form's text sits in its line: inside how many block
// quotes, and indented by how many columns (a list item's).
type frame struct{ quotes, indent int }

// formScan reads the lines of one pass's source.
type formScan struct {
	source []byte
	raw    []string // the source's lines, each with its line ending
	lines  lineIndex
	// unclosed maps a kind of closing line (and the quotes it is in) to the
	// first line after which none was found: a later form of the kind is
	// not looked for again, so a page of unclosed openers stays linear.
	unclosed map[string]int
	closers  map[string]*regexp.Regexp // by fence
}

var (
	// preOpen is an HTML <pre>, possibly inside wrappers on the same line
	// (`<div class="highlight"><pre>`), with an optional <code> in it.
	preOpen  = regexp.MustCompile(`(?is)^((?:<(?:div|figure|section)\b[^<>]*>\s*)*)<pre\b([^<>]*)>((?:\s*<span\b[^<>]*>\s*</span>)?\s*<code\b([^<>]*)>)?`)
	preClose = regexp.MustCompile(`(?i)</pre\s*>`)
	// codeClose ends a <pre>'s content: `</code>` just before `</pre>`.
	codeClose = regexp.MustCompile(`(?i)</code\s*>\s*$`)
	// inlineMarkup is the tags a highlighter puts inside a <pre>: a browser
	// shows only their text.
	inlineMarkup = regexp.MustCompile(`(?i)</?(?:span|code|b|strong|i|em|a|mark|u|s|kbd|samp|var|font|small|sub|sup|del|ins)\b[^<>]*>`)
	// hugoOpen is Hugo's {{< highlight bash "linenos=table" >}} or
	// {{< code lang="bash" >}} (or with %), liquidOpen Liquid's
	// {% highlight ruby linenos %} (Jekyll, Eleventy); each alone on its
	// line, closed by its own end tag.
	hugoOpen   = regexp.MustCompile(`^\{\{[<%]-?\s*(highlight|code)\b\s*(.*?)\s*-?[>%]\}\}$`)
	liquidOpen = regexp.MustCompile(`^\{%-?\s*(highlight)\b\s*(.*?)\s*-?%\}$`)
	// tagClosers end each tag's content.
	tagClosers = map[string]*regexp.Regexp{
		"hugo highlight":   regexp.MustCompile(`^\{\{[<%]-?\s*/\s*highlight\s*-?[>%]\}\}$`),
		"hugo code":        regexp.MustCompile(`^\{\{[<%]-?\s*/\s*code\s*-?[>%]\}\}$`),
		"liquid highlight": regexp.MustCompile(`^\{%-?\s*endhighlight\s*-?%\}$`),
	}
	// lazyFence is a fence opener in paragraph text: a list item's lazy
	// continuation swallowed it.
	lazyFence = regexp.MustCompile("^(`{3,})([^`]*)$|^(~{3,})(.*)$")
)

// fenceCloser is the line that closes a fence opened with fence (trimmed):
// the same character, at least as many times.
func fenceCloser(fence string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(fence[:1]) + `{` + strconv.Itoa(len(fence)) + `,}\s*$`)
}

// findCodeForms finds, in one parse, the code written in the forms above.
func findCodeForms(source []byte, root ast.Node, pc parser.Context, lines lineIndex, directives *directiveTabs) codeForms {
	forms := codeForms{blank: map[int]bool{}}
	s := &formScan{source: source, raw: strings.SplitAfter(string(source), "\n"), lines: lines, unclosed: map[string]int{}, closers: map[string]*regexp.Regexp{}}
	taken := 0 // the last line of the last form found
	_ = ast.Walk(root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch node := n.(type) {
		case *ast.FencedCodeBlock:
			if first, last, ok := directives.unwrap(node, source, pc, lines); ok {
				forms.blank[first], forms.blank[last] = true, true
			}
			return ast.WalkSkipChildren, nil
		case *ast.HTMLBlock, *ast.Paragraph, *ast.TextBlock:
			segs := n.Lines()
			for i := 0; i < segs.Len(); i++ {
				start := lines.line(segs.At(i).Start)
				if start <= taken {
					continue
				}
				quotes := strings.Count(string(source[lines[start-1]:segs.At(i).Start]), ">")
				if b, ok := s.formAt(node, i, start, quotes); ok {
					forms.blocks = append(forms.blocks, b)
					for l := b.Line; l <= b.EndLine; l++ {
						forms.blank[l] = true
					}
					taken = b.EndLine
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return forms
}

// formAt reads the form, if any, that starts on line start (the i-th line)
// of the node: an HTML <pre> or an MDX <CodeBlock>, a highlight tag or a
// fence swallowed by paragraph text.
func (s *formScan) formAt(node ast.Node, i, start, quotes int) (Block, bool) {
	rest := unquote(trimEOL(s.raw[start-1]), quotes)
	f := frame{quotes: quotes, indent: textutil.Columns(rest)}
	opener := strings.TrimSpace(rest)
	for _, e := range elements {
		if e.open.MatchString(opener) {
			return s.elementBlock(e, start, f, func() string { return s.before(node, i) })
		}
	}
	if _, isHTML := node.(*ast.HTMLBlock); isHTML {
		return Block{}, false
	}
	if m := hugoOpen.FindStringSubmatch(opener); m != nil {
		return s.tagBlock(start, f, m[2], tagClosers["hugo "+m[1]])
	}
	if m := liquidOpen.FindStringSubmatch(opener); m != nil {
		return s.tagBlock(start, f, m[2], tagClosers["liquid "+m[1]])
	}
	if m := lazyFence.FindStringSubmatch(opener); m != nil {
		fence, info := m[1]+m[3], strings.TrimSpace(m[2]+m[4])
		if s.closers[fence] == nil {
			s.closers[fence] = fenceCloser(fence)
		}
		b, ok := s.between(start, f, s.closers[fence])
		if ok {
			b.Fenced = true
			setInfo(&b, info)
		}
		return b, ok
	}
	return Block{}, false
}

// before is the text of the (up to three) lines of an HTML block above its
// i-th: the wrappers (`<div class="language-bash highlighter-rouge">`) a
// <pre> sits in.
func (s *formScan) before(n ast.Node, i int) string {
	if _, ok := n.(*ast.HTMLBlock); !ok {
		return ""
	}
	var b strings.Builder
	segs := n.Lines()
	for k := max(0, i-3); k < i; k++ {
		seg := segs.At(k)
		b.Write(seg.Value(s.source))
	}
	return b.String()
}

// text is line l (1-based) without its frame: the block quote markers, then
// up to the frame's columns of indentation.
func (s *formScan) text(l int, f frame) string {
	return dedentBy(unquote(trimEOL(s.raw[l-1]), f.quotes), f.indent)
}

// between reads the lines after start up to the first that matches closer
// (without its frame, trimmed) as a code block from start to that line.
func (s *formScan) between(start int, f frame, closer *regexp.Regexp) (Block, bool) {
	key := closer.String() + " " + strconv.Itoa(f.quotes)
	if from, ok := s.unclosed[key]; ok && start >= from {
		return Block{}, false
	}
	for end := start + 1; end <= len(s.raw); end++ {
		if !closer.MatchString(strings.TrimSpace(s.text(end, f))) {
			continue
		}
		b := Block{Kind: BlockCode, Line: start, EndLine: end}
		for l := start + 1; l < end; l++ {
			b.Code = append(b.Code, CodeLine{Line: l, Text: s.text(l, f)})
		}
		b.Text = joinCode(b.Code)
		return b, true
	}
	s.unclosed[key] = start
	return Block{}, false
}

// tagBlock is a highlight tag's content; its arguments are the block's info
// string, the language first.
func (s *formScan) tagBlock(start int, f frame, args string, closer *regexp.Regexp) (Block, bool) {
	b, ok := s.between(start, f, closer)
	if ok {
		setInfo(&b, tagInfo(args))
	}
	return b, ok
}

// tagArg is one argument of a highlight tag: a word, a quoted string, or
// either after `name=`.
var tagArg = regexp.MustCompile(`(?:([\w-]+)\s*=\s*)?("[^"]*"|'[^']*'|[^\s"']+)`)

// tagInfo turns a highlight tag's arguments into an info string: `bash
// "linenos=table"` stays as it is, `lang="bash" file="x.sh"` becomes `bash
// file="x.sh"`, `"js"` becomes `js`.
func tagInfo(args string) string {
	lang, rest := "", []string{}
	for i, m := range tagArg.FindAllStringSubmatch(args, -1) {
		value := strings.Trim(m[2], `"'`)
		switch {
		case i == 0 && m[1] == "":
			lang = value
		case lang == "" && (strings.EqualFold(m[1], "lang") || strings.EqualFold(m[1], "language")):
			lang = value
		default:
			rest = append(rest, m[0])
		}
	}
	return strings.TrimSpace(lang + " " + strings.Join(rest, " "))
}

// element is an HTML or MDX element whose content is code: its opening
// tags (the groups that hold their attributes, innermost first) and its
// closing tag.
type element struct {
	open, close *regexp.Regexp
	attrs       []int
}

var (
	// codeElement is Docusaurus' <CodeBlock language="bash" title="x.sh">,
	// its content plain text or a template literal ({`...`}).
	codeElementOpen  = regexp.MustCompile(`(?s)^<CodeBlock\b([^<>]*)>`)
	codeElementClose = regexp.MustCompile(`</CodeBlock\s*>`)
	elements         = []element{{preOpen, preClose, []int{4, 2, 1}}, {codeElementOpen, codeElementClose, []int{1}}}
)

// elementBlock reads an element's code from its opening line to the line of
// its closing tag: the text a browser shows, tags dropped and entities
// decoded (a template literal's text as written), each line at its own
// number. An element never closed is left as HTML.
func (s *formScan) elementBlock(e element, start int, f frame, wrappers func() string) (Block, bool) {
	key := e.close.String() + " " + strconv.Itoa(f.quotes)
	if from, ok := s.unclosed[key]; ok && start >= from {
		return Block{}, false
	}
	var joined strings.Builder
	end := 0
	for l := start; l <= len(s.raw) && end == 0; l++ {
		t := s.text(l, f)
		if l == start {
			t = strings.TrimLeft(t, " \t")
		} else {
			joined.WriteByte('\n')
		}
		joined.WriteString(t)
		if e.close.MatchString(t) {
			end = l
		}
	}
	text := joined.String()
	if end == 0 {
		s.unclosed[key] = start
	}
	m := e.open.FindStringSubmatchIndex(text)
	if end == 0 || m == nil {
		return Block{}, false
	}
	closing := e.close.FindStringIndex(text[m[1]:])
	if closing == nil {
		return Block{}, false
	}
	lines, first := elementLines(text[m[1]:m[1]+closing[0]], start+strings.Count(text[:m[1]], "\n"))
	if len(lines) == 0 {
		return Block{}, false
	}
	b := Block{Kind: BlockCode, Line: start, EndLine: end}
	for i, t := range lines {
		b.Code = append(b.Code, CodeLine{Line: first + i, Text: t})
	}
	b.Text = joinCode(b.Code)
	var attrs []string
	for _, g := range e.attrs {
		attrs = append(attrs, sub(text, m, g))
	}
	setInfo(&b, htmlInfo(append(attrs, wrappers())))
	return b, true
}

// elementLines are the lines of an element's content, which starts on line
// first, and the line the first of them is on. A browser drops the newline
// just after the opening tag; a template literal is read as written.
func elementLines(content string, first int) ([]string, int) {
	content = codeClose.ReplaceAllString(content, "")
	literal := false
	if t := strings.TrimSpace(content); strings.HasPrefix(t, "{`") && strings.HasSuffix(t, "`}") {
		lead := len(content) - len(strings.TrimLeft(content, " \t\n"))
		first += strings.Count(content[:lead], "\n")
		content = strings.TrimSuffix(strings.TrimRight(content[lead+2:], " \t\n"), "`}")
		literal = true
	}
	if rest, ok := strings.CutPrefix(content, "\n"); ok {
		content, first = rest, first+1
	}
	content = strings.TrimSuffix(content, "\n")
	if strings.TrimSpace(content) == "" {
		return nil, first
	}
	lines := strings.Split(content, "\n")
	for i, t := range lines {
		if literal {
			lines[i] = strings.NewReplacer("\\`", "`", "\\${", "${", "\\\\", "\\").Replace(t)
		} else {
			lines[i] = htmlstd.UnescapeString(inlineMarkup.ReplaceAllString(t, ""))
		}
	}
	return lines, first
}

func sub(s string, m []int, group int) string {
	if m[2*group] < 0 {
		return ""
	}
	return s[m[2*group]:m[2*group+1]]
}

var (
	classAttr    = regexp.MustCompile(`(?i)\bclass\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	langAttr     = regexp.MustCompile(`(?i)\b(?:data-lang|data-language|language|lang)\s*=\s*(?:"([^"]*)"|'([^']*)'|([\w+#-]+))`)
	fileAttr     = regexp.MustCompile(`(?i)\b(?:data-file-?name|file-?name|data-title|title)\s*=\s*(?:"([^"]+)"|'([^']+)')`)
	brushClass   = regexp.MustCompile(`(?i)\bbrush\s*:\s*([\w+#-]+)`)
	langPrefix   = regexp.MustCompile(`(?i)^(?:language-|lang-|highlight-source-|src-)([\w+#-]+)$`)
	bareLanguage = regexp.MustCompile(`^[a-z][a-z0-9+#]*$`)
	// notLanguages are the classes highlighters and converters put on a
	// <pre> or a <code> that name no language.
	notLanguages = setOf("highlight", "chroma", "code", "sourcecode", "hljs", "prettyprint", "linenums", "notranslate",
		"shiki", "codehilite", "syntax", "src", "example", "listing", "block", "pre", "highlighter", "rouge", "line",
		"lines", "numbers", "wrap", "nowrap", "copy", "snippet", "literal", "programlisting", "screen", "verbatim")
)

func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// htmlInfo is the info string a <pre>'s attributes amount to: the language
// of the innermost element that names one (`class="language-bash"`,
// `lang="python"`, `data-lang`, `class="brush: ruby"`, Pandoc's
// `class="sourceCode bash"`, a bare `class="bash"`), then the file a
// `data-filename` or `title` names.
func htmlInfo(attrs []string) string {
	lang := ""
	for _, pass := range []func(string) string{explicitLang, bareClassLang} {
		for _, a := range attrs {
			if lang == "" {
				lang = pass(a)
			}
		}
	}
	for _, a := range attrs {
		if m := fileAttr.FindStringSubmatch(a); m != nil {
			return strings.TrimSpace(lang + ` title="` + m[1] + m[2] + `"`)
		}
	}
	return lang
}

func explicitLang(attrs string) string {
	for _, m := range classAttr.FindAllStringSubmatch(attrs, -1) {
		for _, c := range strings.Fields(m[1] + m[2]) {
			if p := langPrefix.FindStringSubmatch(c); p != nil {
				return strings.ToLower(p[1])
			}
		}
		if b := brushClass.FindStringSubmatch(m[1] + m[2]); b != nil {
			return strings.ToLower(b[1])
		}
	}
	if m := langAttr.FindStringSubmatch(attrs); m != nil {
		return strings.ToLower(m[1] + m[2] + m[3])
	}
	return ""
}

func bareClassLang(attrs string) string {
	for _, m := range classAttr.FindAllStringSubmatch(attrs, -1) {
		for _, c := range strings.Fields(strings.ToLower(m[1] + m[2])) {
			if bareLanguage.MatchString(c) && !notLanguages[c] {
				return c
			}
		}
	}
	return ""
}

// unquote removes up to quotes block-quote markers (`>` and the space after
// it) from the start of a line.
func unquote(line string, quotes int) string {
	for i := 0; i < quotes; i++ {
		t := strings.TrimLeft(line, " ")
		if !strings.HasPrefix(t, ">") {
			return line
		}
		line = strings.TrimPrefix(t[1:], " ")
	}
	return line
}

func joinCode(code []CodeLine) string {
	var b strings.Builder
	for _, c := range code {
		b.WriteString(c.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// blankLines empties the given lines, keeping each line's block-quote
// markers and its line ending, so every line keeps its number.
func blankLines(source []byte, blank map[int]bool) []byte {
	raw := strings.SplitAfter(string(source), "\n")
	var out strings.Builder
	for i, l := range raw {
		if !blank[i+1] {
			out.WriteString(l)
			continue
		}
		body := trimEOL(l)
		markers := strings.TrimRight(body[:len(body)-len(unquote(body, strings.Count(body, ">")))], " ")
		if !strings.HasPrefix(strings.TrimLeft(body, " "), ">") {
			markers = ""
		}
		out.WriteString(markers + l[len(body):])
	}
	return []byte(out.String())
}

// fenceLine is a fence's opening or closing line, its indentation apart.
var fenceLine = regexp.MustCompile("^([ \t]*)(?:(`{3,})([^`]*)|(~{3,})(.*))$")

// indentedFences reads an indented code block made only of fenced blocks as
// those blocks: an author who indents a fence past a list item's content
// ("1. Run:" then the fence eight spaces in) means the fence, though
// CommonMark shows its backticks. Any other indented block is itself.
func indentedFences(b Block) []Block {
	var out []Block
	for i := 0; i < len(b.Code); i++ {
		t := b.Code[i].Text
		if strings.TrimSpace(t) == "" {
			continue
		}
		m := fenceLine.FindStringSubmatch(t)
		if m == nil {
			return []Block{b}
		}
		fence := m[2] + m[4]
		closer := fenceCloser(fence)
		end := i + 1
		for end < len(b.Code) && !closer.MatchString(strings.TrimSpace(b.Code[end].Text)) {
			end++
		}
		if end == len(b.Code) {
			return []Block{b} // never closed: not a fence
		}
		f := Block{Kind: BlockCode, Line: b.Code[i].Line, EndLine: b.Code[end].Line, Fenced: true}
		for _, c := range b.Code[i+1 : end] {
			f.Code = append(f.Code, CodeLine{Line: c.Line, Text: dedentBy(c.Text, textutil.Columns(m[1]))})
		}
		f.Text = joinCode(f.Code)
		setInfo(&f, strings.TrimSpace(m[3]+m[5]))
		out = append(out, f)
		i = end
	}
	if len(out) == 0 {
		return []Block{b}
	}
	return out
}

// dedentBy removes up to n columns of leading whitespace.
func dedentBy(line string, n int) string {
	col := 0
	for col < n && line != "" && (line[0] == ' ' || line[0] == '\t') {
		if line[0] == '\t' {
			col = (col/4 + 1) * 4
		} else {
			col++
		}
		line = line[1:]
	}
	return line
}
