package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"
)

// RenderGitHub renders the report as GitHub Actions workflow commands, one
// line each: an annotation per gap (::error for critical and major gaps,
// ::warning for minor ones, ::notice for what the container lacked) on the
// tutorial's file and line, then a ::notice
// that sums the run up. Printed in a workflow step, they annotate the
// tutorial in the pull request's diff.
func RenderGitHub(r *Report) []byte {
	r = redactReport(r)
	file := sourcePath(r)
	var b strings.Builder
	for _, g := range r.Gaps {
		// The same levels as SARIF: a note is GitHub's notice.
		cmd := gapLevel(g)
		if cmd == "note" {
			cmd = "notice"
		}
		props := [][2]string{{"file", file}}
		if g.Location.LineNumber > 0 {
			props = append(props, [2]string{"line", strconv.Itoa(g.Location.LineNumber)})
		}
		props = append(props, [2]string{"title", "SMILE: " + strings.Join(strings.Fields(mdtext.StripControl(g.Title)), " ")})
		b.WriteString(workflowCommand(cmd, props, githubMessage(r, g)))
	}
	b.WriteString(workflowCommand("notice", nil, summaryLine(r)))
	return []byte(b.String())
}

// githubMessage is the annotation's text: the problem, the quoted line and
// the suggested fix.
func githubMessage(r *Report, g status.Gap) string {
	msg := sarifMessage(g)
	if q := strings.TrimSpace(mdtext.StripControl(g.Location.Quote)); q != "" && g.Location.LineNumber > 0 {
		msg = fmt.Sprintf("Line %d: %s\n%s", g.Location.LineNumber, q, msg)
	}
	if s, ok := suggestionFor(r, g); ok {
		msg += "\nSuggested change: " + s.Description
	}
	return msg
}

// summaryLine sums a run up in one line.
func summaryLine(r *Report) string {
	c := r.Summary.GapCounts
	s := fmt.Sprintf("SMILE %s after %s: %s (%d critical, %d major, %d minor)",
		r.Summary.Status, status.Plural(r.Summary.Iterations, "iteration"), status.Plural(c.Tutorial(), "gap"), c.Critical, c.Major, c.Minor)
	if c.Environment > 0 {
		s += ", " + status.Plural(c.Environment, "environment note")
	}
	if p := sourcePath(r); p != "" {
		s += " in " + p
	}
	if c := r.Coverage; c != nil {
		s += fmt.Sprintf("; coverage %s code blocks exercised", c.Cell())
	}
	if r.Summary.Status == ReportInconclusive {
		s += ": inconclusive, neither a pass nor a gap"
	}
	return mdtext.StripControl(s)
}

// workflowCommand is one workflow command line, "::name k=v,k=v::message",
// escaped as the Actions toolkit escapes it (@actions/core command.ts), so
// the runner reads back exactly the text given: the message cannot end the
// line and a property cannot end its value. Empty properties are left out,
// as the toolkit does.
func workflowCommand(name string, props [][2]string, message string) string {
	var b strings.Builder
	b.WriteString("::" + name)
	first := true
	for _, p := range props {
		if p[1] == "" {
			continue
		}
		if first {
			b.WriteString(" ")
			first = false
		} else {
			b.WriteString(",")
		}
		b.WriteString(p[0] + "=" + escapeProperty(mdtext.StripControl(p[1])))
	}
	b.WriteString("::" + escapeData(mdtext.StripControl(message)) + "\n")
	return b.String()
}

// escapeData is the toolkit's escapeData: % first, then the line ends.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty is the toolkit's escapeProperty: escapeData plus the
// characters that end a property (",") or the properties (":").
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
