package reading

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
