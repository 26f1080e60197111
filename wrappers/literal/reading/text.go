package reading

import "strings"

// firstLine is the first line of s, trimmed, with " ..." when more follow.
// (The Mentor quotes commands the same way; see mentor.FirstLine.)
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " ..."
	}
	return s
}

// shorten keeps one line of prose readable in a sentence: spaces collapsed,
// cut at n bytes.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
