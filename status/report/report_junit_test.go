package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status"

	junit "github.com/joshdk/go-junit"
)

// Two published schemas judge the JUnit output (both in testdata):
//   - junit-10.xsd, Jenkins' xunit plugin (jenkinsci/xunit-plugin,
//     src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd),
//     which takes the file and line attributes test cases carry;
//   - JUnit.xsd, the Apache Ant schema (windyroad/JUnit-Schema), the
//     strictest: required attributes and element order, but no file or
//     line on a test case, so those two are taken off before it looks.
const (
	jenkinsXSD = "junit-10.xsd"
	antXSD     = "JUnit.xsd"
)

var (
	xmllintOnce sync.Once
	xmllintPath string
	xmllintWhy  string
)

// xmllint finds Debian's xmllint (libxml2-utils), installing it with apt-get
// when it is missing; the test is skipped only when it cannot be installed.
func xmllint(t *testing.T) string {
	t.Helper()
	xmllintOnce.Do(func() {
		if p, err := exec.LookPath("xmllint"); err == nil {
			xmllintPath = p
			return
		}
		if _, err := exec.LookPath("apt-get"); err != nil {
			xmllintWhy = "no apt-get to install it with"
			return
		}
		if os.Geteuid() != 0 {
			xmllintWhy = "installing it with apt-get needs root"
			return
		}
		install := func(args ...string) error {
			cmd := exec.Command("apt-get", args...)
			cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			out, err := cmd.CombinedOutput()
			if err != nil {
				return fmt.Errorf("apt-get %s: %v: %s", strings.Join(args, " "), err, lastLines(string(out), 3))
			}
			return nil
		}
		err := install("install", "-y", "-qq", "--no-install-recommends", "libxml2-utils")
		if err != nil { // the package lists may be missing or stale
			if uerr := install("update", "-qq"); uerr != nil {
				err = uerr
			} else {
				err = install("install", "-y", "-qq", "--no-install-recommends", "libxml2-utils")
			}
		}
		if p, lerr := exec.LookPath("xmllint"); lerr == nil {
			xmllintPath = p
			return
		}
		xmllintWhy = fmt.Sprint(err)
	})
	if xmllintPath == "" {
		t.Skipf("xmllint (Debian package libxml2-utils) is not installed and could not be installed: %s", xmllintWhy)
	}
	return xmllintPath
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// validateXSD runs xmllint --schema on data.
func validateXSD(t *testing.T, xsd string, data []byte) error {
	t.Helper()
	bin := xmllint(t)
	file := filepath.Join(t.TempDir(), "report.xml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "--noout", "--schema", filepath.Join("testdata", xsd), file).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, out)
	}
	return nil
}

var caseFileLine = regexp.MustCompile(`(<testcase [^>]*?) (?:file|line)="[^"]*"`)

// withoutFileLine takes the file and line attributes off the test cases.
func withoutFileLine(data []byte) []byte {
	for caseFileLine.Match(data) {
		data = caseFileLine.ReplaceAll(data, []byte("$1"))
	}
	return data
}

// checkJUnit validates a JUnit report against both schemas and reads it with
// go-junit, whose totals are counted from the test cases themselves.
func checkJUnit(t *testing.T, data []byte) junit.Suite {
	t.Helper()
	if err := validateXSD(t, jenkinsXSD, data); err != nil {
		t.Fatalf("JUnit report does not validate against %s: %v\n%s", jenkinsXSD, err, data)
	}
	if err := validateXSD(t, antXSD, withoutFileLine(data)); err != nil {
		t.Fatalf("JUnit report does not validate against %s: %v\n%s", antXSD, err, data)
	}
	suites, err := junit.Ingest(data)
	if err != nil {
		t.Fatalf("go-junit cannot read the report: %v\n%s", err, data)
	}
	if len(suites) != 1 {
		t.Fatalf("%d suites, want one for the tutorial", len(suites))
	}
	s := suites[0]
	// The suite's own counts must agree with its test cases.
	var counts struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Skipped  int `xml:"skipped,attr"`
	}
	if err := xml.Unmarshal(data, &counts); err != nil {
		t.Fatal(err)
	}
	if got, want := counts, (struct{ Tests, Failures, Errors, Skipped int }{s.Totals.Tests, s.Totals.Failed, s.Totals.Error, s.Totals.Skipped}); got.Tests != want.Tests ||
		got.Failures != want.Failures || got.Errors != want.Errors || got.Skipped != want.Skipped {
		t.Errorf("testsuite counts %+v, but its test cases are %+v", got, want)
	}
	if s.Totals.Tests != s.Totals.Passed+s.Totals.Failed+s.Totals.Error+s.Totals.Skipped {
		t.Errorf("totals %+v do not add up", s.Totals)
	}
	return s
}

func renderJUnit(t *testing.T, r *Report) []byte {
	t.Helper()
	data, err := RenderJUnit(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestJUnitSample(t *testing.T) {
	in := sampleInput()
	in.SourcePath = "examples/quickstart/tutorial.md"
	r := BuildReport(sampleRun(), in)
	s := checkJUnit(t, renderJUnit(t, r))

	if s.Name != "Quickstart: Hello SMILE" {
		t.Errorf("suite name %q", s.Name)
	}
	var names []string
	for _, tc := range s.Tests {
		names = append(names, tc.Name)
		if tc.Classname != "examples/quickstart/tutorial.md" || tc.Properties["file"] != "examples/quickstart/tutorial.md" {
			t.Errorf("%s: classname %q, file %q, want the tutorial", tc.Name, tc.Classname, tc.Properties["file"])
		}
	}
	// The Student's last iteration ran lines 12, 20, 26 and 30; line 14 is a
	// gap (checked output).
	want := []string{"line 12: jq .name data.json", `line 14: {"name": "smile"}`, "line 20: python3 app.py", "line 26: write run.sh", "line 30: ./run.sh"}
	if !slices.Equal(names, want) {
		t.Errorf("test cases = %q, want %q", names, want)
	}
	if s.Totals.Tests != 5 || s.Totals.Failed != 4 || s.Totals.Passed != 1 || s.Totals.Skipped != 0 || s.Totals.Error != 0 {
		t.Errorf("totals = %+v, want 5 tests, 4 failed, 1 passed", s.Totals)
	}
	for i, g := range r.Gaps {
		tc := s.Tests[map[int]int{0: 0, 1: 1, 2: 2, 3: 4}[i]]
		if tc.Status != junit.StatusFailed {
			t.Fatalf("%s: status %s, want failed", tc.Name, tc.Status)
		}
		loc := fmt.Sprintf("examples/quickstart/tutorial.md:%d", g.Location.LineNumber)
		if tc.Message != loc+": "+g.Problem {
			t.Errorf("%s: message %q, want file:line and the problem", tc.Name, tc.Message)
		}
		if tc.Properties["line"] != strconv.Itoa(g.Location.LineNumber) {
			t.Errorf("%s: line attribute %q", tc.Name, tc.Properties["line"])
		}
		body := tc.Error.Error()
		for _, w := range []string{loc, "Problem: " + g.Problem, string(g.Category), string(g.Severity)} {
			if !strings.Contains(body, w) {
				t.Errorf("%s: failure body lacks %q:\n%s", tc.Name, w, body)
			}
		}
		fix := g.SuggestedFix
		if fix == "" {
			fix = "none suggested"
		}
		if !strings.Contains(body, "Suggested fix: "+fix) {
			t.Errorf("%s: failure body lacks the suggested fix %q:\n%s", tc.Name, fix, body)
		}
	}
	if body := s.Tests[4].Error.Error(); !strings.Contains(body, "Suggested change: Insert `chmod +x run.sh` above line 30.\nchmod +x run.sh\n./run.sh") {
		t.Errorf("chmod failure lacks the suggested change:\n%s", body)
	}
	if d := s.Tests[0].Duration.Milliseconds(); d != 12 {
		t.Errorf("line 12 took %dms, want the 12ms its command took in the last iteration", d)
	}
}

// With the tutorial's steps given, the steps after the one the Student
// stopped at are skipped, not passed.
func TestJUnitStepsAfterTheStopAreSkipped(t *testing.T) {
	in := sampleInput()
	in.Steps = []ReportStep{
		{Line: 8, Kind: StepCommand, Text: "cat > data.json <<'EOF'\n{}\nEOF"},
		{Line: 12, Kind: StepCommand, Text: "jq .name data.json"},
		{Line: 14, Kind: StepOutput, Text: `{"name": "smile"}`},
		{Line: 20, Kind: StepCommand, Text: "python3 app.py"},
		{Line: 26, Kind: StepFile, Text: "run.sh"},
		{Line: 30, Kind: StepCommand, Text: "./run.sh"},
		{Line: 34, Kind: StepOutput, Text: "hello"},
		{Line: 40, Kind: StepCommand, Text: "./cleanup.sh"},
	}
	r := BuildReport(sampleRun(), in)
	s := checkJUnit(t, renderJUnit(t, r))
	var got []string
	for _, tc := range s.Tests {
		got = append(got, tc.Name+" = "+string(tc.Status))
	}
	want := []string{
		"line 8: cat > data.json <<'EOF' = passed",
		"line 12: jq .name data.json = failed",
		`line 14: {"name": "smile"} = failed`,
		"line 20: python3 app.py = failed",
		"line 26: write run.sh = passed",
		"line 30: ./run.sh = failed",
		"line 34: output hello = skipped",
		"line 40: ./cleanup.sh = skipped",
	}
	if !slices.Equal(got, want) {
		t.Errorf("test cases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Totals.Tests != 8 || s.Totals.Skipped != 2 || s.Totals.Failed != 4 || s.Totals.Passed != 2 {
		t.Errorf("totals = %+v", s.Totals)
	}
	if m := s.Tests[6].Message; !strings.Contains(m, "line 30") {
		t.Errorf("skipped message %q does not say where the Student stopped", m)
	}
}

// A Student that goes on past a failure runs steps after the line it
// stopped at: a step the last iteration ran is passed, not "not reached".
func TestJUnitStepsRunPastTheStopPass(t *testing.T) {
	in := sampleInput()
	in.Steps = []ReportStep{
		{Line: 8, Kind: StepCommand, Text: "cat > data.json <<'EOF'\n{}\nEOF"},
		{Line: 12, Kind: StepCommand, Text: "jq .name data.json"},
		{Line: 30, Kind: StepCommand, Text: "./run.sh"},
		{Line: 40, Kind: StepCommand, Text: "./cleanup.sh"},
		{Line: 44, Kind: StepCommand, Text: "ls"},
	}
	last := &in.Audits[len(in.Audits)-1]
	last.Commands = append(last.Commands, status.AuditCommand{Iteration: 2, Role: status.RoleStudent, Line: 40, Command: "./cleanup.sh", DurationMs: 3})
	r := BuildReport(sampleRun(), in)
	s := checkJUnit(t, renderJUnit(t, r))
	status := map[string]string{}
	for _, tc := range s.Tests {
		status[tc.Name] = string(tc.Status)
	}
	if status["line 40: ./cleanup.sh"] != "passed" || status["line 44: ls"] != "skipped" {
		t.Errorf("after the stop: line 40 ran (%s, want passed), line 44 did not (%s, want skipped)", status["line 40: ./cleanup.sh"], status["line 44: ls"])
	}
}

func TestJUnitRunEnds(t *testing.T) {
	t.Run("timeout at a step without a gap", func(t *testing.T) {
		run := sampleRun()
		run.Status.Phase, run.Status.Reason, run.Status.Message = status.PhaseTimeout, "RunTimeout", "the run took longer than 300s"
		run.Status.Gaps = run.Status.Gaps[:1]
		run.Status.History[1].StudentOutput.Line = 20
		// The last iteration ended at line 20: the steps after it are the
		// page's, and nothing after it ran.
		in := sampleInput()
		in.Steps = []ReportStep{
			{Line: 12, Kind: StepCommand, Text: "jq .name data.json"},
			{Line: 20, Kind: StepCommand, Text: "python3 app.py"},
			{Line: 26, Kind: StepFile, Text: "run.sh"},
			{Line: 30, Kind: StepCommand, Text: "./run.sh"},
		}
		for i := range in.Audits {
			in.Audits[i].Commands = slices.DeleteFunc(in.Audits[i].Commands, func(c status.AuditCommand) bool { return c.Iteration == 2 && c.Line > 20 })
			in.Audits[i].Files = slices.DeleteFunc(in.Audits[i].Files, func(f status.AuditFile) bool { return f.Iteration == 2 && f.Line > 20 })
		}
		s := checkJUnit(t, renderJUnit(t, BuildReport(run, in)))
		var statuses []string
		for _, tc := range s.Tests {
			statuses = append(statuses, fmt.Sprintf("%s=%s", tc.Name, tc.Status))
		}
		want := []string{"line 12: jq .name data.json=failed", "line 20: python3 app.py=error", "line 26: write run.sh=skipped", "line 30: ./run.sh=skipped"}
		if !slices.Equal(statuses, want) {
			t.Errorf("test cases = %q, want %q", statuses, want)
		}
		if e := s.Tests[1]; !strings.Contains(e.Message, "timeout") || !strings.Contains(e.Message, "300s") || e.Error.(junit.Error).Type != "RunTimeout" {
			t.Errorf("error = %q (%v), want the run's end", e.Message, e.Error)
		}
	})
	t.Run("error before any step", func(t *testing.T) {
		run := &status.Run{Status: status.Status{Phase: status.PhaseError, Reason: "ImagePullFailed", Message: "no such image"}}
		s := checkJUnit(t, renderJUnit(t, BuildReport(run, ReportInput{TutorialPath: "t.md", Now: t0})))
		if s.Totals.Tests != 1 || s.Totals.Error != 1 || s.Tests[0].Name != "run: error" || !strings.Contains(s.Tests[0].Message, "no such image") {
			t.Errorf("tests = %+v, want one errored case for the run", s.Tests)
		}
	})
	t.Run("completed without gaps", func(t *testing.T) {
		in := sampleInput()
		run := sampleRun()
		run.Status.Phase, run.Status.Gaps = status.PhaseCompleted, nil
		s := checkJUnit(t, renderJUnit(t, BuildReport(run, in)))
		if s.Totals.Tests == 0 || s.Totals.Passed != s.Totals.Tests {
			t.Errorf("totals = %+v, want every step passed", s.Totals)
		}
	})
	t.Run("a gap without a line", func(t *testing.T) {
		run := &status.Run{Status: status.Status{Phase: status.PhaseCompleted, Gaps: []status.Gap{{ID: 1, Title: "Missing image", Category: status.CategoryMissingImage, Severity: status.SeverityMinor, Problem: "logo.png is missing"}}}}
		s := checkJUnit(t, renderJUnit(t, BuildReport(run, ReportInput{TutorialPath: "t.md", Now: t0})))
		if s.Totals.Failed != 1 || s.Tests[0].Name != "gap 1: Missing image" || s.Tests[0].Properties["line"] != "" {
			t.Errorf("tests = %+v", s.Tests)
		}
	})
}

func TestJUnitHostileText(t *testing.T) {
	hostileXML := append(slices.Clone(hostile), "]]> ends a CDATA section", "<![CDATA[ starts one", `quotes " and ' and & and <tag attr="x">`, "\uFFFE\uFFFF bad \xff\xfe bytes")
	for i, h := range hostileXML {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			r := hostileReport(h)
			s := checkJUnit(t, renderJUnit(t, r))
			if len(s.Tests) != 1 || s.Tests[0].Status != junit.StatusFailed {
				t.Fatalf("tests = %+v, want the one failed step", s.Tests)
			}
			tc := s.Tests[0]
			clean := xmlText(h)
			if want := xmlText("line 3: " + textutil.Shorten(suggest.FirstCommandLine(h), 100)); tc.Name != want {
				t.Errorf("name = %q, want %q", tc.Name, want)
			}
			if body := tc.Error.Error(); !strings.Contains(body, "Problem: "+strings.TrimSpace(clean)) {
				t.Errorf("body lacks the problem verbatim:\n%s", body)
			}
		})
	}
}

// The schemas must reject what they forbid, or the tests above prove
// nothing.
func TestJUnitSchemasRejectInvalidReports(t *testing.T) {
	good := renderJUnit(t, BuildReport(sampleRun(), sampleInput()))
	for _, tc := range []struct {
		name, xsd string
		edit      func([]byte) []byte
	}{
		{"no tests count", jenkinsXSD, func(b []byte) []byte { return regexp.MustCompile(` tests="\d+"`).ReplaceAll(b, nil) }},
		{"a test case without a name", jenkinsXSD, func(b []byte) []byte {
			return regexp.MustCompile(`<testcase name="[^"]*"`).ReplaceAll(b, []byte("<testcase"))
		}},
		{"file and line left on the test cases", antXSD, func(b []byte) []byte { return b }},
		{"a failure without a type", antXSD, func(b []byte) []byte {
			return withoutFileLine(regexp.MustCompile(` type="[a-z_]+"`).ReplaceAll(b, nil))
		}},
		{"no timestamp", antXSD, func(b []byte) []byte {
			return withoutFileLine(regexp.MustCompile(` timestamp="[^"]*"`).ReplaceAll(b, nil))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := tc.edit(bytes.Clone(good))
			if err := validateXSD(t, tc.xsd, bad); err == nil {
				t.Errorf("%s accepted an invalid report", tc.xsd)
			}
		})
	}
	if err := validateXSD(t, antXSD, withoutFileLine(good)); err != nil {
		t.Errorf("the unedited report fails %s: %v", antXSD, err)
	}
	var exit *exec.ExitError
	if err := validateXSD(t, jenkinsXSD, []byte("<testsuites><testsuite/></testsuites>")); !errors.As(err, &exit) {
		t.Errorf("xmllint took a test suite without tests: %v", err)
	}
}
