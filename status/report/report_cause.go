package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/report/mdtext"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status"
)

// Report details that say why a gap happened and what the Student left out:
// a title from the tutorial's front matter, the blocks it skipped, how the
// Mentor's workarounds ended, and the level CI formats give each cause.

// frontMatterTitle is the title: of a YAML (---) or TOML (+++) front matter
// block at the very top of the tutorial, or "".
func frontMatterTitle(content string) string {
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	if len(lines) < 2 {
		return ""
	}
	fence := strings.TrimSpace(lines[0])
	if fence != "---" && fence != "+++" {
		return ""
	}
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		if t == fence || (fence == "---" && t == "...") {
			return ""
		}
		key, value, ok := strings.Cut(t, ":")
		if fence == "+++" {
			key, value, ok = strings.Cut(t, "=")
		}
		if ok && strings.TrimSpace(key) == "title" {
			v := strings.TrimSpace(value)
			if u, err := strconv.Unquote(v); err == nil {
				return u
			}
			return strings.Trim(v, `'"`)
		}
	}
	return ""
}

// skippedOf is what the Student skipped in its latest attempt that said.
func skippedOf(st *status.Status) []status.SkippedBlock {
	for i := len(st.History) - 1; i >= 0; i-- {
		if s := st.History[i].StudentOutput.Skipped; len(s) > 0 {
			return append([]status.SkippedBlock{}, s...)
		}
	}
	return []status.SkippedBlock{}
}

// annotateWorkarounds tells, on each gap, how the Mentor's last workaround
// for its line ended when it did not succeed: failed or stopped at its time
// limit. The audit has the command; the gap gets the sentence.
func annotateWorkarounds(gaps []status.Gap, audit status.Audit) {
	for i := range gaps {
		g := &gaps[i]
		var last *status.AuditCommand
		for j := range audit.Commands {
			c := &audit.Commands[j]
			if c.Workaround && c.Line == g.Location.LineNumber && c.Line > 0 {
				last = c
			}
		}
		if last == nil || (last.ExitCode == 0 && !last.TimedOut) {
			continue
		}
		what := fmt.Sprintf("The Mentor's workaround (`%s`, iteration %d)", suggest.FirstCommandLine(last.Command), last.Iteration)
		if last.TimedOut {
			g.WorkaroundResult = fmt.Sprintf("%s did not finish within its time limit and was stopped after %s.", what,
				humanDuration(time.Duration(last.DurationMs)*time.Millisecond))
			continue
		}
		g.WorkaroundResult = fmt.Sprintf("%s failed with exit code %d", what, last.ExitCode)
		if l := lastLine(last.Output, 120); strings.TrimSpace(l) != "" {
			g.WorkaroundResult += ": " + l
		}
		g.WorkaroundResult += "."
	}
}

// causeText says what, beyond its own line, a gap points at: the other lines
// with the same problem and the skipped block that likely caused it.
func causeText(g status.Gap) (lines, cause string) {
	if len(g.Lines) > 0 {
		s := make([]string, len(g.Lines))
		for i, l := range g.Lines {
			s[i] = strconv.Itoa(l)
		}
		lines = strings.Join(s, ", ")
	}
	if g.CauseLine > 0 {
		cause = fmt.Sprintf("the block at line %d", g.CauseLine)
		if q := strings.TrimSpace(g.CauseQuote); q != "" {
			cause += fmt.Sprintf(" (%s)", q)
		}
	}
	return lines, cause
}

// environmentNote is what a report says of a gap the container caused.
const environmentNote = "the container lacked this, not the tutorial: change the run's settings (see the fix), not the page"

// gapLevel is a gap's level in the CI formats: what the container lacked is
// a note, never an error; otherwise critical and major gaps are errors and
// minor ones warnings.
func gapLevel(g status.Gap) string {
	if g.Category == status.CategoryEnvironment {
		return "note"
	}
	return sarifLevel(g.Severity)
}

// gapCauseSentences is the cause of a gap as plain sentences, for the
// formats that carry one message per gap (SARIF, GitHub, JUnit).
func gapCauseSentences(g status.Gap) string {
	var b strings.Builder
	if g.Category == status.CategoryEnvironment {
		b.WriteString("\nEnvironment: " + environmentNote + ".")
	}
	lines, cause := causeText(g)
	if lines != "" {
		fmt.Fprintf(&b, "\nAlso at lines %s.", lines)
	}
	if cause != "" {
		fmt.Fprintf(&b, "\nLikely cause: %s.", mdtext.StripControl(cause))
	}
	if g.Tolerant {
		b.WriteString("\nThe tutorial shows this output as an example.")
	}
	if g.WorkaroundResult != "" {
		b.WriteString("\n" + mdtext.StripControl(g.WorkaroundResult))
	}
	return b.String()
}
