package agent

import (
	"strings"
	"unicode"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/spec"
)

// Location is where a quote sits in the tutorial.
type Location struct {
	Line int
	// Quote is the tutorial's own text on that line, trimmed (not the
	// model's copy of it).
	Quote string
	// How is exact, normalized or closest.
	How string
}

// Locate finds a quote the model copied from the tutorial: an exact match
// first (on one line, then anywhere in a block), then a match of the
// normalised texts (case, white space, Markdown markup and prompts such as
// "$ " ignored), then the block most like it. The line is the line the
// quote starts on (within a code block, its own line); with the closest
// block, the block's line (for code, its first line of code). Line
// numbers are never read out of the model's prose. ok is false for an empty
// quote or one like no block at all.
func Locate(t *spec.Tutorial, quote string) (Location, bool) {
	q := strings.TrimSpace(quote)
	if t == nil || q == "" {
		return Location{}, false
	}
	lines := strings.Split(strings.ReplaceAll(t.Content, "\r\n", "\n"), "\n")
	at := func(n int, how string) (Location, bool) {
		return Location{Line: n, Quote: strings.TrimSpace(lines[n-1]), How: how}, true
	}
	// Exact, on one line (the usual case: a command or a sentence).
	if !strings.Contains(q, "\n") {
		for i, l := range lines {
			if strings.TrimSpace(l) == q {
				return at(i+1, "exact")
			}
		}
		for i, l := range lines {
			if strings.Contains(l, q) && len(q) >= 3 {
				return at(i+1, "exact")
			}
		}
	} else if i := strings.Index(t.Content, q); i >= 0 {
		return at(strings.Count(t.Content[:i], "\n")+1, "exact")
	}
	// Normalised, line by line; then a multi-line quote against blocks.
	nq := normalize(q)
	if nq == "" {
		return Location{}, false
	}
	for i, l := range lines {
		if normalize(l) == nq {
			return at(i+1, "normalized")
		}
	}
	firstLine := normalize(strings.SplitN(q, "\n", 2)[0])
	if len(nq) >= 6 {
		for i, l := range lines {
			if nl := normalize(l); nl != "" && (strings.Contains(nl, nq) || (len(nl) >= 6 && strings.Contains(nq, nl) && nl == firstLine)) {
				return at(i+1, "normalized")
			}
		}
	}
	// The closest block, by the words they share.
	qw := words(nq)
	best, bestScore := markdown.Block{}, 0.0
	for _, b := range t.Blocks {
		if s := similarity(qw, words(normalize(b.Text))); s > bestScore {
			best, bestScore = b, s
		}
	}
	if bestScore < 0.3 {
		return Location{}, false
	}
	line := best.Line
	if best.Kind == markdown.BlockCode && len(best.Code) > 0 {
		line = best.Code[0].Line // the block's first line of code, not its fence
	}
	return at(line, "closest")
}

// normalize lower-cases s, drops Markdown markup and shell prompts, and
// collapses white space.
func normalize(s string) string {
	s = strings.TrimSpace(s)
	for _, p := range []string{"$ ", "# ", "> ", "- ", "* ", "+ "} {
		s = strings.TrimPrefix(s, p)
	}
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(s) {
		switch {
		case strings.ContainsRune("`*_~#>|", r):
			continue
		case unicode.IsSpace(r):
			space = true
			continue
		case unicode.In(r, unicode.Pi, unicode.Pf):
			r = '"'
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return strings.TrimRight(b.String(), ".:;, ")
}

func words(s string) map[string]bool {
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		out[w] = true
	}
	return out
}

// similarity is the Dice coefficient of two word sets.
func similarity(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	common := 0
	for w := range a {
		if b[w] {
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}

// CommandLine finds the tutorial line of a command the model ran: a code
// line equal to it, ignoring a "$ " prompt and surrounding space. It is 0
// for a command the tutorial does not show.
func CommandLine(t *spec.Tutorial, command string) int {
	c := strings.TrimSpace(command)
	if t == nil || c == "" {
		return 0
	}
	first := strings.TrimSpace(strings.SplitN(c, "\n", 2)[0])
	for _, b := range t.Blocks {
		for _, l := range b.Code {
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l.Text), "$ "))
			if text != "" && (text == c || text == first) {
				return l.Line
			}
		}
	}
	return 0
}
