package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/report/mdtext"
)

// RenderSummary renders the report for a CI job's summary page
// ($GITHUB_STEP_SUMMARY): a status line, a table of the gaps with links to
// their lines, the suggested changes as suggestion blocks, and the
// recommendations. The full story stays in smile-report.md.
func RenderSummary(r *Report) []byte {
	r = redactReport(r)
	var b strings.Builder
	fmt.Fprintf(&b, "## SMILE: %s\n\n", mdtext.Text(r.TutorialName))

	c := r.Summary.GapCounts
	badges := []string{
		"status: " + r.Summary.Status,
		"iterations: " + strconv.Itoa(r.Summary.Iterations),
		"gaps: " + strconv.Itoa(c.Tutorial()),
		"critical: " + strconv.Itoa(c.Critical),
		"major: " + strconv.Itoa(c.Major),
		"minor: " + strconv.Itoa(c.Minor),
	}
	if c.Environment > 0 {
		badges = append(badges, "environment notes: "+strconv.Itoa(c.Environment))
	}
	badges = append(badges, "duration: "+humanDuration(time.Duration(r.Summary.DurationSeconds)*time.Second))
	if r.Coverage != nil {
		badges = append(badges, "coverage: "+r.Coverage.Cell())
	}
	for i, s := range badges {
		badges[i] = mdtext.Code(s)
	}
	b.WriteString(strings.Join(badges, " ") + "\n\n")
	if src := sourcePath(r); src != "" {
		fmt.Fprintf(&b, "Tutorial: [%s](%s)", mdtext.Text(src), mdtext.Destination(summaryLink(r, 0)))
		if r.RunName != "" {
			fmt.Fprintf(&b, ", run %s", mdtext.Code(r.RunName))
		}
		b.WriteString("\n\n")
	}
	if r.Summary.Status != ReportCompleted && strings.TrimSpace(r.Summary.Message) != "" {
		fmt.Fprintf(&b, "Ended: %s\n\n", mdtext.Prose(r.Summary.Message))
	}
	if r.Summary.Status == ReportInconclusive {
		b.WriteString(inconclusiveNote + "\n\n")
	}

	if len(r.Gaps) == 0 {
		b.WriteString("No gaps found.\n\n")
	} else {
		b.WriteString("| Severity | Line | Gap |\n| --- | ---: | --- |\n")
		for _, g := range r.Gaps {
			line := "-"
			if n := g.Location.LineNumber; n > 0 {
				line = fmt.Sprintf("[%d](%s)", n, mdtext.Destination(summaryLink(r, n)))
			}
			mdRow(&b, mdtext.Cell(string(g.Severity)), line, mdtext.Cell(g.Title))
		}
		b.WriteString("\n")
	}

	var changes strings.Builder
	for _, g := range r.Gaps {
		s, ok := suggestionFor(r, g)
		if !ok {
			continue
		}
		fmt.Fprintf(&changes, "Gap %d, [line %d](%s): %s\n\n", g.ID, s.Line, mdtext.Destination(summaryLink(r, s.Line)), mdtext.Prose(s.Description))
		changes.WriteString(mdtext.Fence("suggestion", s.Text()))
	}
	if changes.Len() > 0 {
		b.WriteString("### Suggested changes\n\n" + changes.String())
	}

	if len(r.Recommendations) > 0 {
		b.WriteString("### Recommendations\n\n")
		for i, rec := range r.Recommendations {
			fmt.Fprintf(&b, "%d. %s\n", i+1, mdtext.Text(rec.Description))
		}
		b.WriteString("\n")
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

// summaryLink is the tutorial (at a line when line > 0) on GitHub when the
// commit's URL is known, else from the repository root.
func summaryLink(r *Report, line int) string {
	link := r.BlobURL + sourcePath(r)
	if line > 0 {
		link += "#L" + strconv.Itoa(line)
	}
	return link
}
