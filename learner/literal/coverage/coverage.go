// Package coverage is how much of a page a run exercised: for each code
// block, whether the Student ran it, wrote it to its file, compared it with
// what a command printed, skipped it (and why) or never reached it. A
// verdict that tested nothing is a false pass; the report says this share.
package coverage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Collector collects what the Student did with each code block of the
// page: run (commands, or input typed into a program), written, compared,
// skipped (with the reason) or not reached. The Student tells it what
// happens as it happens (a command audited, a file written, output
// compared, a block listed as skipped); the plan says what it meant to do
// with the blocks it was told nothing about. A nil collector ignores
// everything.
type Collector struct {
	blocks []*blockCov
	steps  []reading.Step
	// reached is the line of the latest step the walk began (0: none).
	reached int
	// lastRun is the line of the latest command run (0: none): a file
	// written after it was used by nothing (unused.go).
	lastRun int
}

// blockCov is one code block and what became of it so far.
type blockCov struct {
	line, end int
	code      []int // the lines of code, by line number
	// lines is the code's text, a line each, runs of white space made one
	// and blank lines left out (excerpt.go).
	lines   []string
	outcome status.Outcome
	reason  string
	covered map[int]bool
	// recalled is how many lines an attempt before the checkpoint covered.
	recalled int
	// variants names the group of variants of one step the block belongs
	// to ("" for none): a tab group, or consecutive blocks each labelled
	// with what it is for (reading.VariantIntro).
	variants string
}

// New lists the page's code blocks (those the planner reads: a
// code block with content) for the plan's steps.
func New(t *spec.Tutorial, steps []reading.Step) *Collector {
	c := &Collector{steps: steps}
	intro, run, labelled := "", 0, false // the paragraph just before; the run of labelled blocks
	for _, b := range t.Blocks {
		switch {
		case b.Kind == markdown.BlockParagraph:
			intro = b.Text
			continue
		case b.Kind != markdown.BlockCode:
			intro, labelled = "", false // a heading (or anything else) ends a run of variants
			continue
		case !slices.ContainsFunc(b.Code, func(l markdown.CodeLine) bool { return strings.TrimSpace(l.Text) != "" }):
			continue // an empty block (a lab sheet's slot for the answer) holds nothing to exercise
		}
		bc := &blockCov{line: b.Line, end: max(b.EndLine, b.Line), covered: map[int]bool{}}
		texts := make([]string, 0, len(b.Code))
		for _, l := range b.Code {
			bc.code = append(bc.code, l.Line)
			texts = append(texts, l.Text)
		}
		bc.lines = codeLines(texts)
		switch {
		case b.TabGroup > 0:
			bc.variants = fmt.Sprintf("tabs %d", b.TabGroup)
		case intro != "" && reading.VariantIntro(intro):
			if !labelled {
				run++
			}
			bc.variants, labelled = fmt.Sprintf("labelled %d", run), true
		default:
			labelled = false
		}
		intro = ""
		c.blocks = append(c.blocks, bc)
	}
	return c
}

// alternatives marks the blocks the Student passed over as other variants
// of a step it followed: a skipped block of a group of variants one of
// which it ran, wrote or compared.
func (c *Collector) alternatives() {
	followed := map[string]int{}
	for _, b := range c.blocks {
		if b.variants != "" && b.outcome.Exercised() && followed[b.variants] == 0 {
			followed[b.variants] = b.line
		}
	}
	for _, b := range c.blocks {
		if line := followed[b.variants]; line > 0 && b.outcome == status.OutcomeSkipped && c.omitted(b) {
			b.outcome, b.reason = status.OutcomeAlternative, fmt.Sprintf("another variant of the step at line %d, which the Student followed (%s)", line, b.reason)
		}
	}
}

// omitted says whether the plan put the block off the path (another
// platform, an alternative), rather than failing to read it.
func (c *Collector) omitted(b *blockCov) bool {
	return slices.ContainsFunc(c.steps, func(st reading.Step) bool {
		return st.Kind == reading.StepOmit && st.Line >= b.line && st.Line <= b.end
	})
}

// block is the code block holding line, or nil.
// BlockStart is the first line of the code block holding line (0 when
// none does).
func (c *Collector) BlockStart(line int) int {
	if b := c.block(line); b != nil {
		return b.line
	}
	return 0
}

func (c *Collector) block(line int) *blockCov {
	for _, b := range c.blocks {
		if line >= b.line && line <= b.end {
			return b
		}
	}
	return nil
}

// mark gives the block holding from the outcome (when stronger than what it
// has) and covers its lines of code in [from, to] (none for a skip).
func (c *Collector) Mark(from, to int, o status.Outcome, why string) {
	b := c.block(from)
	if b == nil {
		return
	}
	if o.Stronger(b.outcome) {
		b.outcome, b.reason = o, why
	}
	if !o.Exercised() {
		return
	}
	for _, l := range b.code {
		if l >= from && l <= max(to, from) {
			b.covered[l] = true
		}
	}
}

// reach records that the walk began the step.
func (c *Collector) Reach(st reading.Step) {
	if c != nil {
		c.reached = max(c.reached, st.Line)
	}
}

// ran records a tutorial command run at line: its block (and the blocks
// typed into it as input) are run.
func (c *Collector) Ran(line int) {
	if c == nil {
		return
	}
	c.lastRun = max(c.lastRun, line)
	for _, st := range c.steps {
		cmds := append([]reading.Command{st.Command}, st.AltRun...)
		i := slices.IndexFunc(cmds, func(cmd reading.Command) bool { return cmd.Line == line && cmd.Text != "" })
		if i < 0 || (i == 0 && st.Kind != reading.StepRun) {
			continue
		}
		c.Mark(line, cmds[i].EndLine, status.OutcomeRun, "")
		for _, in := range st.Input {
			if b := c.block(in); b != nil {
				c.Mark(b.line, b.end, status.OutcomeRun, "")
			}
		}
		return
	}
	c.Mark(line, line, status.OutcomeRun, "")
}

// wrote records the block at line written to its file.
func (c *Collector) Wrote(line, end int) {
	if c != nil {
		c.Mark(line, end, status.OutcomeWritten, "")
	}
}

// compared records the output shown in [from, to] compared with what a
// command printed.
func (c *Collector) Compared(from, to int) {
	if c != nil {
		c.Mark(from, to, status.OutcomeCompared, "")
	}
}

// skipped records lines the Student did not follow, with the reason.
func (c *Collector) Skipped(from int, why string) {
	if c != nil {
		c.Mark(from, from, status.OutcomeSkipped, why)
	}
}

// notReached records a step the Student did not try because a step it
// depends on failed (cause says which): its block is not reached, unless
// another of its steps was followed.
func (c *Collector) NotReached(from int, cause string) {
	if c != nil {
		c.Mark(from, from, status.OutcomeNotReached, cause)
	}
}

// above is what the blocks before line came to, for a checkpoint there.
func (c *Collector) Above(line int) []status.BlockCoverage {
	if c == nil {
		return nil
	}
	var out []status.BlockCoverage
	for _, b := range c.blocks {
		if b.line < line && b.outcome != "" {
			out = append(out, b.summary())
		}
	}
	return out
}

// resume takes up, for an attempt that starts from the checkpoint before
// line, what the blocks above it came to. A checkpoint kept before SMILE
// carried them: the steps above it were followed by the attempt that kept
// it, so its commands, files and output count as run, written and compared.
func (c *Collector) Resume(line int, carried []status.BlockCoverage) {
	if c == nil || line == 0 {
		return
	}
	if len(carried) > 0 {
		for _, bc := range carried {
			if b := c.block(bc.Line); b != nil {
				b.outcome, b.reason, b.recalled = bc.Outcome, bc.Reason, bc.Covered
				if bc.Outcome == status.OutcomeRun {
					c.lastRun = max(c.lastRun, bc.Line)
				}
			}
		}
		return
	}
	for _, st := range c.steps {
		if st.Line >= line {
			break
		}
		switch st.Kind {
		case reading.StepRun:
			c.Ran(st.Command.Line)
		case reading.StepWrite:
			c.Wrote(st.Line, st.EndLine)
		case reading.StepCompare:
			c.Compared(st.Line, st.EndLine)
		}
	}
}

// summary is the block as the report counts it.
func (b *blockCov) summary() status.BlockCoverage {
	return status.BlockCoverage{Line: b.line, EndLine: b.end, Outcome: b.outcome, Reason: b.reason,
		Lines: len(b.code), Covered: max(len(b.covered), b.recalled)}
}

// result is the attempt's coverage. A block the Student was told nothing
// about is not reached when it lies past the step the walk stopped at (the
// walk did not go through the page), or else skipped: for the reason the
// plan gave, the problem recorded on it, or because it holds nothing to
// follow.
func (c *Collector) Result(out *status.StudentOutput) *status.Coverage {
	if c == nil {
		return nil
	}
	through := out.Status == status.StudentCompleted || !c.followable()
	for _, b := range c.blocks {
		if b.outcome == "" {
			if !through && b.line > c.reached {
				b.outcome = status.OutcomeNotReached
			} else {
				b.outcome, b.reason = status.OutcomeSkipped, c.why(b, out.Findings)
			}
		}
	}
	c.alternatives()
	c.unused()
	c.excerpts()
	blocks := make([]status.BlockCoverage, 0, len(c.blocks))
	for _, b := range c.blocks {
		blocks = append(blocks, b.summary())
	}
	return status.Summarize(blocks)
}

// followable says whether the plan has a step to follow: a page with none
// was read through, and every block of it skipped.
func (c *Collector) followable() bool {
	return slices.ContainsFunc(c.steps, func(st reading.Step) bool {
		return st.Kind == reading.StepRun || st.Kind == reading.StepWrite || st.Kind == reading.StepCompare
	})
}

// why a block the Student was told nothing about was not followed.
func (c *Collector) why(b *blockCov, findings []status.Finding) string {
	for _, st := range c.steps {
		if st.Line >= b.line && st.Line <= b.end && st.Why != "" &&
			(st.Kind == reading.StepSkip || st.Kind == reading.StepOmit || st.Kind == reading.StepAmbiguous) {
			return st.Why
		}
	}
	for _, f := range findings {
		if f.Line >= b.line && f.Line <= b.end {
			return "not followed: " + strings.TrimSpace(f.Problem)
		}
	}
	if !slices.ContainsFunc(c.steps, func(st reading.Step) bool { return st.Line >= b.line && st.Line <= b.end }) {
		return "nothing in it to run, write or compare"
	}
	return "not followed"
}
