package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// inconclusiveRun went through a page of six blocks and followed none: all
// six were another platform's commands or a database shell's input.
func inconclusiveRun() *status.Run {
	run := status.NewRun("db", "uid", "run.yaml", t0)
	end := at(10)
	blocks := []status.BlockCoverage{
		{Line: 5, EndLine: 7, Outcome: status.OutcomeSkipped, Reason: "a Windows powershell block", Lines: 1},
		{Line: 11, EndLine: 13, Outcome: status.OutcomeSkipped, Reason: "a Windows powershell block", Lines: 1},
		{Line: 17, EndLine: 21, Outcome: status.OutcomeSkipped, Reason: "a sql block with no file to save it to and no instruction to run it", Lines: 3},
		{Line: 25, EndLine: 27, Outcome: status.OutcomeSkipped, Reason: "a sql block with no file to save it to and no instruction to run it", Lines: 1},
		{Line: 31, EndLine: 33, Outcome: status.OutcomeSkipped, Reason: "a sql block with no file to save it to and no instruction to run it", Lines: 1},
		{Line: 37, EndLine: 39, Outcome: status.OutcomeSkipped, Reason: "display text", Lines: 1},
	}
	cov := status.Summarize(blocks)
	run.Status = status.Status{Phase: status.PhaseInconclusive, Iteration: 1, StartedAt: t0, FinishedAt: &end,
		Reason: status.ReasonLowCoverage, Message: cov.Verdict(0.5),
		History: []status.IterationRecord{{Iteration: 1, StudentOutput: status.StudentOutput{Status: status.StudentCannotComplete, Coverage: cov}}}}
	return run
}

// Every report of an inconclusive run says what it covered and that it is
// neither a pass nor a gap: a finding about SMILE's reading of the page.
func TestInconclusiveReports(t *testing.T) {
	r := BuildReport(inconclusiveRun(), ReportInput{TutorialPath: "db.md", Now: at(11)})
	if r.Summary.Status != ReportInconclusive || r.StopLine != 0 || r.Coverage == nil || r.Coverage.Blocks != 6 {
		t.Fatalf("status %s, stop line %d, coverage %+v", r.Summary.Status, r.StopLine, r.Coverage)
	}

	md := string(RenderMarkdown(r))
	for _, want := range []string{
		"- **Status**: inconclusive",
		"- **Coverage**: 0/6 code blocks exercised (0%), 0 of 8 lines of code covered (see Coverage)",
		"## Coverage\n\nSMILE exercised 0 of 6 code blocks: it could not follow this page",
		"neither a pass nor a gap of the tutorial",
		"| a Windows powershell block | 2 | 5, 11 |",
		"| a sql block with no file to save it to and no instruction to run it | 3 | 17, 25, 31 |",
		"`inconclusive`: SMILE could not follow most of this page",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	data, err := RenderJSON(r)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Coverage *status.Coverage `json:"coverage"`
		Summary  struct{ Status string }
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.Coverage == nil || doc.Coverage.Skipped != 6 || len(doc.Coverage.SkippedBy) != 3 || doc.Summary.Status != "inconclusive" {
		t.Errorf("JSON coverage %+v, status %s (%v)", doc.Coverage, doc.Summary.Status, err)
	}

	s := checkJUnit(t, renderJUnit(t, r))
	if s.Totals.Failed != 0 || s.Totals.Error != 0 || s.Totals.Skipped != 1 || s.Totals.Passed != 0 {
		t.Errorf("JUnit totals %+v, want the run as one skipped case: neither passed nor failed", s.Totals)
	}
	if msg := s.Tests[len(s.Tests)-1].Message; !strings.Contains(msg, "neither a pass nor a gap") {
		t.Errorf("JUnit skipped message %q", msg)
	}

	doc2, _ := renderSARIF(t, r)
	if n := len(doc2.Runs[0].Results); n != 0 {
		t.Errorf("SARIF has %d results for an inconclusive run without gaps, want none", n)
	}
	raw, _ := RenderSARIF(r)
	if !strings.Contains(string(raw), `"toolExecutionNotifications"`) || !strings.Contains(string(raw), `"coverage": "0/6"`) {
		t.Errorf("SARIF lacks the inconclusive notification or the coverage:\n%s", raw)
	}

	sum := string(RenderSummary(r))
	for _, want := range []string{"`coverage: 0/6`", "neither a pass nor a gap of the tutorial", "Ended: SMILE exercised 0 of 6 code blocks"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if line := summaryLine(r); !strings.HasSuffix(line, "; coverage 0/6 code blocks exercised: inconclusive, neither a pass nor a gap") {
		t.Errorf("summary line %q", line)
	}
}

// A learner that reports no coverage gets none in the report: no section,
// no number.
func TestReportWithoutCoverage(t *testing.T) {
	r := BuildReport(sampleRun(), sampleInput())
	md := string(RenderMarkdown(r))
	if r.Coverage != nil || strings.Contains(md, "## Coverage") || strings.Contains(md, "**Coverage**") {
		t.Errorf("coverage %+v, Markdown:\n%s", r.Coverage, md)
	}
	data, _ := RenderJSON(r)
	if strings.Contains(string(data), `"coverage"`) {
		t.Errorf("JSON names a coverage it does not know")
	}
}
