package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/status/report/suggest"

	"github.com/smile-loop/smile/status"
)

// stuckStep is where a run that did not complete stopped.
type stuckStep struct {
	Line  int
	Quote string
	Step  string
}

// stuckStepOf finds the step the Student never got past: where it last
// reported being, else the last gap of the last iteration.
func stuckStepOf(st *status.Status, gaps []status.Gap) stuckStep {
	var s stuckStep
	if n := len(st.History); n > 0 {
		out := st.History[n-1].StudentOutput
		s = stuckStep{Line: out.Line, Quote: out.Quote, Step: out.CurrentStep}
	}
	if s.Line == 0 {
		var last *status.Gap
		for i := range gaps {
			if last == nil || gaps[i].Iteration >= last.Iteration {
				last = &gaps[i]
			}
		}
		if last != nil && last.Location.LineNumber > 0 {
			s.Line, s.Quote = last.Location.LineNumber, last.Location.Quote
		}
	}
	return s
}

// recommend turns the gaps into one recommendation per kind of fix, the most
// severe (then the earliest) first. A run that did not complete gets a first
// recommendation about the step it stopped at: nothing after it was tried.
func recommend(sum ReportSummary, gaps []status.Gap, stuck stuckStep) []Recommendation {
	var out []Recommendation
	if r, ok := endRecommendation(sum, stuck); ok {
		if environmentAt(gaps, stuck.Line) && (sum.Status == ReportBlocker || sum.Status == ReportMaxIterations) {
			r.Description = fmt.Sprintf("The Student could not get past line %d because the container lacked what it needs (see the environment gap there), not because of the tutorial: give the run what it lacks and run it again; the steps after it were never tried.", stuck.Line)
		}
		out = append(out, r)
	}
	for _, grp := range groupGaps(gaps) {
		out = append(out, Recommendation{Category: grp.category, Description: grp.describe()})
	}
	for i := range out {
		out[i].Priority = i + 1
	}
	if out == nil {
		out = []Recommendation{}
	}
	return out
}

func endRecommendation(sum ReportSummary, s stuckStep) (Recommendation, bool) {
	where := "a step it did not name"
	switch {
	case s.Line > 0 && strings.TrimSpace(s.Quote) != "":
		where = fmt.Sprintf("line %d (%q)", s.Line, textutil.Shorten(s.Quote, 60))
	case s.Line > 0:
		where = fmt.Sprintf("line %d", s.Line)
	case strings.TrimSpace(s.Step) != "":
		where = fmt.Sprintf("the step %q", textutil.Shorten(s.Step, 60))
	}
	why := ""
	if m := strings.TrimSpace(sum.Message); m != "" {
		why = ": " + textutil.Shorten(m, 200)
	}
	var d string
	switch sum.Status {
	case ReportBlocker:
		d = fmt.Sprintf("The Student could not get past %s%s. Fix this step first: the steps after it were never tried.", where, why)
	case ReportTimeout:
		d = fmt.Sprintf("The run timed out at %s%s. Make this step finish sooner or say how long it takes: the steps after it were never tried.", where, why)
	case ReportInconclusive:
		d = fmt.Sprintf("SMILE could not follow most of this page%s. That is a finding about SMILE's reading, not a gap of the tutorial: "+
			"see Coverage for the blocks it skipped and why. Say in the prose what each block is for (a command to run, a file to save, output to expect), "+
			"or lower minCoverage for a page that is mostly read rather than run.", why)
	case ReportMaxIterations:
		d = fmt.Sprintf("The Student was still stuck at %s after %d iterations%s. Fix this step first, or raise maxIterations if every iteration got further.", where, sum.Iterations, why)
	case ReportError:
		reason := sum.Reason
		if reason == "" {
			reason = "Error"
		}
		d = fmt.Sprintf("The run stopped with an error (%s%s) at %s, before the tutorial was fully tested. Fix the cause and run SMILE again.", reason, why, where)
	default:
		return Recommendation{}, false
	}
	return Recommendation{Category: sum.Status, Description: d}, true
}

// gapGroup is the gaps one recommendation covers: one kind of fix.
type gapGroup struct {
	key, category string
	lead, trail   string
	rank          int // the highest severity among the gaps
	items         []recItem
}

// recItem is one thing to fix (a tool, a script, a variable) and its lines.
type recItem struct {
	subject string
	lines   []int
}

func (g *gapGroup) firstLine() int {
	first := 0
	for _, it := range g.items {
		for _, l := range it.lines {
			if l > 0 && (first == 0 || l < first) {
				first = l
			}
		}
	}
	return first
}

func (g *gapGroup) add(subject string, line int) {
	for i := range g.items {
		if g.items[i].subject == subject {
			if line > 0 && !slices.Contains(g.items[i].lines, line) {
				g.items[i].lines = append(g.items[i].lines, line)
			}
			return
		}
	}
	it := recItem{subject: subject}
	if line > 0 {
		it.lines = []int{line}
	}
	g.items = append(g.items, it)
}

func (g *gapGroup) describe() string {
	var parts []string
	var bare []int // items with no subject: only their lines are named
	for _, it := range g.items {
		slices.Sort(it.lines)
		if it.subject == "" {
			bare = append(bare, it.lines...)
			continue
		}
		if len(it.lines) == 0 {
			parts = append(parts, it.subject)
			continue
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", it.subject, lineList(it.lines)))
	}
	if len(bare) > 0 {
		slices.Sort(bare)
		parts = append(parts, lineList(slices.Compact(bare)))
	}
	return g.lead + strings.Join(parts, ", ") + g.trail
}

func lineList(lines []int) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = strconv.Itoa(l)
	}
	if len(lines) == 1 {
		return "line " + s[0]
	}
	return "lines " + strings.Join(s, ", ")
}

// groupGaps sorts gaps into kinds of fix, most severe first, then by the
// first line each concerns.
func groupGaps(gaps []status.Gap) []*gapGroup {
	sorted := append([]status.Gap{}, gaps...)
	slices.SortStableFunc(sorted, func(a, b status.Gap) int {
		if d := b.Severity.Rank() - a.Severity.Rank(); d != 0 {
			return d
		}
		return lineOrder(a.Location.LineNumber, b.Location.LineNumber)
	})
	var groups []*gapGroup
	byKey := map[string]*gapGroup{}
	for _, g := range sorted {
		kind := suggest.FixFor(g)
		grp := byKey[kind.Key]
		if grp == nil {
			grp = &gapGroup{key: kind.Key, category: string(g.Category), lead: kind.Lead, trail: kind.Trail}
			byKey[kind.Key] = grp
			groups = append(groups, grp)
		}
		grp.rank = max(grp.rank, g.Severity.Rank())
		grp.add(kind.Subject, g.Location.LineNumber)
	}
	slices.SortStableFunc(groups, func(a, b *gapGroup) int {
		if d := b.rank - a.rank; d != 0 {
			return d
		}
		return lineOrder(a.firstLine(), b.firstLine())
	})
	for _, grp := range groups {
		slices.SortStableFunc(grp.items, func(a, b recItem) int {
			return lineOrder(firstOf(a.lines), firstOf(b.lines))
		})
	}
	return groups
}

// lineOrder sorts by line, unknown lines (0) last.
func lineOrder(a, b int) int {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	case b == 0:
		return -1
	}
	return a - b
}

func firstOf(lines []int) int {
	if len(lines) == 0 {
		return 0
	}
	return slices.Min(lines)
}

// environmentAt says whether the gap at line is the container's doing.
func environmentAt(gaps []status.Gap, line int) bool {
	for _, g := range gaps {
		if line > 0 && g.Location.LineNumber == line && g.Category == status.CategoryEnvironment {
			return true
		}
	}
	return false
}
