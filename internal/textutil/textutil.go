// Package textutil holds the small string helpers the controller, the
// wrapper, the report and the test fakes share: a first line, a shortened
// line, a kept tail, the first non-empty value. It imports only the standard
// library, so the wrapper binary may link it.
package textutil

import "strings"

// Ellipsis marks text that was cut.
const Ellipsis = "..."

// FirstLine is the first line of s with surrounding white space trimmed,
// followed by " ..." when more lines came after it.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " " + Ellipsis
	}
	return s
}

// Shorten makes s one line (every run of white space, newlines included,
// becomes one space) of at most n runes, ending in "..." when it was cut.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= len(Ellipsis) {
		return string(r[:max(n, 0)])
	}
	return string(r[:n-len(Ellipsis)]) + Ellipsis
}

// Tail keeps the end of s (where a command's errors are) within n bytes,
// marker first when anything was cut; a rune cut in two is dropped.
func Tail(s string, n int, marker string) string {
	if len(s) <= n {
		return s
	}
	if n <= 0 {
		return ""
	}
	return marker + strings.ToValidUTF8(s[len(s)-n:], "")
}

// FirstNonEmpty is the first of vs holding more than white space, or "".
func FirstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// Columns is the width of a line's leading whitespace, a tab to the next
// multiple of four.
func Columns(line string) int {
	col := 0
	for _, r := range line {
		switch r {
		case ' ':
			col++
		case '\t':
			col = (col/4 + 1) * 4
		default:
			return col
		}
	}
	return col
}

// Set is a set of names, for membership tests.
func Set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// FirstWord is s's first word ("" when it has none).
func FirstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
