package status

import (
	"fmt"
	"math"
)

// Outcome is what the Student did with one code block of the page.
type Outcome string

// The outcomes of a code block, strongest first: a block read in several
// steps (a transcript's commands) takes the strongest of them.
const (
	// OutcomeRun: its commands ran, or it was typed into a program as input.
	OutcomeRun Outcome = "run"
	// OutcomeWritten: it was written to the file the page names.
	OutcomeWritten Outcome = "written"
	// OutcomeCompared: it was compared, as output, with what a command printed.
	OutcomeCompared Outcome = "compared"
	// OutcomeAlternative: another variant of a step the Student followed
	// (another platform's tab or block, an alternative way): a reader
	// follows one variant, so it is not part of the Student's path.
	OutcomeAlternative Outcome = "alternative"
	// OutcomeSkipped: the Student did not follow it, for the reason given.
	OutcomeSkipped Outcome = "skipped"
	// OutcomeNotReached: the Student stopped before it.
	OutcomeNotReached Outcome = "not_reached"
)

// Exercised says whether the block was run, written or compared.
func (o Outcome) Exercised() bool {
	return o == OutcomeRun || o == OutcomeWritten || o == OutcomeCompared
}

// rank orders outcomes: a stronger one replaces a weaker.
func (o Outcome) rank() int {
	switch o {
	case OutcomeRun:
		return 5
	case OutcomeWritten:
		return 4
	case OutcomeCompared:
		return 3
	case OutcomeAlternative:
		return 2
	case OutcomeSkipped:
		return 2
	case OutcomeNotReached:
		return 1
	}
	return 0
}

// Stronger reports whether o outranks other (run over written over compared
// over skipped over not reached).
func (o Outcome) Stronger(other Outcome) bool { return o.rank() > other.rank() }

// BlockCoverage is one code block and what became of it.
type BlockCoverage struct {
	// Line and EndLine are the block's first and last lines (its fences).
	Line    int     `json:"line"`
	EndLine int     `json:"endLine,omitempty"`
	Outcome Outcome `json:"outcome"`
	// Reason says why a skipped block was not followed.
	Reason string `json:"reason,omitempty"`
	// Lines is how many lines of code the block holds, Covered how many of
	// them the Student ran, wrote or compared.
	Lines   int `json:"lines"`
	Covered int `json:"covered"`
}

// SkipReason counts the blocks skipped for one reason.
type SkipReason struct {
	Reason string `json:"reason"`
	Blocks int    `json:"blocks"`
	// Lines are the skipped blocks' first lines.
	Lines []int `json:"lines"`
}

// Coverage says how much of the page's code a Student attempt exercised:
// the honest measure behind a verdict (a run that exercised little of the
// page has no verdict about the rest). Only a Student that knows what it did
// with each block reports one (the literal learner); nil is unknown, never 0.
type Coverage struct {
	// Blocks counts the page's code blocks; Exercised those run, written or
	// compared (Run + Written + Compared).
	Blocks     int `json:"blocks"`
	Exercised  int `json:"exercised"`
	Run        int `json:"run"`
	Written    int `json:"written"`
	Compared   int `json:"compared"`
	Skipped    int `json:"skipped"`
	NotReached int `json:"notReached"`
	// Alternatives are other variants of steps the Student followed: they
	// are not on its path, and the share leaves them out.
	Alternatives int `json:"alternatives,omitempty"`
	// SkippedBy groups the skipped blocks by reason, in page order.
	SkippedBy []SkipReason `json:"skippedBy,omitempty"`
	// Lines counts the lines of code of the page's blocks, LinesCovered those
	// of them the Student ran, wrote or compared.
	Lines        int `json:"lines"`
	LinesCovered int `json:"linesCovered"`
	// BlockList is every block with its outcome, in page order.
	BlockList []BlockCoverage `json:"blockList,omitempty"`
}

// Summarize counts blocks (each with its outcome) into a Coverage.
func Summarize(blocks []BlockCoverage) *Coverage {
	c := &Coverage{BlockList: blocks}
	by := map[string]int{}
	for _, b := range blocks {
		c.Blocks++
		c.Lines += b.Lines
		c.LinesCovered += b.Covered
		switch b.Outcome {
		case OutcomeRun:
			c.Run++
		case OutcomeWritten:
			c.Written++
		case OutcomeCompared:
			c.Compared++
		case OutcomeNotReached:
			c.NotReached++
		case OutcomeAlternative:
			c.Alternatives++
		default:
			c.Skipped++
			i, ok := by[b.Reason]
			if !ok {
				i = len(c.SkippedBy)
				by[b.Reason] = i
				c.SkippedBy = append(c.SkippedBy, SkipReason{Reason: b.Reason})
			}
			c.SkippedBy[i].Blocks++
			c.SkippedBy[i].Lines = append(c.SkippedBy[i].Lines, b.Line)
		}
	}
	c.Exercised = c.Run + c.Written + c.Compared
	return c
}

// Path counts the code blocks on the Student's path: the page's, but for
// the other variants of steps it followed.
func (c *Coverage) Path() int { return c.Blocks - c.Alternatives }

// Share is the part of the code blocks on the Student's path it exercised,
// from 0 to 1 (0 when there is none: nothing was exercised).
func (c *Coverage) Share() float64 {
	if c == nil || c.Path() <= 0 {
		return 0
	}
	return float64(c.Exercised) / float64(c.Path())
}

// Percent is Share as a whole percentage, rounded down (so 0.499 is never
// shown as the 50% a minCoverage of 0.5 asks for).
func (c *Coverage) Percent() int { return int(math.Floor(c.Share()*100 + 1e-9)) }

// Cell is the coverage in a table cell: "9/14" (blocks exercised of those
// on the Student's path), "-" when unknown.
func (c *Coverage) Cell() string {
	if c == nil {
		return "-"
	}
	return fmt.Sprintf("%d/%d", c.Exercised, c.Path())
}

// Below reports whether the coverage is under minimum, a share from 0 to 1
// (0 turns the check off). Unknown coverage is never below: a provider that
// cannot count is not judged by a count it never made.
func (c *Coverage) Below(minimum float64) bool {
	return c != nil && minimum > 0 && c.Share() < minimum
}

// Better reports whether c exercised more of the page than other (more
// blocks, then more lines): the run's coverage is its best attempt's.
func (c *Coverage) Better(other *Coverage) bool {
	switch {
	case c == nil:
		return false
	case other == nil:
		return true
	case c.Exercised != other.Exercised:
		return c.Exercised > other.Exercised
	}
	return c.LinesCovered > other.LinesCovered
}

// Sentence says the coverage in words: "SMILE exercised 9 of 14 code blocks
// (64%): 7 run, 1 written, 1 compared; 3 skipped, 2 not reached". A page of
// which nothing was exercised is said as a finding about SMILE's reading.
func (c *Coverage) Sentence() string {
	if c == nil {
		return "coverage unknown: this learner does not report what it did with each code block"
	}
	if c.Blocks == 0 {
		return "SMILE exercised no code block: the page has none, so there was nothing to follow"
	}
	if c.Exercised == 0 {
		return fmt.Sprintf("SMILE exercised 0 of %s: it could not follow this page", Plural(c.Blocks, "code block"))
	}
	s := fmt.Sprintf("SMILE exercised %d of %s (%d%%): %d run, %d written, %d compared",
		c.Exercised, Plural(c.Blocks, "code block"), c.Percent(), c.Run, c.Written, c.Compared)
	if c.Alternatives > 0 {
		s = fmt.Sprintf("SMILE exercised %d of the %d code blocks on its path (%d%%; the page has %d, %d of them other variants of steps it followed): %d run, %d written, %d compared",
			c.Exercised, c.Path(), c.Percent(), c.Blocks, c.Alternatives, c.Run, c.Written, c.Compared)
	}
	if c.Skipped > 0 || c.NotReached > 0 {
		s += fmt.Sprintf("; %d skipped, %d not reached", c.Skipped, c.NotReached)
	}
	return s
}

// Verdict says why a run with this coverage is inconclusive: it exercised
// less of the page than minimum, so what it found (or did not) says little
// about the page, and much about how SMILE read it.
func (c *Coverage) Verdict(minimum float64) string {
	return fmt.Sprintf("%s, less than the %d%% minCoverage asks for: the result is inconclusive, a finding about SMILE's reading of the page rather than about the page",
		c.Sentence(), int(math.Round(minimum*100)))
}

// RunCoverage is the run's coverage: the best of its Student attempts' (the
// one that exercised the most of the page; each attempt reads the page from
// the top, or carries what it did above its checkpoint). nil when no attempt
// reported one.
func (s *Status) RunCoverage() *Coverage {
	var best *Coverage
	for _, h := range s.History {
		if h.StudentOutput.Coverage.Better(best) {
			best = h.StudentOutput.Coverage
		}
	}
	return best
}
