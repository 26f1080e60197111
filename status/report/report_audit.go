package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/status"
)

// RenderAuditLog renders the raw execution log (smile-audit.log): a header,
// then one record per timeline event, command, file write and model call in
// time order, each starting with its timestamp on a line of its own. Command
// output follows its command, indented by four spaces.
func RenderAuditLog(r *Report) []byte {
	r = redactReport(r)
	var b strings.Builder
	b.WriteString("SMILE audit log\n")
	fmt.Fprintf(&b, "run: %s\n", logValue(r.RunName))
	fmt.Fprintf(&b, "tutorial: %s (%s)\n", logValue(r.Summary.TutorialPath), logValue(r.TutorialName))
	st := r.Summary.Status
	switch {
	case r.Summary.Reason == ReasonNotFinished:
		st = "running (" + r.Summary.Message + ")"
	case r.Summary.Reason != "" || r.Summary.Message != "":
		st += " (" + strings.TrimPrefix(r.Summary.Reason+": "+r.Summary.Message, ": ") + ")"
	}
	fmt.Fprintf(&b, "status: %s\n", oneLine(st))
	fmt.Fprintf(&b, "iterations: %d\n", r.Summary.Iterations)
	fmt.Fprintf(&b, "generatedAt: %s\n", logTime(r.GeneratedAt))
	if r.Summary.Cost != nil {
		fmt.Fprintf(&b, "cost: %s\n", oneLine(r.Summary.Cost.String()))
	}
	b.WriteString("\n")

	var records []logRecord
	for _, e := range r.Timeline {
		records = append(records, logRecord{e.Timestamp, func(b *strings.Builder) { logEvent(b, e) }})
	}
	for _, c := range r.AuditTrail.Commands {
		records = append(records, logRecord{c.StartedAt, func(b *strings.Builder) { logCommand(b, c) }})
	}
	for _, f := range r.AuditTrail.Files {
		records = append(records, logRecord{f.WrittenAt, func(b *strings.Builder) { logFile(b, f) }})
	}
	for _, c := range r.AuditTrail.LLMCalls {
		records = append(records, logRecord{c.StartedAt, func(b *strings.Builder) { logLLMCall(b, c) }})
	}
	// Stable: records of the same instant keep their order (an event before
	// the commands it started).
	slices.SortStableFunc(records, func(a, b logRecord) int { return a.at.Compare(b.at) })
	for _, rec := range records {
		rec.write(&b)
	}

	failed := 0
	for _, c := range r.AuditTrail.Commands {
		if c.ExitCode != 0 || c.TimedOut {
			failed++
		}
	}
	var tokens int64
	var cost float64
	for _, c := range r.AuditTrail.LLMCalls {
		tokens += c.InputTokens + c.OutputTokens
		cost += c.CostUSD
	}
	fmt.Fprintf(&b, "\nend: %s (%d failed), %s, %s (%d tokens, $%s)\n",
		status.Plural(len(r.AuditTrail.Commands), "command"), failed, status.Plural(len(r.AuditTrail.Files), "file"),
		status.Plural(len(r.AuditTrail.LLMCalls), "LLM call"), tokens, strconv.FormatFloat(cost, 'f', 4, 64))
	return []byte(b.String())
}

type logRecord struct {
	at    time.Time
	write func(*strings.Builder)
}

func logEvent(b *strings.Builder, e status.TimelineEntry) {
	fmt.Fprintf(b, "%s iter=%d event %s", logTime(e.Timestamp), e.Iteration, oneLine(e.Event))
	first, rest, _ := strings.Cut(strings.TrimRight(e.Details, "\n"), "\n")
	if first != "" {
		b.WriteString(": " + oneLine(first))
	}
	b.WriteString("\n")
	writeIndented(b, rest)
}

func logCommand(b *strings.Builder, c status.AuditCommand) {
	fmt.Fprintf(b, "%s iter=%d", logTime(c.StartedAt), c.Iteration)
	if c.Role != "" {
		fmt.Fprintf(b, " role=%s", logValue(string(c.Role)))
	}
	if c.Line > 0 {
		fmt.Fprintf(b, " line=%d", c.Line)
	}
	fmt.Fprintf(b, " exit=%d duration=%s", c.ExitCode, humanDuration(time.Duration(c.DurationMs)*time.Millisecond))
	if c.Attempt > 1 {
		fmt.Fprintf(b, " attempt=%d", c.Attempt)
	}
	if c.TimedOut {
		b.WriteString(" timed-out")
	}
	if c.Workaround {
		b.WriteString(" workaround")
	}
	lines := strings.Split(strings.TrimRight(strings.ReplaceAll(c.Command, "\r\n", "\n"), "\n"), "\n")
	fmt.Fprintf(b, " $ %s\n", oneLine(lines[0]))
	// The rest of a multi-line command (a heredoc, a continued line), as a
	// shell shows it.
	for _, l := range lines[1:] {
		fmt.Fprintf(b, "  > %s\n", oneLine(l))
	}
	writeIndented(b, c.Output)
}

func logFile(b *strings.Builder, f status.AuditFile) {
	fmt.Fprintf(b, "%s iter=%d file %s %s (%d bytes)", logTime(f.WrittenAt), f.Iteration, logValue(f.Action), logValue(f.Path), f.Bytes)
	if f.Line > 0 {
		fmt.Fprintf(b, " line=%d", f.Line)
	}
	b.WriteString("\n")
}

func logLLMCall(b *strings.Builder, c status.LLMCall) {
	fmt.Fprintf(b, "%s iter=%d", logTime(c.StartedAt), c.Iteration)
	if c.Role != "" {
		fmt.Fprintf(b, " role=%s", logValue(string(c.Role)))
	}
	fmt.Fprintf(b, " llm provider=%s", logValue(c.Provider))
	if c.Model != "" {
		fmt.Fprintf(b, " model=%s", logValue(c.Model))
	}
	fmt.Fprintf(b, " inputTokens=%d outputTokens=%d cost=$%s", c.InputTokens, c.OutputTokens, strconv.FormatFloat(c.CostUSD, 'f', 4, 64))
	if c.Estimated {
		b.WriteString(" estimated")
	}
	fmt.Fprintf(b, " duration=%s", humanDuration(time.Duration(c.DurationMs)*time.Millisecond))
	if c.NoPrice {
		b.WriteString(" no-price")
	}
	if c.Error != "" {
		fmt.Fprintf(b, " error=%s", strconv.Quote(c.Error))
	}
	b.WriteString("\n")
	// What the model answered when it could not be read (E12, E20).
	writeIndented(b, c.RawOutput)
}

// writeIndented writes text under its record, four spaces in, so no line of
// it can pass for a record.
func writeIndented(b *strings.Builder, text string) {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	for _, l := range strings.Split(text, "\n") {
		b.WriteString("    " + oneLine(l) + "\n")
	}
}

func logTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// logValue is a key=value value: quoted when it has spaces or quotes.
func logValue(s string) string {
	if s == "" {
		return `""`
	}
	if strings.ContainsAny(s, " \t\"=") || oneLine(s) != s {
		return strconv.Quote(s)
	}
	return s
}

// oneLine shows control characters (a newline, a terminal escape) as \xNN so
// a log line stays one line and cannot drive the terminal that prints it.
func oneLine(s string) string {
	var b strings.Builder
	for _, r := range s {
		if (r < 0x20 && r != '\t') || r == 0x7f {
			fmt.Fprintf(&b, `\x%02x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
