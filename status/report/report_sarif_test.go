package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/smile-loop/smile/status/baseline"
	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The SARIF 2.1.0 schema in testdata is the OASIS Committee Specification's
// (oasis-tcs/sarif-spec, Documents/CommitteeSpecifications/2.1.0/
// sarif-schema-2.1.0.json), byte for byte.
var (
	sarifSchemaOnce sync.Once
	sarifSchemaVal  *jsonschema.Schema
	sarifSchemaErr  error
)

func sarifValidator(t *testing.T) *jsonschema.Schema {
	t.Helper()
	sarifSchemaOnce.Do(func() {
		f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
		if err != nil {
			sarifSchemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			sarifSchemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat() // uri, uri-reference and date-time are checked too
		if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
			sarifSchemaErr = err
			return
		}
		sarifSchemaVal, sarifSchemaErr = c.Compile("sarif-schema-2.1.0.json")
	})
	if sarifSchemaErr != nil {
		t.Fatalf("SARIF schema: %v", sarifSchemaErr)
	}
	return sarifSchemaVal
}

func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("SARIF is not JSON: %v\n%s", err, data)
	}
	if err := sarifValidator(t).Validate(inst); err != nil {
		t.Fatalf("SARIF does not validate against the 2.1.0 schema: %v\n%s", err, data)
	}
}

// sarifDoc is the part of a SARIF log the tests read back.
type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name, InformationURI, Version string
				Rules                         []struct {
					ID, Name, HelpURI    string
					ShortDescription     struct{ Text string }
					DefaultConfiguration struct{ Level string }
				}
			}
		}
		AutomationDetails struct{ ID string }
		Results           []struct {
			RuleID    string
			RuleIndex int
			Level     string
			Message   struct{ Text string }
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Region           *struct {
						StartLine int
						Snippet   struct{ Text string }
					}
				}
			}
			PartialFingerprints map[string]string
			Fixes               []struct {
				Description     struct{ Text string }
				ArtifactChanges []struct {
					ArtifactLocation struct{ URI, URIBaseID string }
					Replacements     []struct {
						DeletedRegion   struct{ StartLine, EndLine int }
						InsertedContent struct{ Text string }
					}
				}
			}
		}
	}
}

func renderSARIF(t *testing.T, r *Report) (sarifDoc, []byte) {
	t.Helper()
	data, err := RenderSARIF(r)
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, data)
	var d sarifDoc
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	if d.Version != "2.1.0" || len(d.Runs) != 1 {
		t.Fatalf("version %q with %d runs, want 2.1.0 with one run", d.Version, len(d.Runs))
	}
	return d, data
}

// everyCategoryReport has a gap of each category, every severity, a gap
// without a line and one of a category SMILE does not know.
func everyCategoryReport() *Report {
	var gaps []status.Gap
	cats := append(slices.Clone(knownCategories()), "new_kind_of_gap")
	sev := []status.Severity{status.SeverityCritical, status.SeverityMajor, status.SeverityMinor}
	for i, c := range cats {
		gaps = append(gaps, status.Gap{
			ID: i + 1, Category: c, Severity: sev[i%3], Location: status.GapLocation{LineNumber: 10 + i, Quote: fmt.Sprintf("step %d", i)},
			Problem: "it failed", SuggestedFix: "fix it", Iteration: 1,
		})
	}
	gaps = append(gaps, status.Gap{ID: len(gaps) + 1, Category: status.CategoryMissingImage, Severity: status.SeverityMinor, Problem: "no line"})
	return BuildReport(&status.Run{Metadata: status.Metadata{Name: "every"}, Status: status.Status{Phase: status.PhaseMaxIterations, Iteration: 3, Gaps: gaps}},
		ReportInput{TutorialPath: "docs/guide.md", SourcePath: "site/docs/guide.md", Now: t0})
}

func knownCategories() []status.Category {
	var out []status.Category
	for _, c := range categoryRules {
		out = append(out, c.category)
	}
	return out
}

func TestSARIFValidates(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *Report
	}{
		{"sample", BuildReport(sampleRun(), sampleInput())},
		{"no gaps", BuildReport(&status.Run{Status: status.Status{Phase: status.PhaseCompleted}}, ReportInput{TutorialPath: "t.md", Now: t0})},
		{"every category", everyCategoryReport()},
		{"built by hand", &Report{}},
		{"path with spaces and a colon", func() *Report {
			r := BuildReport(sampleRun(), sampleInput())
			r.SourcePath = "docs/my tutorial: part 1 (v2).md"
			return r
		}()},
	} {
		t.Run(tc.name, func(t *testing.T) { renderSARIF(t, tc.r) })
	}
	for i, h := range hostile {
		t.Run(fmt.Sprintf("hostile %02d", i), func(t *testing.T) {
			r := hostileReport(h)
			d, _ := renderSARIF(t, r)
			res := d.Runs[0].Results
			if len(res) != 1 || res[0].Locations[0].PhysicalLocation.Region.Snippet.Text != mdtext.StripControl(h) {
				t.Errorf("results = %+v, want one whose snippet is the quote, verbatim", res)
			}
		})
	}
}

// The validator must reject what the schema forbids, or the tests above
// prove nothing.
func TestSARIFSchemaRejectsInvalidLogs(t *testing.T) {
	_, good := renderSARIF(t, BuildReport(sampleRun(), sampleInput()))
	for _, tc := range []struct{ name, from, to string }{
		{"wrong version", `"version": "2.1.0"`, `"version": "2.0.0"`},
		{"unknown level", `"level": "error"`, `"level": "fatal"`},
		{"line 0", `"startLine": 12`, `"startLine": 0`},
		{"unknown property", `"ruleId":`, `"rule_id":`},
	} {
		bad := strings.Replace(string(good), tc.from, tc.to, 1)
		if bad == string(good) {
			t.Fatalf("%s: %q not in the SARIF", tc.name, tc.from)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if sarifValidator(t).Validate(inst) == nil {
			t.Errorf("%s: the schema accepted an invalid log", tc.name)
		}
	}
}

func TestSARIFContent(t *testing.T) {
	r := BuildReport(sampleRun(), sampleInput())
	r.SourcePath = "examples/quickstart/tutorial.md"
	r.ToolVersion = "v1.2.3"
	d, _ := renderSARIF(t, r)
	run := d.Runs[0]

	drv := run.Tool.Driver
	if drv.Name != "SMILE" || drv.InformationURI == "" || drv.Version != "v1.2.3" {
		t.Errorf("driver = %s %s %s", drv.Name, drv.InformationURI, drv.Version)
	}
	var ids []string
	for _, rule := range drv.Rules {
		ids = append(ids, rule.ID)
		if rule.Name == "" || rule.ShortDescription.Text == "" || rule.DefaultConfiguration.Level == "" || rule.HelpURI == "" {
			t.Errorf("rule %s is incomplete: %+v", rule.ID, rule)
		}
	}
	for _, c := range knownCategories() {
		if !slices.Contains(ids, string(c)) {
			t.Errorf("rules %q lack category %s", ids, c)
		}
	}
	if len(ids) != len(slices.Compact(slices.Sorted(slices.Values(ids)))) {
		t.Errorf("rules %q repeat an id", ids)
	}
	if run.AutomationDetails.ID != "smile/quickstart/" {
		t.Errorf("automationDetails.id = %q", run.AutomationDetails.ID)
	}

	if len(run.Results) != len(r.Gaps) {
		t.Fatalf("%d results for %d gaps", len(run.Results), len(r.Gaps))
	}
	wantLevel := map[status.Severity]string{status.SeverityCritical: "error", status.SeverityMajor: "error", status.SeverityMinor: "warning"}
	for i, res := range run.Results {
		g := r.Gaps[i]
		if res.RuleID != string(g.Category) || drv.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("gap %d: ruleId %s, index %d", g.ID, res.RuleID, res.RuleIndex)
		}
		if res.Level != wantLevel[g.Severity] {
			t.Errorf("gap %d (%s): level %s, want %s", g.ID, g.Severity, res.Level, wantLevel[g.Severity])
		}
		loc := res.Locations[0].PhysicalLocation
		if loc.ArtifactLocation.URI != "examples/quickstart/tutorial.md" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
			t.Errorf("gap %d: artifact %+v", g.ID, loc.ArtifactLocation)
		}
		if loc.Region == nil || loc.Region.StartLine != g.Location.LineNumber || loc.Region.Snippet.Text != g.Location.Quote {
			t.Errorf("gap %d: region %+v, want line %d with the quote", g.ID, loc.Region, g.Location.LineNumber)
		}
		if !strings.HasPrefix(res.Message.Text, g.Problem) {
			t.Errorf("gap %d: message %q does not start with the problem", g.ID, res.Message.Text)
		}
		if res.PartialFingerprints[fingerprintKey] == "" {
			t.Errorf("gap %d: no fingerprint", g.ID)
		}
	}
	if m := run.Results[0].Message.Text; !strings.Contains(m, "Suggested fix: Install jq before this step:") || !strings.Contains(m, "apt-get install -y jq") {
		t.Errorf("message %q lacks the suggested fix and its command", m)
	}

	// Fixes: the chmod gap (line 30) and the install gap (line 12) are line
	// changes; the others are not.
	fixes := map[int]string{}
	for i, res := range run.Results {
		for _, f := range res.Fixes {
			ch := f.ArtifactChanges[0]
			rep := ch.Replacements[0]
			if ch.ArtifactLocation.URI != "examples/quickstart/tutorial.md" || rep.DeletedRegion.StartLine != r.Gaps[i].Location.LineNumber ||
				rep.DeletedRegion.EndLine != rep.DeletedRegion.StartLine || f.Description.Text == "" {
				t.Errorf("gap %d: fix %+v does not replace its line", r.Gaps[i].ID, f)
			}
			fixes[r.Gaps[i].ID] = rep.InsertedContent.Text
		}
	}
	want := map[int]string{1: "apt-get update && apt-get install -y jq\njq .name data.json", 4: "chmod +x run.sh\n./run.sh"}
	if fmt.Sprint(fixes) != fmt.Sprint(want) {
		t.Errorf("fixes = %v, want %v", fixes, want)
	}
}

func TestSARIFFingerprints(t *testing.T) {
	fp := func(r *Report) []string {
		d, _ := renderSARIF(t, r)
		var out []string
		for _, res := range d.Runs[0].Results {
			out = append(out, res.PartialFingerprints[fingerprintKey])
		}
		return out
	}
	base := fp(BuildReport(sampleRun(), sampleInput()))
	if len(slices.Compact(slices.Sorted(slices.Values(base)))) != len(base) {
		t.Errorf("fingerprints %q are not distinct", base)
	}

	// Lines moved down by an added paragraph, whitespace changed, another
	// run: the same gaps keep their fingerprints.
	moved := sampleRun()
	for i := range moved.Status.Gaps {
		g := &moved.Status.Gaps[i]
		g.Location.LineNumber += 7
		g.Location.Quote = "  " + strings.ReplaceAll(g.Location.Quote, " ", "   ") + " "
		g.Iteration++
	}
	moved.Metadata.Name = "again"
	if got := fp(BuildReport(moved, sampleInput())); !slices.Equal(got, base) {
		t.Errorf("fingerprints changed when lines moved: %q, want %q", got, base)
	}

	// Another quote or another category is another gap.
	other := sampleRun()
	other.Status.Gaps[0].Location.Quote = "jq .version data.json"
	other.Status.Gaps[1].Category = status.CategoryCommandFailure
	got := fp(BuildReport(other, sampleInput()))
	if got[0] == base[0] || got[1] == base[1] || got[2] != base[2] {
		t.Errorf("fingerprints = %q, base %q: want the first two changed, the third not", got, base)
	}

	// The same quote twice in one tutorial: two alerts, not one.
	twice := sampleRun()
	twice.Status.Gaps = append(twice.Status.Gaps, twice.Status.Gaps[2])
	twice.Status.Gaps[4].Location.LineNumber = 44
	got = fp(BuildReport(twice, sampleInput()))
	if got[4] == got[2] {
		t.Errorf("the same quote twice got one fingerprint %q", got[2])
	}
}

func TestSARIFEveryCategory(t *testing.T) {
	r := everyCategoryReport()
	d, _ := renderSARIF(t, r)
	run := d.Runs[0]
	if n := len(run.Tool.Driver.Rules); n != len(categoryRules)+1 {
		t.Errorf("%d rules, want one per known category and one for the unknown one", n)
	}
	last := run.Tool.Driver.Rules[len(run.Tool.Driver.Rules)-1]
	if last.ID != "new_kind_of_gap" || last.Name != "NewKindOfGap" {
		t.Errorf("rule for the unknown category = %+v", last)
	}
	for i, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result %d points at rule %d (%s), want %s", i, res.RuleIndex, run.Tool.Driver.Rules[res.RuleIndex].ID, res.RuleID)
		}
		if res.Locations[0].PhysicalLocation.ArtifactLocation.URI != "site/docs/guide.md" {
			t.Errorf("result %d points at %q, want the path from the repository root", i, res.Locations[0].PhysicalLocation.ArtifactLocation.URI)
		}
	}
	lineless := run.Results[len(run.Results)-1]
	if lineless.Locations[0].PhysicalLocation.Region != nil {
		t.Errorf("a gap without a line got a region: %+v", lineless.Locations[0].PhysicalLocation.Region)
	}
}

// With a baseline, each result says whether it is new or was accepted, and
// an accepted gap that is gone is listed as absent; the log still validates.
func TestSARIFBaselineState(t *testing.T) {
	run := sampleRun()
	in := sampleInput()
	b := &baseline.Baseline{Version: 1}
	b.Accept("docs/t.md", "quick", run.Status.Gaps[:1], t0)
	gone := run.Status.Gaps[0]
	gone.Location.Quote = "a line the page no longer has"
	b.Accept("docs/t.md", "quick", []status.Gap{gone}, t0)
	in.Baseline, in.BaselineTutorial = b, "docs/t.md"
	d, data := renderSARIF(t, BuildReport(run, in))
	var raw struct {
		Runs []struct {
			Results []struct {
				BaselineState string `json:"baselineState"`
				Level         string `json:"level"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	res := raw.Runs[0].Results
	want := len(run.Status.Gaps) + 1
	if len(res) != want || len(d.Runs[0].Results) != want {
		t.Fatalf("%d results, want %d (the gaps and one absent)", len(res), want)
	}
	if res[0].BaselineState != "unchanged" || res[len(res)-2].BaselineState != "new" && len(res) > 2 {
		t.Errorf("states %+v: the accepted gap is unchanged, the others new", res)
	}
	if last := res[len(res)-1]; last.BaselineState != "absent" || last.Level != "none" {
		t.Errorf("the accepted gap that is gone: %+v, want absent at level none", last)
	}
	plain, _ := renderSARIF(t, BuildReport(sampleRun(), sampleInput()))
	if len(plain.Runs[0].Results) != len(run.Status.Gaps) {
		t.Errorf("without a baseline there is no absent result")
	}
}
