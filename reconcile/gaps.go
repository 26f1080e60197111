package reconcile

import (
	"fmt"
	"sort"
	"strings"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// mergeFindings turns the Student's findings into gaps: one gap per tutorial
// line and category, first seen in the earliest iteration, ordered by line.
func mergeFindings(st *status.Status, t *spec.Tutorial, findings []status.Finding, iteration int) {
	for _, f := range findings {
		quote := strings.TrimSpace(f.Quote)
		if quote == "" && t != nil {
			quote = strings.TrimSpace(t.LineText(f.Line))
		}
		if g := findGap(st.Gaps, f.Line, f.Category); g != nil {
			if g.SuggestedFix == "" {
				g.SuggestedFix = f.SuggestedFix
			}
			continue
		}
		st.Gaps = append(st.Gaps, status.Gap{
			Title:        gapTitle(f),
			Category:     f.Category,
			Severity:     defaultSeverity(f.Category),
			Location:     status.GapLocation{LineNumber: f.Line, Quote: quote},
			Problem:      f.Problem,
			SuggestedFix: f.SuggestedFix,
			Iteration:    iteration,
			Command:      f.Command,
		})
	}
	sort.SliceStable(st.Gaps, func(i, j int) bool {
		a, b := st.Gaps[i], st.Gaps[j]
		if a.Location.LineNumber != b.Location.LineNumber {
			return a.Location.LineNumber < b.Location.LineNumber
		}
		return a.Category < b.Category
	})
	for i := range st.Gaps {
		st.Gaps[i].ID = i + 1
	}
}

// applyAdvice puts the Mentor's fix on the gap it answered.
func applyAdvice(st *status.Status, note status.MentorNote) {
	if note.SuggestedFix == "" || note.Line == 0 {
		return
	}
	for i := range st.Gaps {
		g := &st.Gaps[i]
		if g.Location.LineNumber == note.Line && (note.Category == "" || string(g.Category) == note.Category) {
			g.SuggestedFix = note.SuggestedFix
		}
	}
}

// markBlocking raises to critical the gap a loop that did not complete ended
// on: the one the Student last asked about.
func markBlocking(st *status.Status) {
	if st.Phase == status.PhaseCompleted || len(st.History) == 0 {
		return
	}
	last := st.History[len(st.History)-1].StudentOutput
	for _, f := range last.Findings {
		if !f.Asked {
			continue
		}
		if g := findGap(st.Gaps, f.Line, f.Category); g != nil {
			g.Severity = status.SeverityCritical
		}
	}
}

func findGap(gaps []status.Gap, line int, c status.Category) *status.Gap {
	for i := range gaps {
		if gaps[i].Location.LineNumber == line && gaps[i].Category == c {
			return &gaps[i]
		}
	}
	return nil
}

// defaultSeverity: what a reader cannot get past is major; what only
// confuses is minor. The gap a run ends on becomes critical (markBlocking).
func defaultSeverity(c status.Category) status.Severity {
	switch c {
	case status.CategoryOutputMismatch, status.CategoryMissingImage:
		return status.SeverityMinor
	}
	return status.SeverityMajor
}

var categoryTitles = map[status.Category]string{
	status.CategoryMissingDependency:    "Missing dependency",
	status.CategoryPermissionDenied:     "Permission denied",
	status.CategoryMissingFile:          "Missing file",
	status.CategoryUndefinedVariable:    "Undefined variable",
	status.CategoryTimeout:              "Step timed out",
	status.CategoryOutputMismatch:       "Output differs from the tutorial",
	status.CategoryAmbiguousInstruction: "Ambiguous instruction",
	status.CategoryMissingImage:         "Missing image",
	status.CategoryCommandFailure:       "Command failed",
}

func gapTitle(f status.Finding) string {
	title, ok := categoryTitles[f.Category]
	if !ok {
		title = strings.ReplaceAll(string(f.Category), "_", " ")
	}
	subject := strings.TrimSpace(f.Command)
	if i := strings.IndexByte(subject, '\n'); i >= 0 {
		subject = subject[:i] + " ..."
	}
	if len(subject) > 60 {
		subject = subject[:57] + "..."
	}
	if subject == "" {
		return fmt.Sprintf("%s at line %d", title, f.Line)
	}
	return fmt.Sprintf("%s: %s", title, subject)
}
