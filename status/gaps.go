package status

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/smile-loop/smile/spec"
)

// MergeFindings turns the Student's findings into gaps: one gap per tutorial
// line and category, first seen in the earliest iteration, ordered by line.
func (st *Status) MergeFindings(t *spec.Tutorial, findings []Finding, iteration int) {
	for _, f := range findings {
		quote := strings.TrimSpace(f.Quote)
		if quote == "" && t != nil {
			quote = strings.TrimSpace(t.LineText(f.Line))
		}
		g := findGap(st.Gaps, f.Line, f.Category)
		if g == nil {
			g = sameFailure(st.Gaps, f)
			if g != nil && g.Category != f.Category && g.Iteration < iteration {
				if _, ok := st.workedAroundBefore(*g, iteration); ok {
					// A workaround for an earlier line changed how this one
					// fails (django-admin missing, then refusing the
					// project's name): the first failure was that line's
					// consequence, the new one is this line's own.
					g.Category, g.Problem, g.SuggestedFix, g.Title = f.Category, f.Problem, f.SuggestedFix, gapTitle(f)
					g.Severity, g.Iteration = defaultSeverity(f), iteration
				}
			}
		}
		if g != nil {
			if g.SuggestedFix == "" {
				g.SuggestedFix = f.SuggestedFix
			}
			g.Lines = mergeLines(g.Lines, f.Lines, f.Line)
			if g.CauseLine == 0 {
				g.CauseLine, g.CauseQuote = f.CauseLine, f.CauseQuote
			}
			continue
		}
		st.Gaps = append(st.Gaps, Gap{
			Title:        gapTitle(f),
			Category:     f.Category,
			Severity:     defaultSeverity(f),
			Location:     GapLocation{LineNumber: f.Line, Quote: quote},
			Problem:      f.Problem,
			SuggestedFix: f.SuggestedFix,
			Iteration:    iteration,
			Command:      f.Command,
			Lines:        mergeLines(nil, f.Lines, f.Line),
			CauseLine:    f.CauseLine,
			CauseQuote:   f.CauseQuote,
			Tolerant:     f.Tolerant,
			Optional:     f.Optional,
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

// ApplyAdvice puts the Mentor's fix on the gap it answered.
func (st *Status) ApplyAdvice(note MentorNote) {
	if note.SuggestedFix == "" || note.Line == 0 {
		return
	}
	for i := range st.Gaps {
		g := &st.Gaps[i]
		if g.Location.LineNumber == note.Line && (note.Category == "" || g.Category == note.Category) {
			g.SuggestedFix = note.SuggestedFix
		}
	}
}

// MarkBlocking raises to critical the gap a loop that did not complete ended
// on: the one the Student last asked about.
func (st *Status) MarkBlocking() {
	// An Inconclusive run ended on a gap only when the environment stopped
	// it (reason Environment); low coverage ends on none.
	if st.Phase == PhaseCompleted || st.Phase == PhaseInconclusive && st.Reason != ReasonEnvironment || len(st.History) == 0 {
		return
	}
	last := st.History[len(st.History)-1].StudentOutput
	for _, f := range last.Findings {
		if !f.Asked {
			continue
		}
		if g := findGap(st.Gaps, f.Line, f.Category); g != nil {
			g.Severity = blockingSeverity(*g)
		}
	}
}

// blockingSeverity ranks the gap a run ended on by its cause: the
// tutorial's own gap is critical; what the container lacked is major (the
// run could not check what follows, but the page is not at fault); output
// shown only as an example never blocks, so it stays as it was.
func blockingSeverity(g Gap) Severity {
	switch {
	case g.Tolerant, g.Optional > 0:
		return g.Severity
	case g.Category == CategoryEnvironment:
		return SeverityMajor
	}
	return SeverityCritical
}

// mergeLines adds a finding's further lines to a gap's, never its own line,
// sorted and without repeats.
func mergeLines(have, add []int, own int) []int {
	for _, l := range add {
		if l != own && l > 0 && !slices.Contains(have, l) {
			have = append(have, l)
		}
	}
	slices.Sort(have)
	return have
}

// failureCategories are what one failed command is classified as: one
// failure is one gap, whatever each iteration called it.
var failureCategories = []Category{CategoryMissingDependency, CategoryPermissionDenied, CategoryMissingFile,
	CategoryTimeout, CategoryCommandFailure, CategoryEnvironment}

// sameFailure is the gap of the same command's failure at the finding's
// line under another category (an earlier iteration classified it
// otherwise), nil when there is none. A later finding that the environment
// is at fault relabels the gap: it was diagnosed with more to go on. A
// failure met after a Mentor's workaround ran before the step is another
// failure than the one the workaround answered (the installed tool failing
// on the page's own input): it never joins, nor relabels, a gap found
// before that workaround.
func sameFailure(gaps []Gap, f Finding) *Gap {
	if !slices.Contains(failureCategories, f.Category) {
		return nil
	}
	for i := range gaps {
		g := &gaps[i]
		if g.Location.LineNumber != f.Line || g.Command != f.Command || !slices.Contains(failureCategories, g.Category) ||
			f.AfterWorkaround > 0 && g.Iteration <= f.AfterWorkaround {
			continue
		}
		if f.Category == CategoryEnvironment && g.Category != CategoryEnvironment {
			g.Category, g.Problem, g.SuggestedFix, g.Title = f.Category, f.Problem, f.SuggestedFix, gapTitle(f)
			g.Severity = defaultSeverity(f)
		}
		return g
	}
	return nil
}

func findGap(gaps []Gap, line int, c Category) *Gap {
	for i := range gaps {
		if gaps[i].Location.LineNumber == line && gaps[i].Category == c {
			return &gaps[i]
		}
	}
	return nil
}

// defaultSeverity: what a reader cannot get past is major; what only
// confuses is minor, and so is what the container lacked (the environment's
// gap, not the page's) and output the tutorial shows only as an example.
// The gap a run ends on is raised by MarkBlocking.
func defaultSeverity(f Finding) Severity {
	switch {
	case f.Tolerant, f.Optional > 0:
		return SeverityMinor
	case f.Category == CategoryOutputMismatch, f.Category == CategoryMissingImage, f.Category == CategoryEnvironment:
		return SeverityMinor
	}
	return SeverityMajor
}

var categoryTitles = map[Category]string{
	CategoryMissingDependency:    "Missing dependency",
	CategoryPermissionDenied:     "Permission denied",
	CategoryMissingFile:          "Missing file",
	CategoryUndefinedVariable:    "Undefined variable",
	CategoryTimeout:              "Step timed out",
	CategoryOutputMismatch:       "Output differs from the tutorial",
	CategoryAmbiguousInstruction: "Ambiguous instruction",
	CategoryMissingImage:         "Missing image",
	CategoryCommandFailure:       "Command failed",
	CategoryEnvironment:          "Environment, not the tutorial",
}

func gapTitle(f Finding) string {
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

// Fingerprint identifies a gap across runs and edits: its category and its
// quote (whitespace aside; its title and command when it quotes nothing),
// never its line, so it survives lines being added above it. extra tells
// apart gaps that share both.
func Fingerprint(g Gap, extra ...string) string {
	what := strings.Join(strings.Fields(g.Location.Quote), " ")
	if what == "" {
		what = strings.Join(strings.Fields(g.Title+" "+g.Command), " ")
	}
	sum := sha256.Sum256([]byte(strings.Join(append([]string{string(g.Category), what}, extra...), "\x00")))
	return hex.EncodeToString(sum[:16])
}
