package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/smile-loop/smile/status/report/mdtext"
)

// SetFormats are the formats of which one file covers many runs (apply
// --wait on several manifests); md and json stay one file per run.
var SetFormats = []string{FormatSARIF, FormatGitHub, FormatJUnit, FormatSummary}

// RenderSet renders several runs' reports into one document of a SetFormats
// format: SARIF one run of the tool with a result per gap, each on its own
// tutorial; JUnit a <testsuites> with a suite per tutorial; GitHub every
// run's annotations; the summary a table of the runs, then each run's. One
// report renders as RenderFormat does.
func RenderSet(format string, reports []*Report) ([]byte, error) {
	if len(reports) == 0 {
		return nil, fmt.Errorf("render %s: no reports", format)
	}
	if len(reports) == 1 {
		return RenderFormat(format, reports[0])
	}
	switch format {
	case FormatSARIF:
		return encodeSARIF(sarifRunOf(slices.Clone(reports)))
	case FormatJUnit:
		return encodeJUnit(junitSuitesOf(reports))
	case FormatGitHub:
		var b bytes.Buffer
		for _, r := range reports {
			b.Write(RenderGitHub(r))
		}
		return b.Bytes(), nil
	case FormatSummary:
		return renderSummarySet(reports), nil
	}
	if FormatFileName(format) == "" {
		return nil, unknownFormat(format)
	}
	return nil, fmt.Errorf("format %s holds one run: it is written into each run's outputDir", format)
}

// junitSuites has no attributes: Ant's schema, the strictest, allows none
// (readers total the suites themselves).
type junitSuites struct {
	XMLName struct{}     `xml:"testsuites"`
	Suites  []junitSuite `xml:"testsuite"`
}

// junitSuitesOf aggregates the runs' suites as Ant's schema has it: each
// with its package (the suite's name) and its index.
func junitSuitesOf(reports []*Report) junitSuites {
	var out junitSuites
	for i, r := range reports {
		s := junitSuiteOf(r)
		id := i
		s.Package, s.ID = s.Name, &id
		out.Suites = append(out.Suites, s)
	}
	return out
}

// renderSummarySet is the CI summary of many runs: one table row per run,
// then each run's own summary.
func renderSummarySet(reports []*Report) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# SMILE: %d runs\n\n", len(reports))
	b.WriteString("| Run | Tutorial | Status | Gaps |\n| --- | --- | --- | --- |\n")
	for _, r := range reports {
		mdRow(&b, mdtext.Cell(r.RunName), mdtext.Cell(sourcePath(r)), mdtext.Cell(r.Summary.Status), mdtext.Cell(GapCountText(r.Summary.GapCounts)))
	}
	b.WriteString("\n")
	for _, r := range reports {
		b.Write(RenderSummary(r))
		b.WriteString("\n")
	}
	return []byte(strings.TrimRight(b.String(), "\n") + "\n")
}

// GapCountText says a run's gaps by severity: "1 critical, 2 major", or
// "none".
func GapCountText(c GapCounts) string {
	var parts []string
	for _, p := range []struct {
		n    int
		name string
	}{{c.Critical, "critical"}, {c.Major, "major"}, {c.Minor, "minor"}, {c.Environment, "environment"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.name))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// RunRow is one line of the table apply --wait prints for several runs.
type RunRow struct {
	Run, Tutorial, Status string
	Gaps                  GapCounts
	// Verified is the clean replay's verdict on the fixes: "yes", "no", or
	// "-" when no replay was needed (the last iteration ran from the top).
	Verified string
}

// RowOf is a report's row.
func RowOf(r *Report) RunRow {
	row := RunRow{Run: r.RunName, Tutorial: sourcePath(r), Status: r.Summary.Status, Gaps: r.Summary.GapCounts}
	if v := r.Summary.Verified; v != nil {
		row.Verified = map[bool]string{true: "yes", false: "no"}[*v]
	}
	return row
}

// RenderRunTable renders the runs as a kubectl-style table: RUN, TUTORIAL,
// STATUS, GAPS, VERIFIED.
func RenderRunTable(rows []RunRow) []byte {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 3, ' ', 0)
	fmt.Fprintln(tw, "RUN\tTUTORIAL\tSTATUS\tGAPS\tVERIFIED")
	for _, r := range rows {
		verified := r.Verified
		if verified == "" {
			verified = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", cellText(r.Run), cellText(r.Tutorial), cellText(r.Status), GapCountText(r.Gaps), cellText(verified))
	}
	_ = tw.Flush()
	return buf.Bytes()
}

// cellText keeps a table cell on one line, never empty.
func cellText(s string) string {
	s = strings.Join(strings.Fields(mdtext.StripControl(s)), " ")
	if s == "" {
		return "-"
	}
	return s
}
