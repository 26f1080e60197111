package report

import (
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// setReports are three runs on three tutorials: the sample's gaps, every
// category's, and none.
func setReports() []*Report {
	a := BuildReport(sampleRun(), sampleInput())
	a.RunName, a.SourcePath = "quickstart", "docs/a/tutorial.md"
	b := everyCategoryReport()
	b.RunName, b.SourcePath = "every", "docs/b/guide.md"
	c := BuildReport(&status.Run{Status: status.Status{Phase: status.PhaseCompleted}}, ReportInput{TutorialPath: "t.md", Now: t0})
	c.RunName, c.SourcePath = "clean", "docs/c/t.md"
	return []*Report{a, b, c}
}

// One SARIF log for many runs: valid 2.1.0, one run of the tool, one result
// per gap of every run, each on its own tutorial, rule indexes that point at
// the result's rule.
func TestRenderSetSARIF(t *testing.T) {
	rs := setReports()
	data, err := RenderSet(FormatSARIF, rs)
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, data)
	var d sarifDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 1 {
		t.Fatalf("%d SARIF runs, want one", len(d.Runs))
	}
	run := d.Runs[0]
	want := map[string]int{}
	total := 0
	for _, r := range rs {
		want[r.SourcePath] += len(r.Gaps)
		total += len(r.Gaps)
	}
	got := map[string]int{}
	for _, res := range run.Results {
		got[res.Locations[0].PhysicalLocation.ArtifactLocation.URI]++
		if rule := run.Tool.Driver.Rules[res.RuleIndex]; rule.ID != res.RuleID {
			t.Errorf("result %s points at rule %s", res.RuleID, rule.ID)
		}
	}
	if len(run.Results) != total || got["docs/a/tutorial.md"] != want["docs/a/tutorial.md"] || got["docs/b/guide.md"] != want["docs/b/guide.md"] || got["docs/c/t.md"] != 0 {
		t.Errorf("results by file = %v (%d), want %v (%d)", got, len(run.Results), want, total)
	}
	if rs[0].RunName != "quickstart" || len(rs) != 3 {
		t.Error("RenderSet changed its input")
	}
	var inv struct {
		Runs []struct {
			Invocations []struct{ Properties map[string]any }
		}
	}
	_ = json.Unmarshal(data, &inv)
	if n := len(inv.Runs[0].Invocations); n != 3 || inv.Runs[0].Invocations[1].Properties["run"] != "every" {
		t.Errorf("invocations = %+v, want one per run, named", inv.Runs[0].Invocations)
	}
}

// One JUnit file: a suite per tutorial inside <testsuites>, valid against
// both schemas.
func TestRenderSetJUnit(t *testing.T) {
	rs := setReports()
	data, err := RenderSet(FormatJUnit, rs)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateXSD(t, jenkinsXSD, data); err != nil {
		t.Fatalf("not valid against %s: %v\n%s", jenkinsXSD, err, data)
	}
	if err := validateXSD(t, antXSD, withoutFileLine(data)); err != nil {
		t.Fatalf("not valid against %s: %v\n%s", antXSD, err, data)
	}
	var doc struct {
		Suites []struct {
			Name    string `xml:"name,attr"`
			Package string `xml:"package,attr"`
			Tests   int    `xml:"tests,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Suites) != 3 || doc.Suites[0].Package != doc.Suites[0].Name || doc.Suites[2].Package != "t" {
		t.Errorf("testsuites: %+v\n%s", doc.Suites, data)
	}
}

// GitHub annotations and the summary cover every run; one report renders as
// it always did; md and json are per run.
func TestRenderSetOthers(t *testing.T) {
	rs := setReports()
	gh, err := RenderSet(FormatGitHub, rs)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"file=docs/a/tutorial.md", "file=docs/b/guide.md", "in docs/c/t.md"} {
		if !strings.Contains(string(gh), f) {
			t.Errorf("github annotations lack %q", f)
		}
	}
	sum, err := RenderSet(FormatSummary, rs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "# SMILE: 3 runs") || !strings.Contains(string(sum), "| clean | docs/c/t.md | completed | none |") ||
		strings.Count(string(sum), "## SMILE: ") != 3 {
		t.Errorf("summary:\n%s", sum)
	}
	one, _ := RenderSet(FormatSARIF, rs[:1])
	if direct, _ := RenderSARIF(rs[0]); string(one) != string(direct) {
		t.Error("RenderSet of one report differs from RenderSARIF")
	}
	if _, err := RenderSet(FormatMarkdown, rs); err == nil {
		t.Error("RenderSet(md, 3 reports) error = nil")
	}
}

func TestRenderRunTable(t *testing.T) {
	rows := []RunRow{
		{Run: "a", Tutorial: "docs/a/tutorial.md", Status: "completed", Gaps: GapCounts{Critical: 1, Major: 2}},
		{Run: "bb", Tutorial: "docs/b.md", Status: "max_iterations", Verified: "yes"},
	}
	want := "RUN   TUTORIAL             STATUS           GAPS                  VERIFIED\n" +
		"a     docs/a/tutorial.md   completed        1 critical, 2 major   -\n" +
		"bb    docs/b.md            max_iterations   none                  yes\n"
	if got := string(RenderRunTable(rows)); got != want {
		t.Errorf("table =\n%s\nwant\n%s", got, want)
	}
}

// A run's row says what its clean replay found: yes, no, or "-" when none ran.
func TestRowOfVerified(t *testing.T) {
	yes, no := true, false
	for _, tt := range []struct {
		v    *bool
		want string
	}{{nil, ""}, {&yes, "yes"}, {&no, "no"}} {
		r := &Report{RunName: "r", Summary: ReportSummary{Status: "completed", Verified: tt.v}}
		if got := RowOf(r).Verified; got != tt.want {
			t.Errorf("verified %v: row says %q, want %q", tt.v, got, tt.want)
		}
	}
}
