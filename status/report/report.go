package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/baseline"
	"github.com/smile-loop/smile/status/report/mdtext"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// The report files written into a run's outputDir on every loop exit.
const (
	ReportMarkdownFile = "smile-report.md"
	ReportJSONFile     = "smile-report.json"
	AuditLogFile       = "smile-audit.log"
)

// ReportInput is what a report is built from besides the run itself.
type ReportInput struct {
	// TutorialPath is the tutorial as the user named it (relative to the
	// manifest's folder).
	TutorialPath string
	// TutorialFile is the tutorial's absolute path: the Markdown report
	// links its lines relative to the folder it is written in (a run's
	// .smile/runs/NAME/ is not the tutorial's folder). Empty: the links
	// use TutorialPath.
	TutorialFile string
	// TutorialTitle is the tutorial's first "# " heading, if any; it names
	// the report unless the front matter of TutorialContent has a title:.
	// Without either the file's base name does.
	TutorialTitle string
	// Audits are every attempt's audit, oldest first (Student and Mentor).
	Audits []status.Audit
	// Now is when the report is built; it ends the duration of a run that
	// has no finishedAt.
	Now time.Time

	// The fields below feed the CI formats (sarif, github, junit, summary)
	// and the suggested changes; each may be left empty.

	// SourcePath is the tutorial's path from the repository root, with
	// forward slashes (examples/quickstart/tutorial.md): where SARIF results
	// and GitHub annotations point. RepoRelativePath finds it. Empty:
	// TutorialPath.
	SourcePath string
	// TutorialContent is the tutorial's text. Suggested changes quote the
	// gap's line from it (indentation included), and only a line inside a
	// fenced code block gets a line inserted above it. Empty: suggestions are
	// built from the gaps' quotes.
	TutorialContent string
	// Steps are every step of the tutorial in order (JUnit has one test case
	// per step, and marks the steps after the one the Student stopped at as
	// skipped). Empty: the steps the Student's last iteration ran.
	Steps []ReportStep
	// BlobURL is the URL the job summary links tutorial lines under
	// (https://github.com/OWNER/REPO/blob/SHA/); GitHubBlobURL builds it in
	// GitHub Actions. Empty: links are relative to the repository root.
	BlobURL string
	// ToolVersion is SMILE's version, for SARIF's tool.driver.version.
	// Empty: the module version the binary was built with, or "dev".
	ToolVersion string
	// Baseline is the workspace's accepted gaps and Tutorial the tutorial's
	// key in it (its path from the workspace's root): SARIF marks each
	// result new or unchanged, and lists accepted gaps that are gone as
	// absent. nil: no baseline.
	Baseline         *baseline.Baseline
	BaselineTutorial string
}

// ReportStep is one thing the tutorial asks the learner to do, at its line.
type ReportStep struct {
	Line int `json:"line"`
	// Kind is command, file or output.
	Kind string `json:"kind"`
	// Text is the command, the file's path or the expected output's first
	// line.
	Text string `json:"text"`
}

// Report step kinds.
const (
	StepCommand = "command"
	StepFile    = "file"
	StepOutput  = "output"
)

// Report is the seed's Report: what a run found and did, for authors
// (Markdown), tools (JSON) and auditors (the log). Other tools read the JSON:
// its field names are a contract.
type Report struct {
	TutorialName    string                 `json:"tutorialName"`
	Summary         ReportSummary          `json:"summary"`
	Gaps            []status.Gap           `json:"gaps"`
	Timeline        []status.TimelineEntry `json:"timeline"`
	MentorNotes     []status.MentorNote    `json:"mentorNotes"`
	AuditTrail      status.Audit           `json:"auditTrail"`
	Recommendations []Recommendation       `json:"recommendations"`
	GeneratedAt     time.Time              `json:"generatedAt"`
	// Skipped are the blocks the Student did not follow, with why.
	Skipped []status.SkippedBlock `json:"skipped"`
	// Coverage is how much of the page's code the run exercised (its best
	// Student attempt's); absent when the learner cannot say (unknown).
	Coverage *status.Coverage `json:"coverage,omitempty"`

	// BaselineStates are the gaps' states against the workspace's baseline
	// (by index: new, unchanged) and BaselineAbsent the accepted gaps that
	// are gone; both empty without a baseline.
	BaselineStates []string         `json:"-"`
	BaselineAbsent []baseline.Entry `json:"-"`

	// TutorialFile is the tutorial's absolute path and LinkDir the folder
	// the Markdown is written in: its links to the tutorial's lines are
	// relative to LinkDir (WriteReports and WriteFormats set it).
	TutorialFile string `json:"-"`
	LinkDir      string `json:"-"`

	// RunName names the run in the Markdown summary and the audit log's
	// header; the JSON contract has no field for it.
	RunName string `json:"-"`

	// What the CI formats need beyond the JSON contract (see ReportInput).
	SourcePath  string       `json:"-"`
	BlobURL     string       `json:"-"`
	ToolVersion string       `json:"-"`
	Steps       []ReportStep `json:"-"`
	// SourceLines are the tutorial's lines at the gaps, by line number.
	SourceLines map[int]string `json:"-"`
	// InCode says which of those lines are inside a fenced code block; nil
	// when the tutorial's text was not given.
	InCode map[int]bool `json:"-"`
	// StopLine is the line the Student stopped at when the run did not
	// complete; 0 if it completed or the line is unknown.
	StopLine int `json:"-"`
}

// ReportSummary is how the run ended.
type ReportSummary struct {
	// Status is completed, inconclusive, max_iterations, blocker, timeout or
	// error.
	Status          string    `json:"status"`
	Iterations      int       `json:"iterations"`
	DurationSeconds int64     `json:"durationSeconds"`
	TutorialPath    string    `json:"tutorialPath"`
	GapCounts       GapCounts `json:"gapCounts"`
	// Reason and Message say why the run ended (the status's own).
	Reason  string `json:"reason"`
	Message string `json:"message"`
	// Cost totals the run's LLM calls (absent when there were none).
	Cost *status.Cost `json:"cost,omitempty"`
	// Verified is the verdict of the clean replay with every fix that
	// follows a completion from a checkpoint (absent when none was needed:
	// the last iteration already ran from the top); Verification says it.
	Verified     *bool  `json:"verified,omitempty"`
	Verification string `json:"verification,omitempty"`
}

// GapCounts counts the tutorial's gaps by severity, and apart from them
// the environment findings: what the container lacked, not what the page
// gets wrong, notes that fail no check unless --fail-on names them.
type GapCounts struct {
	Critical    int `json:"critical"`
	Major       int `json:"major"`
	Minor       int `json:"minor"`
	Environment int `json:"environment"`
}

// Tutorial is the number of gaps of the tutorial: all but the environment
// notes.
func (c GapCounts) Tutorial() int { return c.Critical + c.Major + c.Minor }

// Recommendation is one improvement to make to the tutorial; priority 1 is
// the most important.
type Recommendation struct {
	Priority    int    `json:"priority"`
	Category    string `json:"category"`
	Description string `json:"description"`
}

// Report statuses (the seed's terminal LoopStatus values).
const (
	ReportCompleted     = "completed"
	ReportMaxIterations = "max_iterations"
	ReportBlocker       = "blocker"
	ReportTimeout       = "timeout"
	ReportError         = "error"
)

// BuildReport gathers a run and its audits into a report. Every string in it
// is redacted (API keys, the run's callback token).
func BuildReport(run *status.Run, in ReportInput) *Report {
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	now = now.UTC()
	st := &run.Status

	r := &Report{
		TutorialName: tutorialName(firstNonBlank(frontMatterTitle(in.TutorialContent), in.TutorialTitle), in.TutorialPath, run.Metadata.Name),
		RunName:      run.Metadata.Name,
		Summary:      summarize(st, in.TutorialPath, now),
		Gaps:         reportGaps(st.Gaps),
		Timeline:     append([]status.TimelineEntry{}, st.Timeline...),
		MentorNotes:  append([]status.MentorNote{}, st.MentorNotes...),
		AuditTrail:   mergeAudits(in.Audits),
		GeneratedAt:  now,
		Skipped:      skippedOf(st),
		Coverage:     st.RunCoverage(),
	}
	annotateWorkarounds(r.Gaps, r.AuditTrail)
	r.Summary.Cost = status.CostOf(r.AuditTrail.LLMCalls)
	for _, g := range r.Gaps {
		switch {
		case g.Category == status.CategoryEnvironment:
			r.Summary.GapCounts.Environment++
		case g.Severity == status.SeverityCritical:
			r.Summary.GapCounts.Critical++
		case g.Severity == status.SeverityMajor:
			r.Summary.GapCounts.Major++
		case g.Severity == status.SeverityMinor:
			r.Summary.GapCounts.Minor++
		}
	}
	stuck := stuckStepOf(st, r.Gaps)
	r.Recommendations = recommend(r.Summary, r.Gaps, stuck)
	if r.Summary.Status != ReportCompleted && r.Summary.Status != ReportInconclusive { // an inconclusive run went through the page
		r.StopLine = stuck.Line
	}
	if in.Baseline != nil && len(in.Baseline.Accepted) > 0 {
		r.BaselineStates, r.BaselineAbsent = in.Baseline.States(in.BaselineTutorial, r.Gaps)
	}
	r.SourcePath = slashPath(in.SourcePath)
	r.TutorialFile = in.TutorialFile
	r.BlobURL = in.BlobURL
	r.ToolVersion = in.ToolVersion
	r.Steps = append([]ReportStep{}, in.Steps...)
	if in.TutorialContent != "" {
		r.SourceLines, r.InCode = suggest.GapLines(in.TutorialContent, r.Gaps)
	}
	return redactReport(r, st.Token)
}

// reportStatus maps a phase to the report's status. A report is written on
// loop exit, so the phase is terminal; if it is not, the loop was cut short,
// which the report calls an error rather than inventing a sixth status.
func reportStatus(st *status.Status) (status, reason, message string) {
	if st.Phase.Terminal() {
		return st.Phase.LoopStatus(), string(st.Reason), st.Message
	}
	message = fmt.Sprintf("the loop has not ended: it is in phase %s", st.Phase)
	if st.Message != "" {
		message += ": " + st.Message
	}
	return ReportError, ReasonNotFinished, message
}

// ReasonNotFinished marks a report of a run whose loop has not ended (a
// provisional one, as `smile logs` renders during a run).
const ReasonNotFinished = "NotFinished"

func summarize(st *status.Status, tutorialPath string, now time.Time) ReportSummary {
	s := ReportSummary{Iterations: st.Iteration, TutorialPath: tutorialPath}
	s.Status, s.Reason, s.Message = reportStatus(st)
	end := now
	if st.FinishedAt != nil {
		end = *st.FinishedAt
	}
	if !st.StartedAt.IsZero() && end.After(st.StartedAt) {
		s.DurationSeconds = int64(end.Sub(st.StartedAt) / time.Second)
	}
	if v := st.Verification; v != nil && v.Done {
		ok := v.Verified
		s.Verified, s.Verification = &ok, v.Sentence()
	}
	return s
}

func tutorialName(title, path, runName string) string {
	if t := strings.Join(strings.Fields(mdtext.StripControl(title)), " "); t != "" {
		return t
	}
	if path != "" {
		base := filepath.Base(path)
		if name := strings.TrimSuffix(base, filepath.Ext(base)); name != "" {
			return name
		}
		return base
	}
	if runName != "" {
		return runName
	}
	return "tutorial"
}

// reportGaps copies the gaps, filling what a reader needs and an older
// status may lack: an ID and a title.
func reportGaps(gaps []status.Gap) []status.Gap {
	out := append([]status.Gap{}, gaps...)
	for i := range out {
		g := &out[i]
		if g.ID == 0 {
			g.ID = i + 1
		}
		if strings.TrimSpace(g.Title) == "" {
			g.Title = categoryLabel(g.Category)
			if g.Location.LineNumber > 0 {
				g.Title += fmt.Sprintf(" at line %d", g.Location.LineNumber)
			}
		}
	}
	return out
}

func categoryLabel(c status.Category) string {
	s := strings.ReplaceAll(string(c), "_", " ")
	if s == "" {
		return "Gap"
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// mergeAudits joins every attempt's audit, oldest attempt first, keeping
// only an excerpt of each command's output.
func mergeAudits(audits []status.Audit) status.Audit {
	out := status.Audit{Commands: []status.AuditCommand{}, Files: []status.AuditFile{}, LLMCalls: []status.LLMCall{}}
	for _, a := range audits {
		for _, c := range a.Commands {
			c.Output = status.Excerpt(c.Output)
			out.Commands = append(out.Commands, c)
		}
		out.Files = append(out.Files, a.Files...)
		out.LLMCalls = append(out.LLMCalls, a.LLMCalls...)
	}
	return out
}

// RenderJSON renders the report for tools: indented, arrays never null,
// secrets redacted.
func RenderJSON(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(redactReport(r)); err != nil {
		return nil, fmt.Errorf("encode report: %w", err)
	}
	return buf.Bytes(), nil
}

// Writer writes report files atomically and retries a failed write (E16).
// The zero Writer writes with store.WriteFileAtomic, 3 tries, 100 ms apart;
// tests set WriteFile to count or fail the tries.
type Writer struct {
	WriteFile func(path string, data []byte, perm os.FileMode) error
	Tries     int
	Delay     time.Duration
}

// WriteReports is Writer{}.WriteReports.
func WriteReports(dir string, r *Report, fallback io.Writer) (*status.ReportRef, error) {
	return Writer{}.WriteReports(dir, r, fallback)
}

// WriteReports writes smile-report.md, smile-report.json and smile-audit.log
// into dir (created if missing), each atomically. A failed write is retried;
// a file that still cannot be written goes to fallback instead (the caller
// passes stdout, E16) and the error says which. The returned ref names the
// files that were written.
func (w Writer) WriteReports(dir string, r *Report, fallback io.Writer) (*status.ReportRef, error) {
	r = r.writtenIn(dir)
	js, err := RenderJSON(r)
	if err != nil {
		return nil, err
	}
	ref := &status.ReportRef{WrittenAt: time.Now().UTC()}
	files := []struct {
		name string
		data []byte
		ref  *string
	}{
		{ReportMarkdownFile, RenderMarkdown(r), &ref.Markdown},
		{ReportJSONFile, js, &ref.JSON},
		{AuditLogFile, RenderAuditLog(r), &ref.AuditLog},
	}
	var errs []error
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := w.writeWithRetry(path, f.data); err != nil {
			errs = append(errs, err)
			if fallback != nil {
				_, _ = fallback.Write(f.data)
			}
			continue
		}
		*f.ref = path
	}
	if len(errs) > 0 {
		return ref, fmt.Errorf("write report to %s: %w", dir, writeErrors(errs))
	}
	return ref, nil
}

// writeErrors are the failed writes of one WriteReports, on one line (the
// message goes into a timeline event); errors.Is sees each.
type writeErrors []error

func (e writeErrors) Error() string {
	msgs := make([]string, len(e))
	for i, err := range e {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (e writeErrors) Unwrap() []error { return e }

func (w Writer) writeWithRetry(path string, data []byte) error {
	write, tries, delay := w.WriteFile, w.Tries, w.Delay
	if write == nil {
		write = store.WriteFileAtomic
	}
	if tries <= 0 {
		tries = 3
	}
	if delay <= 0 {
		delay = 100 * time.Millisecond
	}
	var err error
	for try := 1; try <= tries; try++ {
		if err = write(path, data, 0o644); err == nil {
			return nil
		}
		if try < tries {
			time.Sleep(time.Duration(try) * delay)
		}
	}
	return fmt.Errorf("%s (%d tries): %w", filepath.Base(path), tries, err)
}

func firstNonBlank(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// writtenIn is r as written into dir: a copy whose links to the tutorial
// start from dir.
func (r *Report) writtenIn(dir string) *Report {
	c := *r
	if abs, err := filepath.Abs(dir); err == nil {
		c.LinkDir = abs
	}
	return &c
}
