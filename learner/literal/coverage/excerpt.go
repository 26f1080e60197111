package coverage

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status"
)

// Books and courses explain a program in pieces before they show it whole:
// a loop header, one statement, a function call, each in a block of its own
// with no file name and nothing to run, then the complete program, which the
// reader runs or saves. The pieces are display text, but they were not left
// untested: their code ran as part of the whole. excerpts finds them, after
// the walk: a skipped block whose every line of code appears, in order,
// inside a block that was run or written is exercised through it, and says
// so (its comments aside). The text is compared with runs of white space made one, so a piece
// shown indented or spaced differently still matches.

// minExcerpt is the least code (in characters, spaces made one) a skipped
// block must have to count as an excerpt: `ls` inside a longer command is no
// evidence that the page showed a piece of it.
const minExcerpt = 8

// excerpts marks each skipped block that is a piece of an exercised block.
func (c *Collector) excerpts() {
	for _, b := range c.blocks {
		if b.outcome != status.OutcomeSkipped || c.omitted(b) || len(strings.Join(b.lines, "")) < minExcerpt {
			continue
		}
		for _, whole := range c.blocks {
			if whole == b || !(whole.outcome == status.OutcomeRun || whole.outcome == status.OutcomeWritten) {
				continue
			}
			if containsInOrder(whole.lines, uncommented(b.lines)) {
				b.outcome, b.reason = whole.outcome, fmt.Sprintf("a piece of the code at line %d, which was %s whole (%s)", whole.line, whole.outcome, b.reason)
				for _, l := range b.code {
					b.covered[l] = true
				}
				break
			}
		}
	}
}

// containsInOrder says whether each of part's lines is inside whole's text,
// each after the one before.
func containsInOrder(whole, part []string) bool {
	text := strings.Join(whole, "\n")
	for _, p := range part {
		i := strings.Index(text, p)
		if i < 0 {
			return false
		}
		text = text[i+len(p):]
	}
	return len(part) > 0
}

// codeLines is a block's lines of code with runs of white space made one,
// blank lines left out.
func codeLines(text []string) []string {
	var out []string
	for _, t := range text {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// uncommented leaves out a piece's lines that are only a comment (`#`,
// `//`): a note about the piece, which the whole need not repeat.
func uncommented(lines []string) []string {
	var out []string
	for _, l := range lines {
		if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "//") {
			out = append(out, l)
		}
	}
	return out
}
