package reading

import (
	"slices"

	"github.com/smile-loop/smile/learner/literal/later"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// A page's examples may each be the one script the command after them
// runs (`bash script.sh`), by a convention the page sets: package later
// finds them; here each becomes the file's write.
var ruleRunAfter = rule.Register(rule.Rule{ID: "file.run-after", Scope: rule.ScopeSection,
	Doc: "a code block whose next command runs a script file no step writes (`bash script.sh`, `python3 main.py`) is that file's text, when the page names the file before the block or runs it so after another block: its convention for examples"})

// placeRunAfter turns each block that the command after it runs as a file
// into that file's write, where the page's convention says so.
func (p *planner) placeRunAfter(steps []Step) []Step {
	page := later.Page{Blocks: p.blocks, Kind: WritesKind, Writes: writesOf(steps), Runs: runsOf(steps)}
	page.Free = func(b markdown.Block) bool {
		in := func(s Step) bool { return s.Line >= b.Line && s.Line <= b.EndLine }
		return slices.ContainsFunc(steps, in) && !slices.ContainsFunc(steps, func(s Step) bool {
			return in(s) && s.Kind != StepRun && s.Kind != StepAmbiguous && (s.Kind != StepSkip || s.Why != DisplayText)
		})
	}
	places := later.Scripts(page)
	for _, pl := range places {
		b := pl.Block
		steps = slices.DeleteFunc(steps, func(s Step) bool { return s.Line >= b.Line && s.Line <= b.EndLine })
		steps = append(steps, Step{Kind: StepWrite, Line: b.Line, EndLine: b.EndLine, Lang: b.Lang,
			File: Destination{Path: pl.File}, Content: b.Text,
			Why:      pl.Why(),
			Evidence: []rule.Evidence{ruleRunAfter.At(pl.Run, pl.How)}})
	}
	if len(places) > 0 {
		slices.SortStableFunc(steps, func(a, b Step) int { return a.Line - b.Line })
	}
	// The run now runs a program the page wrote: it may read what its
	// transcript shows typed (input.program-reads).
	p.steps = steps
	for k := range steps {
		if len(places) > 0 && steps[k].Line > places[0].Block.Line {
			p.feedProgram(&steps[k])
		}
	}
	return steps
}
