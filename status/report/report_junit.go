package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/report/mdtext"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status"
)

// JUnit XML as Ant, Maven Surefire, Jenkins and GitLab read it: one
// <testsuite> for the tutorial, one <testcase> per step. The element order
// (properties, test cases, system-out, system-err) and the required
// attributes are those of the strictest published schema (the Ant schema);
// file and line on a test case are the extension GitLab, Jenkins' xunit
// schema and most report viewers read.
type junitSuite struct {
	XMLName   xml.Name `xml:"testsuite"`
	Name      string   `xml:"name,attr"`
	Tests     int      `xml:"tests,attr"`
	Failures  int      `xml:"failures,attr"`
	Errors    int      `xml:"errors,attr"`
	Skipped   int      `xml:"skipped,attr"`
	Time      string   `xml:"time,attr"`
	Timestamp string   `xml:"timestamp,attr"`
	Hostname  string   `xml:"hostname,attr"`
	// Package and ID are the Ant schema's attributes of a suite inside
	// <testsuites> (ID counts from 0); a lone suite has neither.
	Package    string          `xml:"package,attr,omitempty"`
	ID         *int            `xml:"id,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  junitOutput     `xml:"system-out"`
	SystemErr  junitOutput     `xml:"system-err"`
}

type junitOutput struct {
	Text string `xml:",cdata"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      string        `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	Skipped   *junitSkipped `xml:"skipped"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	// A CDATA section keeps the body's line breaks readable in the file.
	Body string `xml:",cdata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// junitStep is one step of the tutorial with what happened at it.
type junitStep struct {
	line       int
	text       string
	durationMs int64
	gaps       []status.Gap
	// ran: the last iteration ran a command or wrote a file at its line. A
	// Student that goes on past a failure runs steps after the line it
	// stopped at: those passed, they are not "not reached".
	ran bool
}

// RenderJUnit renders the report as JUnit XML: a test case per tutorial
// step, failed where the step has a gap (its problem, fix, file and line in
// the failure), skipped after the step the Student stopped at.
func RenderJUnit(r *Report) ([]byte, error) {
	return encodeJUnit(junitSuiteOf(r))
}

// junitSuiteOf is a report's test suite.
func junitSuiteOf(r *Report) junitSuite {
	r = redactReport(r)
	file := sourcePath(r)
	class := xmlText(file)
	if class == "" {
		class = xmlText(r.TutorialName)
	}
	suite := junitSuite{
		Name:      xmlText(r.TutorialName),
		Time:      strconv.FormatInt(r.Summary.DurationSeconds, 10),
		Timestamp: r.GeneratedAt.UTC().Format("2006-01-02T15:04:05"),
		Hostname:  "localhost",
		Properties: []junitProperty{
			{"tutorial", xmlText(file)},
			{"status", xmlText(r.Summary.Status)},
			{"iterations", strconv.Itoa(r.Summary.Iterations)},
			{"run", xmlText(r.RunName)},
			{"coverage", r.Coverage.Cell()},
		},
		SystemOut: junitOutput{xmlText(summaryLine(r))},
	}
	if suite.Name == "" {
		suite.Name = "tutorial"
	}
	erred := false
	for _, st := range junitSteps(r) {
		c := junitCase{Classname: class, Time: seconds(st.durationMs), File: xmlText(file)}
		if st.line > 0 {
			c.Name = xmlText(fmt.Sprintf("line %d: %s", st.line, textutil.Shorten(st.text, 100)))
			c.Line = strconv.Itoa(st.line)
		} else {
			c.Name = xmlText(textutil.Shorten(st.text, 100))
		}
		switch {
		case len(st.gaps) > 0 && onlyEnvironment(st.gaps):
			// The container, not the tutorial, failed here: the step is
			// untested, as in SARIF's note level.
			c.Skipped = &junitSkipped{Message: xmlText(textutil.Shorten("environment: "+sarifMessage(st.gaps[0]), 300))}
			suite.Skipped++
		case len(st.gaps) > 0:
			c.Failure = junitFailure(r, file, st)
			suite.Failures++
		case r.StopLine > 0 && st.line > r.StopLine && !st.ran:
			c.Skipped = &junitSkipped{Message: xmlText(fmt.Sprintf("not reached: the Student stopped at line %d (%s)", r.StopLine, r.Summary.Status))}
			suite.Skipped++
		case r.StopLine > 0 && st.line == r.StopLine:
			c.Error = runError(r, file, st.line)
			suite.Errors++
			erred = true
		}
		suite.Cases = append(suite.Cases, c)
	}
	// A run that ended in an error or a timeout fails the suite even when no
	// step carries it.
	if !erred && (r.Summary.Status == ReportError || r.Summary.Status == ReportTimeout) {
		suite.Cases = append(suite.Cases, junitCase{
			Name: xmlText("run: " + r.Summary.Status), Classname: class, Time: "0", File: xmlText(file),
			Error: runError(r, file, 0),
		})
		suite.Errors++
	}
	if r.Summary.Status == ReportInconclusive {
		// Neither a pass nor a failure: the run as a skipped case that says so.
		suite.Cases = append(suite.Cases, junitCase{
			Name: xmlText("run: " + r.Summary.Status), Classname: class, Time: "0", File: xmlText(file),
			Skipped: &junitSkipped{Message: xmlText(textutil.Shorten(inconclusiveNote+" "+r.Summary.Message, 300))},
		})
		suite.Skipped++
	}
	suite.Tests = len(suite.Cases)
	return suite
}

// encodeJUnit writes a JUnit document: a <testsuite> or a <testsuites>.
func encodeJUnit(doc any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(&buf)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode JUnit: %w", err)
	}
	buf.WriteString("\n")
	return buf.Bytes(), nil
}

// junitSteps are the tutorial's steps with their gaps: the steps given,
// else those the Student's last iteration ran (commands and files), plus
// every gap's line; then the gaps without a line, one case each.
func junitSteps(r *Report) []junitStep {
	byLine := map[int]*junitStep{}
	var order []*junitStep
	step := func(line int, text string) *junitStep {
		if s, ok := byLine[line]; ok {
			if s.text == "" {
				s.text = text
			}
			return s
		}
		s := &junitStep{line: line, text: text}
		byLine[line] = s
		order = append(order, s)
		return s
	}

	last := 0
	for _, c := range r.AuditTrail.Commands {
		if c.Role == status.RoleStudent && !c.Workaround {
			last = max(last, c.Iteration)
		}
	}
	for _, f := range r.AuditTrail.Files {
		last = max(last, f.Iteration)
	}
	if len(r.Steps) > 0 {
		for _, s := range r.Steps {
			if s.Line > 0 {
				step(s.Line, stepText(s.Kind, s.Text))
			}
		}
	} else {
		for _, f := range r.AuditTrail.Files {
			if f.Iteration == last && f.Line > 0 {
				step(f.Line, "write "+f.Path)
			}
		}
		for _, c := range r.AuditTrail.Commands {
			if c.Iteration == last && c.Role == status.RoleStudent && !c.Workaround && c.Line > 0 {
				step(c.Line, suggest.FirstCommandLine(c.Command))
			}
		}
	}
	lastIteration(r, byLine, last)

	var lineless []junitStep
	for _, g := range r.Gaps {
		if g.Location.LineNumber <= 0 {
			lineless = append(lineless, junitStep{text: fmt.Sprintf("gap %d: %s", g.ID, g.Title), gaps: []status.Gap{g}})
			continue
		}
		s := step(g.Location.LineNumber, "")
		// A gap's quote is the line as the tutorial has it: the best name.
		if q := suggest.FirstCommandLine(g.Location.Quote); q != "" && len(s.gaps) == 0 {
			s.text = q
		}
		s.gaps = append(s.gaps, g)
	}
	slices.SortStableFunc(order, func(a, b *junitStep) int { return a.line - b.line })
	out := make([]junitStep, 0, len(order)+len(lineless))
	for _, s := range order {
		if s.text == "" {
			s.text = "step"
		}
		out = append(out, *s)
	}
	return append(out, lineless...)
}

func stepText(kind, text string) string {
	text = suggest.FirstCommandLine(text)
	switch kind {
	case StepFile:
		return "write " + text
	case StepOutput:
		return "output " + text
	}
	return text
}

// junitFailure carries a step's gaps, the most severe first: its problem in
// the message (with file and line, as test reports show them), and every
// gap's problem, fix and suggested change in the body.
func junitFailure(r *Report, file string, st junitStep) *junitProblem {
	gaps := slices.Clone(st.gaps)
	slices.SortStableFunc(gaps, func(a, b status.Gap) int { return b.Severity.Rank() - a.Severity.Rank() })
	where := fmt.Sprintf("%s:%d", file, st.line)
	if file == "" {
		where = fmt.Sprintf("line %d", st.line)
	}
	if st.line <= 0 {
		where = file
	}
	first := gaps[0]
	msg := strings.TrimSpace(first.Problem)
	if msg == "" {
		msg = first.Title
	}
	var body strings.Builder
	for i, g := range gaps {
		if i > 0 {
			body.WriteString("\n")
		}
		fmt.Fprintf(&body, "%s: %s (%s, %s)\n", where, g.Title, g.Severity, g.Category)
		if q := strings.TrimSpace(g.Location.Quote); q != "" {
			fmt.Fprintf(&body, "Quote: %s\n", q)
		}
		fmt.Fprintf(&body, "Problem: %s\n", orNone(strings.TrimSpace(g.Problem), "not recorded"))
		if c := strings.TrimSpace(gapCauseSentences(g)); c != "" {
			body.WriteString(c + "\n")
		}
		fmt.Fprintf(&body, "Suggested fix: %s\n", orNone(strings.TrimSpace(g.SuggestedFix), "none suggested"))
		if s, ok := suggestionFor(r, g); ok {
			fmt.Fprintf(&body, "Suggested change: %s\n%s\n", s.Description, s.Text())
		}
	}
	return &junitProblem{
		Message: xmlText(textutil.Shorten(where+": "+msg, 300)),
		Type:    xmlText(ruleID(first.Category)),
		Body:    xmlText(body.String()),
	}
}

// runError is why a run that did not complete ended, as a test error.
func runError(r *Report, file string, line int) *junitProblem {
	msg := "the run ended: " + r.Summary.Status
	if m := strings.TrimSpace(r.Summary.Message); m != "" {
		msg += ": " + m
	}
	where := file
	if line > 0 {
		where = fmt.Sprintf("%s:%d", file, line)
	}
	if where != "" {
		msg = where + ": " + msg
	}
	typ := r.Summary.Reason
	if typ == "" {
		typ = r.Summary.Status
	}
	return &junitProblem{Message: xmlText(textutil.Shorten(msg, 300)), Type: xmlText(typ), Body: xmlText(msg)}
}

// seconds is a duration in milliseconds as JUnit's time: seconds, three
// decimals.
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}

// xmlText is s without what XML 1.0 cannot hold (control characters, bad
// UTF-8) or that reads as noise (terminal colours).
func xmlText(s string) string {
	s = strings.ToValidUTF8(mdtext.StripControl(s), "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r == 0xFFFE || r == 0xFFFF || (r >= 0xD800 && r <= 0xDFFF) {
			return '\uFFFD'
		}
		return r
	}, s)
}

func onlyEnvironment(gaps []status.Gap) bool {
	for _, g := range gaps {
		if g.Category != status.CategoryEnvironment {
			return false
		}
	}
	return true
}

// lastIteration gives each step what the last iteration did at its line:
// the time the tutorial's own commands took, and whether it ran at all.
func lastIteration(r *Report, byLine map[int]*junitStep, last int) {
	for _, c := range r.AuditTrail.Commands {
		if c.Iteration == last && c.Role == status.RoleStudent && !c.Workaround && c.Line > 0 {
			if s, ok := byLine[c.Line]; ok {
				s.durationMs += c.DurationMs
				s.ran = true
			}
		}
	}
	for _, f := range r.AuditTrail.Files {
		if s, ok := byLine[f.Line]; ok && f.Iteration == last {
			s.ran = true
		}
	}
}
