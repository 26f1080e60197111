package mdtext

// Safe Markdown: the primitives the report uses to put text it does not
// control (tutorial quotes, commands, output, model answers) into Markdown
// without that text adding headings, list items, table rows, links or HTML.

import (
	"regexp"
	"strings"
)

// Flatten makes text one line: block structure (headings, lists, fences,
// table rows) can only start at a line's beginning. Tabs become spaces (a
// tab's width depends on its column).
func Flatten(s string) string {
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(StripControl(s))
	return strings.TrimSpace(s)
}

// mdEscaper escapes every character that starts inline structure (code,
// emphasis, links, HTML, entities, strikethrough, math), closes an ATX heading
// (#) or splits a table cell (|). Backslash escapes of ASCII punctuation work
// in every CommonMark viewer.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `\<`, `>`, `\>`, `|`, `\|`, `~`, `\~`, `&`, `\&`, `#`, `\#`, `$`, `\$`,
)

// Text is s as one line of literal Markdown text.
func Text(s string) string { return mdEscaper.Replace(Flatten(s)) }

// Prose is s as one line of text whose `code spans` stay code spans (each
// re-fenced by Code) and everything else is literal.
func Prose(s string) string {
	s = Flatten(s)
	var b strings.Builder
	for s != "" {
		open := strings.IndexByte(s, '`')
		if open < 0 {
			b.WriteString(mdEscaper.Replace(s))
			break
		}
		n := runAt(s, open)
		end := closingRun(s, open+n, n)
		if end < 0 { // no closing run: the backticks are literal
			b.WriteString(mdEscaper.Replace(s[:open+n]))
			s = s[open+n:]
			continue
		}
		b.WriteString(mdEscaper.Replace(s[:open]))
		code := s[open+n : end]
		if len(code) >= 2 && code[0] == ' ' && code[len(code)-1] == ' ' && strings.TrimSpace(code) != "" {
			code = code[1 : len(code)-1]
		}
		b.WriteString(Code(code))
		s = s[end+n:]
	}
	return b.String()
}

func runAt(s string, i int) int {
	n := 0
	for i+n < len(s) && s[i+n] == '`' {
		n++
	}
	return n
}

// closingRun finds the next run of exactly n backticks from i, or -1.
func closingRun(s string, i, n int) int {
	for i < len(s) {
		j := strings.IndexByte(s[i:], '`')
		if j < 0 {
			return -1
		}
		j += i
		m := runAt(s, j)
		if m == n {
			return j
		}
		i = j + m
	}
	return -1
}

// Cell is s as literal text in a table cell.
func Cell(s string) string { return Text(s) }

// Code is s as one code span, its fence longer than any backtick run in
// it; "" for blank s.
func Code(s string) string {
	s = Flatten(s)
	if s == "" {
		return ""
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	// A span that starts or ends with a backtick needs a space to be told
	// from its fence; one space each side is stripped by the viewer.
	if s[0] == '`' || s[len(s)-1] == '`' || (s[0] == ' ' && s[len(s)-1] == ' ') {
		s = " " + s + " "
	}
	return fence + s + fence
}

// CodeCell is s as a code span in a table cell: pipes escaped (GFM strips
// the backslash, even in code). A backslash before a pipe reads differently
// in different viewers, so text with backslashes is escaped text instead.
func CodeCell(s string) string {
	if strings.Contains(s, `\`) {
		return Cell(s)
	}
	return strings.ReplaceAll(Code(s), "|", `\|`)
}

// Destination is a link destination in angle brackets (spaces allowed).
func Destination(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `<`, `\<`, `>`, `\>`).Replace(Flatten(s))
	return "<" + s + ">"
}

// CodeBlock is a fenced block lifted out of free text.
type CodeBlock struct {
	Lang, Body string
}

// Fence is body as a fenced code block whose fence is longer than any
// backtick run in it, so nothing inside can close it.
func Fence(lang, body string) string {
	body = strings.TrimRight(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	fence := strings.Repeat("`", max(3, longestRun(body, '`')+1))
	return fence + InfoString(lang) + "\n" + body + "\n" + fence + "\n\n"
}

var infoUnsafe = regexp.MustCompile(`[^A-Za-z0-9_+.-]`)

func InfoString(lang string) string {
	f := strings.Fields(lang)
	if len(f) == 0 {
		return ""
	}
	return infoUnsafe.ReplaceAllString(f[0], "")
}

func longestRun(s string, c byte) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// SplitFences separates free text (a suggested fix, a Mentor's answer) into
// its prose and its fenced code blocks, so the prose can go on one list line
// and the code in blocks of its own.
func SplitFences(s string) (prose string, blocks []CodeBlock) {
	var text []string
	var cur *CodeBlock
	var body []string
	var fenceChar byte
	fenceLen, indent := 0, 0
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if cur == nil {
			if c, n, ind, info, ok := openFence(line); ok {
				cur = &CodeBlock{Lang: info}
				fenceChar, fenceLen, indent, body = c, n, ind, nil
				continue
			}
			text = append(text, line)
			continue
		}
		if closesFence(line, fenceChar, fenceLen) {
			cur.Body = strings.Join(body, "\n")
			blocks = append(blocks, *cur)
			cur = nil
			continue
		}
		body = append(body, trimIndent(line, indent))
	}
	if cur != nil { // unclosed: the block runs to the end, as in CommonMark
		cur.Body = strings.Join(body, "\n")
		blocks = append(blocks, *cur)
	}
	return strings.Join(strings.Fields(strings.Join(text, " ")), " "), blocks
}

func openFence(line string) (c byte, n, indent int, info string, ok bool) {
	trimmed := strings.TrimLeft(line, " ")
	indent = len(line) - len(trimmed)
	if indent > 3 || len(trimmed) < 3 || (trimmed[0] != '`' && trimmed[0] != '~') {
		return 0, 0, 0, "", false
	}
	c = trimmed[0]
	for n < len(trimmed) && trimmed[n] == c {
		n++
	}
	info = strings.TrimSpace(trimmed[n:])
	if n < 3 || (c == '`' && strings.ContainsRune(info, '`')) {
		return 0, 0, 0, "", false
	}
	return c, n, indent, info, true
}

func closesFence(line string, c byte, n int) bool {
	trimmed := strings.TrimLeft(line, " ")
	if len(line)-len(trimmed) > 3 {
		return false
	}
	trimmed = strings.TrimRight(trimmed, " \t")
	return len(trimmed) >= n && strings.Trim(trimmed, string(c)) == ""
}

func trimIndent(line string, n int) string {
	for i := 0; i < n && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}

// ansiEscape is a terminal colour or cursor sequence.
var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]")

// StripControl removes terminal sequences and control characters other than
// tab and line ends: they mean nothing in a document.
func StripControl(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\t' && r != '\r') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}
