package report

import (
	"fmt"
	"html"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/report/mdtext"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status"
)

// RenderMarkdown renders the report for authors (the seed's layout). Text
// from the tutorial, the Student and the Mentor is escaped, put in code spans
// or fenced blocks, so it cannot add headings, table rows or HTML.
func RenderMarkdown(r *Report) []byte {
	r = redactReport(r)
	var b strings.Builder
	fmt.Fprintf(&b, "# SMILE Loop Report: %s\n\n", mdtext.Text(r.TutorialName))
	writeSummary(&b, r)
	writeGaps(&b, r)
	writeCoverage(&b, r)
	writeSkipped(&b, r.Skipped)
	writeTimeline(&b, r.Timeline)
	writeMentorNotes(&b, r.MentorNotes)
	writeAuditTrail(&b, r.AuditTrail)
	writeRecommendations(&b, r)
	return []byte(b.String())
}

func writeSummary(b *strings.Builder, r *Report) {
	s := r.Summary
	b.WriteString("## Summary\n\n")
	fmt.Fprintf(b, "- **Status**: %s\n", mdtext.Text(s.Status))
	fmt.Fprintf(b, "- **Iterations**: %d\n", s.Iterations)
	fmt.Fprintf(b, "- **Duration**: %s\n", humanDuration(time.Duration(s.DurationSeconds)*time.Second))
	if s.TutorialPath != "" {
		fmt.Fprintf(b, "- **Tutorial**: %s\n", mdtext.Code(s.TutorialPath))
	}
	c := s.GapCounts
	fmt.Fprintf(b, "- **Gaps**: %d (%d critical, %d major, %d minor)\n", c.Tutorial(), c.Critical, c.Major, c.Minor)
	if c.Environment > 0 {
		fmt.Fprintf(b, "- **Environment**: %s: what the container lacked, not gaps of the tutorial\n", status.Plural(c.Environment, "environment note"))
	}
	if r.Coverage != nil {
		fmt.Fprintf(b, "- **Coverage**: %s (see Coverage)\n", coverageLine(r.Coverage))
	}
	if n := len(r.Skipped); n > 0 {
		fmt.Fprintf(b, "- **Skipped**: %s the Student did not follow (see Skipped)\n", status.Plural(n, "block"))
	}
	if s.Cost != nil {
		fmt.Fprintf(b, "- **Cost**: %s\n", mdtext.Text(s.Cost.String()))
	}
	if s.Verification != "" {
		fmt.Fprintf(b, "- **Verified**: %s\n", mdtext.Prose(s.Verification))
	}
	if s.Status != ReportCompleted {
		if s.Reason != "" {
			fmt.Fprintf(b, "- **Reason**: %s\n", mdtext.Text(s.Reason))
		}
		if s.Message != "" {
			fmt.Fprintf(b, "- **Message**: %s\n", mdtext.Prose(s.Message))
		}
	}
	if r.RunName != "" {
		fmt.Fprintf(b, "- **Run**: %s\n", mdtext.Text(r.RunName))
	}
	fmt.Fprintf(b, "- **Generated**: %s\n\n", logTime(r.GeneratedAt))
}

func writeGaps(b *strings.Builder, r *Report) {
	b.WriteString("## Gaps Identified\n\n")
	if len(r.Gaps) == 0 {
		b.WriteString("No gaps found.\n\n")
		return
	}
	for _, g := range r.Gaps {
		fmt.Fprintf(b, "### Gap %d: %s\n\n", g.ID, mdtext.Text(g.Title))
		fmt.Fprintf(b, "- **Location**: %s\n", mdLocation(tutorialLink(r), g.Location))
		fmt.Fprintf(b, "- **Category**: %s\n", mdtext.Code(string(g.Category)))
		fmt.Fprintf(b, "- **Severity**: %s\n", mdtext.Text(string(g.Severity)))
		if g.Iteration > 0 {
			fmt.Fprintf(b, "- **Iteration**: %d\n", g.Iteration)
		}
		if g.Command != "" {
			fmt.Fprintf(b, "- **Command**: %s\n", mdtext.Code(g.Command))
		}
		fmt.Fprintf(b, "- **Problem**: %s\n", orNone(mdtext.Prose(g.Problem), "not recorded"))
		writeGapCause(b, g)
		prose, blocks := mdtext.SplitFences(g.SuggestedFix)
		fix := mdtext.Prose(prose)
		if fix == "" && len(blocks) > 0 {
			fix = "run this first:"
		}
		fmt.Fprintf(b, "- **Suggested Fix**: %s\n\n", orNone(fix, "none suggested"))
		for _, cb := range blocks {
			b.WriteString(mdtext.Fence(cb.Lang, cb.Body))
		}
		// The fix as a change of the line, ready to paste into a pull
		// request review.
		if s, ok := suggestionFor(r, g); ok {
			fmt.Fprintf(b, "Suggested change to line %d: %s\n\n", s.Line, mdtext.Prose(s.Description))
			b.WriteString(mdtext.Fence("suggestion", s.Text()))
		}
	}
}

// tutorialLink is the tutorial as the Markdown links it: relative to the
// folder the report is written in when both are known, else as the user
// named it.
func tutorialLink(r *Report) string {
	if r.TutorialFile == "" || r.LinkDir == "" {
		return r.Summary.TutorialPath
	}
	rel, err := filepath.Rel(r.LinkDir, r.TutorialFile)
	if err != nil {
		return r.Summary.TutorialPath
	}
	return filepath.ToSlash(rel)
}

func mdLocation(tutorial string, loc status.GapLocation) string {
	var s string
	switch {
	case loc.LineNumber > 0 && tutorial != "":
		s = fmt.Sprintf("[Line %d](%s)", loc.LineNumber, mdtext.Destination(fmt.Sprintf("%s#L%d", tutorial, loc.LineNumber)))
	case loc.LineNumber > 0:
		s = fmt.Sprintf("Line %d", loc.LineNumber)
	default:
		s = "Line unknown"
	}
	if q := mdtext.Code(loc.Quote); q != "" {
		s += ` - "` + q + `"`
	}
	return s
}

func writeTimeline(b *strings.Builder, entries []status.TimelineEntry) {
	b.WriteString("## Timeline\n\n")
	if len(entries) == 0 {
		b.WriteString("No events recorded.\n\n")
		return
	}
	b.WriteString("| Time | Iteration | Event | Details |\n| --- | ---: | --- | --- |\n")
	for _, e := range entries {
		mdRow(b, logTime(e.Timestamp), strconv.Itoa(e.Iteration), mdtext.Cell(e.Event), mdtext.Cell(e.Details))
	}
	b.WriteString("\n")
}

func writeMentorNotes(b *strings.Builder, notes []status.MentorNote) {
	b.WriteString("## Mentor Notes\n\n")
	if len(notes) == 0 {
		b.WriteString("No mentor notes.\n\n")
		return
	}
	for i, n := range notes {
		where := fmt.Sprintf("iteration %d", n.Iteration)
		if n.Line > 0 {
			where += fmt.Sprintf(", line %d", n.Line)
		}
		fmt.Fprintf(b, "**Note %d** (%s)\n\n", i+1, where)
		fmt.Fprintf(b, "- **Question**: %s\n", orNone(mdtext.Prose(n.Question), "none recorded"))
		prose, blocks := mdtext.SplitFences(answerOwnText(n))
		fmt.Fprintf(b, "- **Answer**: %s\n", orNone(mdtext.Prose(prose), "see below"))
		if n.Resolution != "" {
			fmt.Fprintf(b, "- **Resolution**: %s\n", mdtext.Text(string(n.Resolution)))
		}
		if n.SuggestedFix != "" {
			fixProse, fixBlocks := mdtext.SplitFences(n.SuggestedFix)
			fmt.Fprintf(b, "- **Suggested Fix**: %s\n", orNone(mdtext.Prose(fixProse), "see below"))
			for _, cb := range fixBlocks {
				blocks = addBlock(blocks, cb)
			}
		}
		if w := strings.TrimSpace(n.Workaround); w != "" {
			b.WriteString("- **Workaround**: run before the step, shown below\n")
			blocks = addBlock(blocks, mdtext.CodeBlock{Lang: "sh", Body: w})
		}
		b.WriteString("\n")
		for _, cb := range blocks {
			b.WriteString(mdtext.Fence(cb.Lang, cb.Body))
		}
	}
}

// answerOwnText is a note's answer without what the note's own lines show
// below it: the workaround's block with the line that introduces it ("...,
// run before line 35:"), and a line that ends with the suggested fix. On one
// list line, the introduction lost its block and read "Workaround, run
// before line 35: Suggested fix for the tutorial: ...", the fix twice.
func answerOwnText(n status.MentorNote) string {
	lines := strings.Split(strings.ReplaceAll(n.Answer, "\r\n", "\n"), "\n")
	fix, work := strings.TrimSpace(n.SuggestedFix), strings.TrimSpace(n.Workaround)
	var out []string
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if fix != "" && strings.HasSuffix(l, fix) {
			continue
		}
		if work != "" && strings.HasSuffix(l, ":") {
			if end, body, ok := fenceAt(lines, i+1); ok && strings.TrimSpace(body) == work {
				i = end
				continue
			}
		}
		out = append(out, lines[i])
	}
	return strings.Join(out, "\n")
}

// fenceAt reads the fenced block that opens at lines[i], if one does: the
// index of its closing line and its body.
func fenceAt(lines []string, i int) (end int, body string, ok bool) {
	if i >= len(lines) {
		return 0, "", false
	}
	open := strings.TrimSpace(lines[i])
	fence := open[:len(open)-len(strings.TrimLeft(open, "`"))]
	if len(fence) < 3 {
		return 0, "", false
	}
	for j := i + 1; j < len(lines); j++ {
		if strings.TrimSpace(lines[j]) == fence {
			return j, strings.Join(lines[i+1:j], "\n"), true
		}
	}
	return 0, "", false
}

// addBlock adds a code block unless the same code is already shown (a
// Mentor's workaround often repeats the snippet in its answer).
func addBlock(blocks []mdtext.CodeBlock, add mdtext.CodeBlock) []mdtext.CodeBlock {
	for _, cb := range blocks {
		if strings.TrimSpace(cb.Body) == strings.TrimSpace(add.Body) {
			return blocks
		}
	}
	return append(blocks, add)
}

func writeAuditTrail(b *strings.Builder, a status.Audit) {
	b.WriteString("## Audit Trail\n\n### Commands\n\n")
	if len(a.Commands) == 0 {
		b.WriteString("None.\n\n")
	} else {
		b.WriteString("| Iteration | Role | Line | Command | Exit | Duration | Output |\n| ---: | --- | ---: | --- | ---: | ---: | --- |\n")
		for _, c := range a.Commands {
			role := mdtext.Cell(string(c.Role))
			if c.Workaround {
				role += " (workaround)"
			}
			exit := strconv.Itoa(c.ExitCode)
			if c.TimedOut {
				exit += " (timed out)"
			}
			mdRow(b, strconv.Itoa(c.Iteration), role, lineCell(c.Line), mdtext.CodeCell(c.Command), exit,
				humanDuration(time.Duration(c.DurationMs)*time.Millisecond), mdtext.CodeCell(lastLine(c.Output, 60)))
		}
		b.WriteString("\n")
		// The full excerpt of what failed, folded: the table only has room for
		// its last line.
		for _, c := range a.Commands {
			out := strings.TrimRight(c.Output, "\n")
			if (c.ExitCode == 0 && !c.TimedOut) || strings.TrimSpace(out) == "" {
				continue
			}
			summary := fmt.Sprintf("Output of %s (iteration %d, line %d, exit %d)", textutil.Shorten(suggest.FirstCommandLine(c.Command), 60), c.Iteration, c.Line, c.ExitCode)
			fmt.Fprintf(b, "<details>\n<summary>%s</summary>\n\n", html.EscapeString(summary))
			b.WriteString(mdtext.Fence("text", mdtext.StripControl(out)))
			b.WriteString("</details>\n\n")
		}
	}

	b.WriteString("### Files Written\n\n")
	if len(a.Files) == 0 {
		b.WriteString("None.\n\n")
	} else {
		b.WriteString("| Iteration | Line | Action | Path | Bytes |\n| ---: | ---: | --- | --- | ---: |\n")
		for _, f := range a.Files {
			mdRow(b, strconv.Itoa(f.Iteration), lineCell(f.Line), mdtext.Cell(f.Action), mdtext.CodeCell(f.Path), strconv.Itoa(f.Bytes))
		}
		b.WriteString("\n")
	}

	b.WriteString("### LLM Calls\n\n")
	if len(a.LLMCalls) == 0 {
		b.WriteString("None.\n\n")
		return
	}
	b.WriteString("| Iteration | Role | Provider | Model | Input Tokens | Output Tokens | Cost (USD) | Duration |\n| ---: | --- | --- | --- | ---: | ---: | ---: | ---: |\n")
	var in, out int64
	var cost float64
	estimated := false
	for _, c := range a.LLMCalls {
		model := mdtext.Cell(c.Model)
		if c.Error != "" {
			model += " (failed: " + mdtext.Cell(textutil.Shorten(c.Error, 60)) + ")"
		}
		mdRow(b, strconv.Itoa(c.Iteration), mdtext.Cell(string(c.Role)), mdtext.Cell(c.Provider), model,
			strconv.FormatInt(c.InputTokens, 10), strconv.FormatInt(c.OutputTokens, 10), costText(c.CostUSD, c.Estimated),
			humanDuration(time.Duration(c.DurationMs)*time.Millisecond))
		in, out, cost = in+c.InputTokens, out+c.OutputTokens, cost+c.CostUSD
		estimated = estimated || c.Estimated
	}
	fmt.Fprintf(b, "\n**Total**: %s, %d input tokens, %d output tokens, %s USD\n\n", status.Plural(len(a.LLMCalls), "call"), in, out, costText(cost, estimated))
}

func writeRecommendations(b *strings.Builder, r *Report) {
	b.WriteString("## Recommendations\n\n")
	if len(r.Recommendations) == 0 {
		if r.Summary.Status == ReportCompleted && len(r.Gaps) == 0 {
			b.WriteString("None: the Student completed the tutorial without finding a gap.\n")
		} else {
			b.WriteString("None.\n")
		}
		return
	}
	for i, rec := range r.Recommendations {
		fmt.Fprintf(b, "%d. %s: %s\n", i+1, mdtext.Code(rec.Category), mdtext.Text(rec.Description))
	}
}

func lineCell(line int) string {
	if line <= 0 {
		return "-"
	}
	return strconv.Itoa(line)
}

func costText(usd float64, estimated bool) string {
	s := strconv.FormatFloat(usd, 'f', 4, 64)
	if estimated {
		s = "~" + s
	}
	return s
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

// lastLine is the last non-blank line of output, shortened: what a table
// cell has room for (usually the error).
func lastLine(out string, n int) string {
	lines := strings.Split(strings.TrimRight(out, " \t\r\n"), "\n")
	return textutil.Shorten(mdtext.StripControl(lines[len(lines)-1]), n)
}

// humanDuration: 35ms, 1.2s, 1m12s, 3h4m (kubectl style, no zero tails).
func humanDuration(d time.Duration) string {
	switch {
	case d <= 0:
		return "0s"
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		d = d.Round(100 * time.Millisecond)
	default:
		d = d.Round(time.Second)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// mdRow writes one table row of cells already made safe for a table.
func mdRow(b *strings.Builder, cells ...string) {
	b.WriteString("|")
	for _, c := range cells {
		b.WriteString(" ")
		b.WriteString(c)
		b.WriteString(" |")
	}
	b.WriteString("\n")
}

// writeGapCause writes what a gap's cause is beyond its line: the
// environment, every line it was seen at, the skipped block it likely comes
// from, output shown only as an example, a workaround that did not work.
func writeGapCause(b *strings.Builder, g status.Gap) {
	if g.Category == status.CategoryEnvironment {
		fmt.Fprintf(b, "- **Environment**: %s\n", mdtext.Text(environmentNote))
	}
	lines, cause := causeText(g)
	if lines != "" {
		fmt.Fprintf(b, "- **Lines**: %d, %s\n", g.Location.LineNumber, lines)
	}
	if cause != "" {
		fmt.Fprintf(b, "- **Likely Cause**: %s\n", mdtext.Prose(cause))
	}
	if g.Tolerant {
		b.WriteString("- **Tolerance**: the tutorial shows this output as an example, so the difference is never critical\n")
	}
	if g.Optional > 0 {
		fmt.Fprintf(b, "- **Optional**: line %d makes this step optional, so its failure is minor and the Student went on\n", g.Optional)
	}
	if g.WorkaroundResult != "" {
		fmt.Fprintf(b, "- **Workaround Result**: %s\n", mdtext.Prose(g.WorkaroundResult))
	}
}

// writeSkipped lists the blocks the Student did not follow and why; nothing
// when it followed every block.
func writeSkipped(b *strings.Builder, skipped []status.SkippedBlock) {
	if len(skipped) == 0 {
		return
	}
	b.WriteString("## Skipped\n\nThe Student did not follow these blocks; they are not gaps.\n\n")
	b.WriteString("| Line | Reason | Quote |\n| ---: | --- | --- |\n")
	for _, s := range skipped {
		where := lineCell(s.Line)
		if s.EndLine > s.Line {
			where += "-" + strconv.Itoa(s.EndLine)
		}
		mdRow(b, where, mdtext.Cell(s.Reason), mdtext.CodeCell(textutil.Shorten(suggest.FirstCommandLine(s.Quote), 80)))
	}
	b.WriteString("\n")
}
