package e2e

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestReportFormats: apply --wait --format writes the CI formats next to the
// report, each pointing at the gap's exact line; smile report re-renders them.
func TestReportFormats(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "workarounds")
	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait", "--fail-on", "none", "--format", "sarif,github,junit,summary")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	line := lineOf(t, filepath.Join(dir, "tutorial.md"), "cat conifg.yaml")

	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(runFile(dir, "workarounds", "smile-report.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sarif); err != nil {
		t.Fatal(err)
	}
	if sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 3 {
		t.Fatalf("sarif: version %s, %d runs; want 2.1.0 with 3 results", sarif.Version, len(sarif.Runs))
	}
	first := sarif.Runs[0].Results[0]
	if first.RuleID != "missing_file" || first.Level != "error" || first.Locations[0].PhysicalLocation.Region.StartLine != line {
		t.Errorf("first SARIF result %+v, want missing_file (error) at line %d", first, line)
	}

	gh, err := os.ReadFile(runFile(dir, "workarounds", "smile-report.github.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gh), ",line="+strconv.Itoa(line)+",") || !strings.HasPrefix(string(gh), "::error file=") {
		t.Errorf("github annotations do not point at line %d:\n%s", line, gh)
	}

	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	data, err = os.ReadFile(runFile(dir, "workarounds", "smile-report.junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(data, &junit); err != nil {
		t.Fatal(err)
	}
	if junit.Failures != 3 || junit.Tests < 3 {
		t.Errorf("junit: %d tests, %d failures; want 3 failures", junit.Tests, junit.Failures)
	}

	// Re-rendered later, from the status alone.
	again := smile(t, dir, nil, time.Minute, "report", "workarounds", "--format", "github", "--stdout")
	if again.code != 0 || again.stdout != string(gh) {
		t.Errorf("smile report --format github --stdout differs from the file (exit %d):\n%s", again.code, again.stdout)
	}
}
