// Package failshown says when a page shows a command failing on purpose:
// what it shows for the command, in the command's own transcript or in the
// block right after it, is the very error the command printed. The reader
// sees what the page shows, so the failure is no gap, even without a
// sentence announcing it.
package failshown

import (
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/standalone/planned"
	"github.com/smile-loop/smile/spec/markdown"
)

// This: the output shown after a command is the error it printed
// (compared as any output is), and says something of its own, not only
// "..." that matches anything.
func This(expected []expect.Line, output string) bool {
	said := false
	for _, l := range expected {
		if t := strings.Trim(strings.TrimSpace(l.Text), ".…[]"); len(t) >= 8 {
			said = true
		}
	}
	_, ok := expect.MatchOutput(expected, output)
	return said && ok && strings.TrimSpace(output) != ""
}

// Next: the block the page shows right after step st's own block, with at
// most a sentence between ("an error appears:"), is output as st printed
// it: output the plan compares, or a block it skipped as display text.
// st is the last command its block runs (the next step followed is that
// block); blocks are the page's.
func Next(steps []reading.Step, blocks []markdown.Block, st reading.Step, output string) bool {
	at := slices.IndexFunc(steps, func(p reading.Step) bool { return p.Kind == reading.StepRun && p.Line == st.Line })
	if at < 0 {
		return false
	}
	end := max(st.EndLine, st.Line)
	for _, next := range steps[at+1:] {
		if next.Line-end > planned.Near {
			return false
		}
		switch {
		case next.Kind == reading.StepCompare:
			return This(next.Expected, output)
		case next.Kind == reading.StepSkip && next.Why == reading.DisplayText:
			b := slices.IndexFunc(blocks, func(b markdown.Block) bool {
				return b.Kind == markdown.BlockCode && next.Line >= b.Line && next.Line <= max(b.EndLine, b.Line)
			})
			return b >= 0 && This(blockshape.ExpectedLines(blocks[b].Code), output)
		case next.Kind == reading.StepImage:
			continue
		}
		return false
	}
	return false
}
