package expect

import (
	"regexp"
	"slices"
	"strings"
)

var ellipsisRe = regexp.MustCompile(`\.\.\.|…`)

// ellipsis is a line, or part of a line, standing for output the tutorial
// leaves out.
const ellipsis = "..."

// MatchOutput checks that every expected line appears in the actual output,
// in order. Line endings and trailing spaces are ignored, and so are blank
// lines at both ends of the expected text; a line `...` (or `…`) matches any
// run of lines, and `...` inside a line matches any text. It returns the
// first expected line that was not found. Tokens that change between runs
// (see maskVolatile) are masked on both sides; a line also matches as
// written, so that `...` can stand for such a token.
func MatchOutput(expected []Line, actual string) (missing Line, ok bool) {
	exp := trimBlankEnds(expected)
	var act, raw []string
	for _, l := range strings.Split(strings.ReplaceAll(actual, "\r\n", "\n"), "\n") {
		act = append(act, normalizeLine(l))
		raw = append(raw, trimLine(l))
	}
	i := 0
	for _, e := range exp {
		text := normalizeLine(e.Text)
		if isEllipsis(text) {
			continue
		}
		match, matchRaw := lineMatcher(text), lineMatcher(trimLine(e.Text))
		found := false
		for i < len(act) {
			i++
			if match(act[i-1]) || matchRaw(raw[i-1]) {
				found = true
				break
			}
		}
		if !found {
			return e, false
		}
	}
	return Line{}, true
}

func normalizeLine(s string) string { return maskVolatile(untab(trimLine(s))) }

// innerGap is a run of blanks inside a line that holds a tab or is two
// spaces or more: pages render a program's tab (`sed =`, `cut`, `paste`) as
// spaces, and align columns their own way.
var innerGap = regexp.MustCompile(`(\S)(?:[ \t]*\t[ \t]*| {2,})`)

// untab makes each inner gap one space, keeping the line's indentation.
func untab(s string) string { return innerGap.ReplaceAllString(s, "$1 ") }

func trimLine(s string) string { return strings.TrimRight(strings.TrimSuffix(s, "\r"), " \t") }

func isEllipsis(s string) bool {
	t := strings.TrimSpace(s)
	return t == ellipsis || t == "…" || t == "[...]"
}

// shownPlaceholder is a part of a shown output line that stands for the
// reader's own value: `<your path>`, `{path}`, `<ユーザー名>` (words in any
// script; not an HTML tag such as `<h1>`).
var shownPlaceholder = regexp.MustCompile(`<\pL[\pL\pN _-]*>|\{\pL[\pL\pN _-]*\}`)

// htmlTag is an element name HTML output holds, never a placeholder.
var htmlTag = regexp.MustCompile(`(?i)^<(?:h[1-6]|p|div|span|a|b|i|u|em|strong|br|hr|html|head|body|title|ul|ol|li|pre|code|table|tr|td|th|script|style|meta|link|img|form|input|button|label|section|header|footer|nav|main|article)>$`)

// lineMatcher compares a line exactly, or as a pattern when it holds `...`
// (any text) or a placeholder (the reader's own value: any text but none).
func lineMatcher(expected string) func(string) bool {
	holes := slices.DeleteFunc(shownPlaceholder.FindAllString(expected, -1), htmlTag.MatchString)
	if !strings.Contains(expected, ellipsis) && !strings.Contains(expected, "…") && len(holes) == 0 {
		return func(actual string) bool { return actual == expected || sameInAnotherLanguage(expected, actual) }
	}
	parts := ellipsisRe.Split(expected, -1)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
		for _, h := range holes {
			parts[i] = strings.ReplaceAll(parts[i], regexp.QuoteMeta(h), ".+?")
		}
	}
	re := regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
	return func(actual string) bool { return actual == expected || re.MatchString(actual) }
}

// trimBlankEnds drops blank lines at both ends.
func trimBlankEnds(lines []Line) []Line {
	blank := func(l Line) bool {
		t := strings.TrimSpace(l.Text)
		return t == "" || t == "$" || t == "#" // a bare prompt: the command printed nothing
	}
	for len(lines) > 0 && blank(lines[0]) {
		lines = lines[1:]
	}
	for len(lines) > 0 && blank(lines[len(lines)-1]) {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// HasExpectation reports whether there is any output to compare.
func HasExpectation(lines []Line) bool {
	for _, l := range trimBlankEnds(lines) {
		if !isEllipsis(l.Text) {
			return true
		}
	}
	return false
}

// Line is one line of output a tutorial shows, at its line in the page.
type Line struct {
	Line int
	Text string
}
