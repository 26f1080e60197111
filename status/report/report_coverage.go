package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/report/mdtext"
)

// ReportInconclusive is the status of a run that went through the page but
// exercised less of its code than minCoverage: neither a pass nor a verdict
// of gaps.
const ReportInconclusive = "inconclusive"

// inconclusiveNote says what an inconclusive run means, wherever a reader
// could take it for a pass or a failure.
const inconclusiveNote = "The run is inconclusive: neither a pass nor a gap of the tutorial. " +
	"SMILE exercised too little of the page to judge it; that is a finding about SMILE's reading of the page, not about the page."

// coverageLine is the coverage for a summary line: "9/14 code blocks
// exercised (64%)", or unknown.
func coverageLine(c *status.Coverage) string {
	if c == nil {
		return "unknown (this learner does not report what it did with each code block)"
	}
	return fmt.Sprintf("%s code blocks exercised (%d%%), %d of %s of code covered", c.Cell(), c.Percent(), c.LinesCovered, status.Plural(c.Lines, "line"))
}

// writeCoverage is the Markdown report's Coverage section: how much of the
// page the Student exercised, the blocks it skipped (by reason) and those it
// never reached. Nothing when the learner reports no coverage.
func writeCoverage(b *strings.Builder, r *Report) {
	c := r.Coverage
	if c == nil {
		return
	}
	b.WriteString("## Coverage\n\n")
	fmt.Fprintf(b, "%s. Lines of code covered: %d of %d.\n\n", mdtext.Prose(c.Sentence()), c.LinesCovered, c.Lines)
	if r.Summary.Status == ReportInconclusive {
		b.WriteString(inconclusiveNote + "\n\n")
	}
	b.WriteString("| Outcome | Blocks |\n| --- | ---: |\n")
	for _, row := range []struct {
		name string
		n    int
	}{{"run (commands, or input typed into a program)", c.Run}, {"written to a file", c.Written}, {"compared as output", c.Compared},
		{"another variant of a step it followed (not on its path)", c.Alternatives}, {"skipped", c.Skipped}, {"not reached", c.NotReached}} {
		mdRow(b, row.name, strconv.Itoa(row.n))
	}
	b.WriteString("\n")
	if len(c.SkippedBy) > 0 {
		b.WriteString("Skipped, by reason:\n\n| Reason | Blocks | Lines |\n| --- | ---: | --- |\n")
		for _, s := range c.SkippedBy {
			mdRow(b, mdtext.Cell(s.Reason), strconv.Itoa(s.Blocks), linesText(s.Lines))
		}
		b.WriteString("\n")
	}
	if c.NotReached > 0 {
		var lines []int
		for _, bc := range c.BlockList {
			if bc.Outcome == status.OutcomeNotReached {
				lines = append(lines, bc.Line)
			}
		}
		fmt.Fprintf(b, "Not reached (the Student stopped before them): the blocks starting at lines %s.\n\n", linesText(lines))
	}
}

func linesText(lines []int) string {
	parts := make([]string, len(lines))
	for i, l := range lines {
		parts[i] = strconv.Itoa(l)
	}
	return strings.Join(parts, ", ")
}
