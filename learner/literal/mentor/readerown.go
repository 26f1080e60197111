package mentor

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
)

// whollyOwn is a command whose every line of output is the reader's own:
// the clock (`date`), the search path (`echo $PATH`). Each line is compared
// only as a line.
var whollyOwn = regexp.MustCompile(`^(?:date|(?:/bin/|/usr/bin/)?echo\s+["']?\$\{?PATH\}?["']?)$`)

// locates finds where a program is installed: on a merged-/usr system
// (Debian 12 and later, Fedora, Arch) /bin/x and /usr/bin/x are one file.
var (
	locates  = regexp.MustCompile(`^(?:which|type|command\s+-v|whereis)\s`)
	usrMerge = regexp.MustCompile(`(^|[\s:])/usr/(s?bin)/`)
)

// authorsPath is a path under a user's home on Linux or macOS, as the
// author's output shows it; absPath is any absolute path of two parts or
// more, with what comes before it and its last part.
var (
	authorsPath = regexp.MustCompile(`(?:^|[\s'"(=])/(?:Users|home)/[\w.-]+/`)
	absPath     = regexp.MustCompile(`(^|[\s'"(=])(?:/[\w.@+-]+)+/([\w.@+-]+/?)`)
)

// defaultBranch is the name git gives a new repository's branch: main or
// master, as the reader's git and its configuration decide.
var defaultBranch = regexp.MustCompile(`\b(?:main|master)\b`)

// ReaderSpecific masks, in output shown and printed, what is the reader's
// own: the default branch's name in a git command's output, the whole line
// of `date` or `echo $PATH`, /usr/bin against /bin where a program is
// located (`which echo`), a REPL's banner (shown on the author's terminal,
// never printed to a pipe), and the folders of absolute paths when the output
// shown has the author's home in it (only the last part of each path is
// compared).
func ReaderSpecific(command string, expected []expect.Line, actual string) ([]expect.Line, string) {
	command = strings.TrimSpace(command)
	expected = expect.WithoutBanners(expected)
	switch {
	case whollyOwn.MatchString(command):
		return mapLines(expected, actual, func(l string) string {
			if strings.TrimSpace(l) == "" {
				return l
			}
			return "<the reader's own>"
		})
	case locates.MatchString(command):
		return mapLines(expected, actual, func(l string) string { return usrMerge.ReplaceAllString(l, "$1/$2/") })
	}
	if slices.ContainsFunc(expected, func(e expect.Line) bool { return authorsPath.MatchString(e.Text) }) {
		// `Initialized empty Git repository in /Users/ana/code/demo/.git/`:
		// where the author's files lay is the author's own; only the
		// path's last part (.git) is the page's.
		expected, actual = mapLines(expected, actual, func(l string) string {
			return absPath.ReplaceAllString(l, "$1<a folder>/$2")
		})
	}
	if !strings.HasPrefix(command, "git ") {
		return expected, actual
	}
	out := make([]expect.Line, len(expected))
	for i, e := range expected {
		out[i] = e
		out[i].Text = defaultBranch.ReplaceAllString(e.Text, "<branch>")
	}
	return out, defaultBranch.ReplaceAllString(actual, "<branch>")
}

// mapLines applies f to every line shown and printed.
func mapLines(expected []expect.Line, actual string, f func(string) string) ([]expect.Line, string) {
	out := make([]expect.Line, len(expected))
	for i, e := range expected {
		out[i] = e
		out[i].Text = f(e.Text)
	}
	lines := strings.Split(actual, "\n")
	for i, l := range lines {
		lines[i] = f(l)
	}
	return out, strings.Join(lines, "\n")
}
