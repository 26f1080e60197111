package status

// A failure early in a page stops what depends on it: with no compiler
// there is no binary, so the listing after the build is short and running
// the program fails. The Student reports what it met, and the Mentor's
// workaround for the first failure lets the next iteration go past it.
// When that iteration then passes a later line an earlier iteration found
// wanting, the earlier finding was the first failure's consequence, not a
// gap of the page: it is dropped, and the run's events say so.

// A Consequence is a gap an iteration dropped, and why.
type Consequence struct {
	Gap Gap
	// CauseLine is the line of the failure the Mentor's workaround answered;
	// Iteration is the iteration that then passed the gap's line.
	CauseLine, Iteration int
}

// DropConsequences drops the gaps of earlier iterations that out, the
// Student's report of iteration, shows were consequences: the Mentor had
// worked around a failure on an earlier line since the gap was found, and
// this iteration exercised the gap's line and found nothing there. Gaps that
// do not depend on running (an ambiguous instruction, an undefined
// variable, a missing image) are kept. It returns the dropped gaps.
func (st *Status) DropConsequences(out StudentOutput, iteration int) []Consequence {
	if out.Coverage == nil || iteration < 2 {
		return nil
	}
	found := map[int]bool{}
	for _, f := range out.Findings {
		found[f.Line] = true
		for _, l := range f.Lines {
			found[l] = true
		}
	}
	var dropped []Consequence
	keep := st.Gaps[:0]
	for _, g := range st.Gaps {
		line := g.Location.LineNumber
		if cause, ok := st.workedAroundBefore(g, iteration); ok && g.Iteration < iteration && dependsOnRunning(g.Category) &&
			!found[line] && exercisedLine(out.Coverage, line) {
			dropped = append(dropped, Consequence{Gap: g, CauseLine: cause, Iteration: iteration})
			continue
		}
		keep = append(keep, g)
	}
	st.Gaps = keep
	for i := range st.Gaps {
		st.Gaps[i].ID = i + 1
	}
	return dropped
}

// workedAroundBefore is the line of a Mentor workaround on an earlier line
// than g's, given in g's iteration or later and in force for iteration. A
// gap the Mentor answered itself (a note at its own line) is the page's:
// it passes later because of its own workaround, not an earlier one.
func (st *Status) workedAroundBefore(g Gap, iteration int) (int, bool) {
	for _, n := range st.MentorNotes {
		if n.Line == g.Location.LineNumber {
			return 0, false
		}
	}
	for _, n := range st.MentorNotes {
		if n.Resolution == ResolutionWorkaround && n.Line > 0 && n.Line < g.Location.LineNumber &&
			n.Iteration >= g.Iteration && n.Iteration < iteration {
			return n.Line, true
		}
	}
	return 0, false
}

// dependsOnRunning: a gap of this category is met by running the page, so a
// failure before it can cause it.
func dependsOnRunning(c Category) bool {
	switch c {
	case CategoryAmbiguousInstruction, CategoryUndefinedVariable, CategoryMissingImage:
		return false
	}
	return true
}

// exercisedLine: the block holding line was run, written or compared.
func exercisedLine(c *Coverage, line int) bool {
	for _, b := range c.BlockList {
		if line >= b.Line && line <= max(b.EndLine, b.Line) {
			return b.Outcome.Exercised()
		}
	}
	return false
}
