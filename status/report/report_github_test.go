package report

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"
)

// parsedCommand is a workflow command as the Actions runner reads it.
type parsedCommand struct {
	name  string
	props map[string]string
	data  string
}

// parseWorkflowCommand reads one line the way the runner does
// (actions/runner, src/Runner.Common/ActionCommand.cs, TryParseV2): the
// command runs from "::" to the next "::", properties are split at ","
// and at the first "=", then unescaped (%0D, %0A, %3A, %2C, %25, in that
// order), and the data after the second "::" is unescaped (%0D, %0A, %25).
func parseWorkflowCommand(line string) (parsedCommand, bool) {
	line = strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(line, "::") {
		return parsedCommand{}, false
	}
	end := strings.Index(line[2:], "::")
	if end < 0 {
		return parsedCommand{}, false
	}
	info := line[2 : 2+end]
	c := parsedCommand{props: map[string]string{}}
	name, props, hasProps := strings.Cut(info, " ")
	c.name = name
	if hasProps {
		for _, p := range strings.Split(strings.TrimSpace(props), ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" || v == "" {
				continue
			}
			for _, m := range [][2]string{{"%0D", "\r"}, {"%0A", "\n"}, {"%3A", ":"}, {"%2C", ","}, {"%25", "%"}} {
				v = strings.ReplaceAll(v, m[0], m[1])
			}
			c.props[k] = v
		}
	}
	c.data = line[2+end+2:]
	for _, m := range [][2]string{{"%0D", "\r"}, {"%0A", "\n"}, {"%25", "%"}} {
		c.data = strings.ReplaceAll(c.data, m[0], m[1])
	}
	return c, true
}

// The documented escapes of @actions/core (command.ts): data escapes %, CR
// and LF; properties also escape ":" and ",".
func TestWorkflowCommandEscaping(t *testing.T) {
	for _, tc := range []struct {
		name    string
		props   [][2]string
		message string
		want    string
	}{
		{"plain", [][2]string{{"file", "app.js"}, {"line", "1"}}, "Missing semicolon", "::error file=app.js,line=1::Missing semicolon\n"},
		{"percent in data", nil, "100% done, 50%25 left", "::error::100%25 done, 50%2525 left\n"},
		{"newlines in data", nil, "one\ntwo\r\nthree", "::error::one%0Atwo%0D%0Athree\n"},
		{"colons and commas stay in data", nil, "a: b, c :: d", "::error::a: b, c :: d\n"},
		{"colon in a property", [][2]string{{"title", "SMILE: Missing file"}}, "x", "::error title=SMILE%3A Missing file::x\n"},
		{"comma in a property", [][2]string{{"file", "a,b.md"}, {"title", "one, two"}}, "x", "::error file=a%2Cb.md,title=one%2C two::x\n"},
		{"percent and newline in a property", [][2]string{{"title", "50%\nnext"}}, "x", "::error title=50%25%0Anext::x\n"},
		{"an empty property is left out", [][2]string{{"file", "t.md"}, {"line", ""}, {"title", "T"}}, "x", "::error file=t.md,title=T::x\n"},
		{"escapes are escaped", [][2]string{{"title", "%3A %2C %0A"}}, "%0A", "::error title=%253A %252C %250A::%250A\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := workflowCommand("error", tc.props, tc.message)
			if got != tc.want {
				t.Errorf("workflowCommand = %q, want %q", got, tc.want)
			}
			c, ok := parseWorkflowCommand(strings.TrimSuffix(got, "\n"))
			if !ok || c.data != tc.message {
				t.Errorf("the runner reads data %q, want %q", c.data, tc.message)
			}
			for _, p := range tc.props {
				if p[1] != "" && c.props[p[0]] != p[1] {
					t.Errorf("the runner reads %s=%q, want %q", p[0], c.props[p[0]], p[1])
				}
			}
		})
	}
}

func TestGitHubAnnotations(t *testing.T) {
	in := sampleInput()
	in.SourcePath = "examples/quickstart/tutorial.md"
	r := BuildReport(sampleRun(), in)
	out := string(RenderGitHub(r))
	if !strings.HasSuffix(out, "\n") {
		t.Errorf("output does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(r.Gaps)+1 {
		t.Fatalf("%d lines for %d gaps, want one per gap and a notice:\n%s", len(lines), len(r.Gaps), out)
	}
	wantCmd := map[status.Severity]string{status.SeverityCritical: "error", status.SeverityMajor: "error", status.SeverityMinor: "warning"}
	for i, g := range r.Gaps {
		c, ok := parseWorkflowCommand(lines[i])
		if !ok {
			t.Fatalf("line %d is not a workflow command: %q", i, lines[i])
		}
		if c.name != wantCmd[g.Severity] {
			t.Errorf("gap %d (%s) is ::%s, want ::%s", g.ID, g.Severity, c.name, wantCmd[g.Severity])
		}
		want := map[string]string{"file": "examples/quickstart/tutorial.md", "line": fmt.Sprint(g.Location.LineNumber), "title": "SMILE: " + g.Title}
		if fmt.Sprint(c.props) != fmt.Sprint(want) {
			t.Errorf("gap %d properties = %v, want %v", g.ID, c.props, want)
		}
		if !strings.Contains(c.data, g.Problem) || !strings.Contains(c.data, g.Location.Quote) {
			t.Errorf("gap %d message %q lacks the problem or the quote", g.ID, c.data)
		}
	}
	// The fix with its command block, and the suggested change, in one line.
	if c, _ := parseWorkflowCommand(lines[0]); !strings.Contains(c.data, "Suggested fix: Install jq before this step:\napt-get update && apt-get install -y jq") ||
		!strings.Contains(c.data, "Suggested change: Insert `apt-get update && apt-get install -y jq` above line 12.") {
		t.Errorf("gap 1 message = %q", c.data)
	}
	notice, ok := parseWorkflowCommand(lines[len(lines)-1])
	if !ok || notice.name != "notice" || len(notice.props) != 0 {
		t.Fatalf("last line %q, want a ::notice:: with no properties", lines[len(lines)-1])
	}
	if want := "SMILE blocker after 2 iterations: 4 gaps (1 critical, 2 major, 1 minor) in examples/quickstart/tutorial.md"; notice.data != want {
		t.Errorf("notice = %q, want %q", notice.data, want)
	}
}

// Whatever the gap says, each annotation stays one line, keeps its text,
// and cannot start a command of its own.
func TestGitHubHostileText(t *testing.T) {
	cases := append([]string{
		"line one\n::add-mask::secret\n::error::injected",
		"title, with: both\r\nand CRLF",
		"100% of %0A and %25",
		"::stop-commands::token",
	}, hostile...)
	for i, h := range cases {
		t.Run(fmt.Sprintf("%02d", i), func(t *testing.T) {
			r := hostileReport(h)
			r.SourcePath = "docs/a, b: c.md"
			lines := strings.Split(strings.TrimSuffix(string(RenderGitHub(r)), "\n"), "\n")
			if len(lines) != 2 {
				t.Fatalf("%d lines, want the annotation and the notice:\n%s", len(lines), strings.Join(lines, "\n"))
			}
			c, ok := parseWorkflowCommand(lines[0])
			if !ok || c.name != "error" {
				t.Fatalf("line %q is not the gap's ::error", lines[0])
			}
			flat := strings.Join(strings.Fields(mdtext.StripControl(h)), " ")
			if c.props["title"] != "SMILE: "+flat || c.props["file"] != "docs/a, b: c.md" || c.props["line"] != "3" {
				t.Errorf("properties = %q", c.props)
			}
			if problem := strings.TrimSpace(mdtext.StripControl(h)); !strings.Contains(c.data, problem) {
				t.Errorf("message %q lacks the problem %q", c.data, problem)
			}
			if strings.ContainsAny(lines[0], "\r\n") {
				t.Errorf("annotation spans lines: %q", lines[0])
			}
		})
	}
}

func TestGitHubNoGaps(t *testing.T) {
	r := BuildReport(&status.Run{Status: status.Status{Phase: status.PhaseCompleted, Iteration: 1}}, ReportInput{TutorialPath: "t.md", Now: t0})
	if got, want := string(RenderGitHub(r)), "::notice::SMILE completed after 1 iteration: 0 gaps (0 critical, 0 major, 0 minor) in t.md\n"; got != want {
		t.Errorf("output = %q, want %q", got, want)
	}
}
