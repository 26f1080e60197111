package literal

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
	"github.com/smile-loop/smile/status"
)

// A fence that is never closed runs to the end of the page: every heading,
// sentence, file and command after it renders as one code block, on GitHub
// and in any CommonMark renderer. A page that ends with a short unclosed
// block renders fine, but one whose unclosed block swallows most of the
// page is broken for its readers, and its lines cannot be told apart:
// running them would blame the page for every sentence the shell rejects.
// So such a block is one finding, at its opening fence, and nothing in it
// is followed. A shorter unclosed block is a finding too when what it
// swallows is the page's own Markdown (a table, a heading): a stray fence
// that turns the page's text into code for its readers.

// minSwallowed is the least number of lines an unclosed block must run
// over, and it must also hold at least half of the page's lines.
const minSwallowed = 20

// swallowingFence is the page's unclosed fence that swallows the rest of
// it, if there is one.
func swallowingFence(tut *spec.Tutorial) (markdown.Block, bool) {
	total := strings.Count(strings.TrimRight(tut.Content, "\n"), "\n") + 1
	for _, b := range tut.Blocks {
		if b.Kind != markdown.BlockCode || !b.Unclosed || b.Item != "" {
			continue
		}
		if span := b.EndLine - b.Line + 1; b.EndLine >= total && span >= minSwallowed && 2*span >= total {
			return b, true
		}
	}
	return markdown.Block{}, false
}

// markdownLine is a line only Markdown text has: a table's row, a heading
// of level two or more, a thematic break.
var markdownLine = regexp.MustCompile(`^\s*(?:\|.*\|\s*$|#{2,6}\s+\S|(?:-{3,}|\*{3,}|_{3,})\s*$)`)

// strayFence is the page's unclosed fence, swallowing less than the most of
// it, whose content holds at least two lines of the page's own Markdown.
func strayFence(tut *spec.Tutorial) (markdown.Block, bool) {
	for _, b := range tut.Blocks {
		if b.Kind != markdown.BlockCode || !b.Unclosed || b.Item != "" {
			continue
		}
		n := 0
		for _, l := range b.Code {
			if markdownLine.MatchString(l.Text) {
				n++
			}
		}
		if n >= 2 {
			return b, true
		}
	}
	return markdown.Block{}, false
}

// unfollowable skips every step planned inside the swallowing block.
func unfollowable(steps []reading.Step, b markdown.Block) {
	for i := range steps {
		if steps[i].Line >= b.Line && steps[i].Line <= b.EndLine {
			steps[i].Kind = reading.StepSkip
			steps[i].Why = fmt.Sprintf("inside the code block opened at line %d, which is never closed: its commands cannot be told from the page's text", b.Line)
		}
	}
}

// unclosedFinding records the unclosed block as the page's gap: one that
// swallows the page, or a stray one that swallows its Markdown.
func (s *student) unclosedFinding(b markdown.Block, stray bool) {
	fence := "```" + b.Info
	problem := fmt.Sprintf("the code block opened at line %d (%s) is never closed: the rest of the page, %d lines of headings, prose and code, renders as one code block, and a reader cannot tell its commands from its text",
		b.Line, fence, b.EndLine-b.Line)
	if stray {
		problem = fmt.Sprintf("the code block opened at line %d (%s) is never closed: the %d lines after it, the page's own tables and headings, render as code", b.Line, fence, b.EndLine-b.Line)
	}
	f := s.finding(status.CategoryAmbiguousInstruction, b.Line, problem, "")
	f.SuggestedFix = fmt.Sprintf("Close the block opened at line %d with ``` after its last command, and open and close a fence around each later block of code.", b.Line)
	_ = s.record(f, false, "", "")
}
