package reading

import "github.com/smile-loop/smile/learner/literal/shell"

// Prose may offer commands as ways to the same end of which only one may
// work on the reader's system ("depending on your setup, only one of these
// works"): the blocks after it, up to the next heading (or as many as it
// counts), form a group. The Student does not report a way that fails when
// another worked.
// oneOfGroup is an open group of ways: the line of its prose, the blocks it
// may still take (-1: up to the next heading), and the steps of the last
// block taken.
type oneOfGroup struct {
	line int
	left int
	last []int
}

// markOneOf puts a block's commands in the open group of ways, if any: the
// commands of the way before it learn that another way follows. A command
// shown again later (a section on each way) stays in its group.
func (p *planner) markOneOf(steps []Step) {
	for k := range steps {
		if line, ok := p.ways[steps[k].Command.Text]; ok && steps[k].Kind == StepRun {
			steps[k].OneOf = line
		}
	}
	g := p.oneOf
	if g == nil || g.left == 0 {
		return
	}
	var idx []int
	for k := range steps {
		if steps[k].Kind == StepRun {
			steps[k].OneOf = g.line
			idx = append(idx, len(p.steps)+k)
			p.ways[steps[k].Command.Text] = g.line
		}
	}
	if len(idx) == 0 {
		return
	}
	for _, i := range g.last {
		p.steps[i].OneOfMore = true
	}
	g.last = idx
	if g.left > 0 {
		g.left--
	}
}

// A block that repeats the block before it with another scope (`git config
// --global user.name X`, then `git config user.name X` "only for this
// repository") offers a second way to the same end: the two are one group,
// and the second is no gap when the first worked.
func (p *planner) markScopeWays(steps []Step) {
	var prev []int // the run steps of the block just before (they share its prose)
	for k := len(p.steps) - 1; k >= 0 && p.steps[k].Kind == StepRun && p.steps[k].Prose == p.steps[len(p.steps)-1].Prose; k-- {
		prev = append([]int{k}, prev...)
	}
	var runs []int
	var a, b []string
	for k := range steps {
		if steps[k].Kind == StepRun {
			runs, b = append(runs, k), append(b, steps[k].Command.Text)
		}
	}
	for _, k := range prev {
		a = append(a, p.steps[k].Command.Text)
	}
	if len(prev) == 0 || !shell.OtherScope(a, b) {
		return
	}
	for i, k := range runs {
		p.steps[prev[i]].OneOf, p.steps[prev[i]].OneOfMore = p.steps[prev[0]].Line, true
		steps[k].OneOf = p.steps[prev[0]].Line
	}
}
