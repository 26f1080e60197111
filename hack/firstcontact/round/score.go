package round

import "slices"

// Gap is one gap a run reported.
type Gap struct {
	Line     int
	Category string
	Problem  string
}

// Run is what a fresh run of a page produced.
type Run struct {
	Status string
	Gaps   []Gap
	// Exercised counts the blocks the run ran or compared.
	Exercised int
}

// The two ways a round is scored.
const (
	// ModeLabels scores the run the reviewers judged, from their labels.
	ModeLabels = "labels"
	// ModeRun scores a fresh run whose gaps are matched to the labels.
	ModeRun = "run"
)

// PageScore is one page's part of the score.
type PageScore struct {
	Name   string
	Status string
	// Reported counts every gap reported; Real, Env and Wrong count their
	// labels (an unjudged gap has none).
	Reported, Real, Env, Wrong int
	// Accusations are the reported gaps whose category is not environment:
	// each blames the page. AccusedReal are those labelled real.
	Accusations, AccusedReal int
	// EnvFindings are the reported gaps of category environment; EnvRight
	// are labelled environment, EnvWrong otherwise.
	EnvFindings, EnvRight, EnvWrong int
	// Unjudged are gaps of a fresh run at a line and category the labels do
	// not know: a person judges them; they count neither right nor wrong.
	Unjudged []Gap
	// Found and Missed split the page's real gaps.
	Found, Missed []Real
	// Gone are the labelled gaps a fresh run no longer reported.
	Gone []Judged
	// Blocks is the reviewer's count; Exercised the run's.
	Exercised, Blocks int
	// Completes is the reviewer's readerCompletes; Vacuous says the run
	// completed having exercised nothing.
	Completes, Vacuous bool
}

// Totals sums the pages' scores.
type Totals struct {
	Pages                                         int
	Reported, Real, Env, Wrong, Unjudged          int
	Accusations, AccusedReal, UnjudgedAccusations int
	EnvFindings, EnvRight, EnvWrong               int
	RealGaps, Found                               int
	Vacuous                                       int
	Completable, Completed                        int
	Exercised, Blocks                             int
}

// Precision is the share of judged accusations labelled real, and its
// numerator and denominator.
func (t Totals) Precision() (num, den int) {
	return t.AccusedReal, t.Accusations - t.UnjudgedAccusations
}

// Recall is the share of real gaps found.
func (t Totals) Recall() (num, den int) { return t.Found, t.RealGaps }

// Completion is the share of the pages a careful reader completes that the
// run completed.
func (t Totals) Completion() (num, den int) { return t.Completed, t.Completable }

// Score is a scored round.
type Score struct {
	Mode    string
	Round   int
	Learner string
	Pages   []PageScore
	Total   Totals
	// NotScored names the pages left out of a fresh run's score, with why
	// (no copy of the page, an error running it).
	NotScored []string
}

// judged is a reported gap with its label ("" when unjudged).
type judged struct {
	Gap
	label string
}

// ScoreLabels scores the run the reviewers judged: each reported gap as
// labelled.
func ScoreLabels(r *Round) Score {
	s := Score{Mode: ModeLabels, Round: r.Number, Learner: r.Learner}
	for _, p := range r.Pages {
		gaps := make([]judged, len(p.Reported))
		for i, g := range p.Reported {
			gaps[i] = judged{Gap{Line: g.Line, Category: g.Category, Problem: g.Why}, g.Label}
		}
		s.add(scorePage(p, p.Result.Status, p.Exercised, gaps))
	}
	return s
}

// ScoreRuns scores fresh runs (by page name) against the labels: a gap is
// judged as the label at its line and category, or left unjudged. A page
// with no run is listed in NotScored, with its reason from why when given.
func ScoreRuns(r *Round, runs map[string]Run, why map[string]string) Score {
	s := Score{Mode: ModeRun, Round: r.Number, Learner: r.Learner}
	for _, p := range r.Pages {
		run, ok := runs[p.Name]
		if !ok {
			reason := why[p.Name]
			if reason == "" {
				reason = "not run"
			}
			s.NotScored = append(s.NotScored, p.Name+": "+reason)
			continue
		}
		gaps := make([]judged, len(run.Gaps))
		reproduced := make([]bool, len(p.Reported))
		for i, g := range run.Gaps {
			gaps[i] = judged{Gap: g}
			for j, l := range p.Reported {
				if l.Line == g.Line && l.Category == g.Category {
					if gaps[i].label == "" {
						gaps[i].label = l.Label
					}
					reproduced[j] = true
				}
			}
		}
		ps := scorePage(p, run.Status, run.Exercised, gaps)
		for j, l := range p.Reported {
			if !reproduced[j] {
				ps.Gone = append(ps.Gone, l)
			}
		}
		s.add(ps)
	}
	return s
}

// scorePage counts one page's judged gaps and finds its real gaps in them.
func scorePage(p Page, status string, exercised int, gaps []judged) PageScore {
	ps := PageScore{
		Name: p.Name, Status: status, Reported: len(gaps),
		Exercised: exercised, Blocks: p.Blocks, Completes: p.Completes(),
		Vacuous: status == StatusCompleted && exercised == 0,
	}
	plain := make([]Gap, len(gaps))
	for i, g := range gaps {
		plain[i] = g.Gap
		switch g.label {
		case LabelReal:
			ps.Real++
		case LabelEnvironment:
			ps.Env++
		case LabelWrong:
			ps.Wrong++
		default:
			ps.Unjudged = append(ps.Unjudged, g.Gap)
		}
		if g.Category == CategoryEnvironment {
			ps.EnvFindings++
			switch g.label {
			case LabelEnvironment:
				ps.EnvRight++
			case "":
			default:
				ps.EnvWrong++
			}
			continue
		}
		ps.Accusations++
		if g.label == LabelReal {
			ps.AccusedReal++
		}
	}
	for _, rg := range p.RealGaps {
		if foundBy(rg, plain) {
			ps.Found = append(ps.Found, rg)
		} else {
			ps.Missed = append(ps.Missed, rg)
		}
	}
	return ps
}

// foundBy says whether a reported gap outside environment sits at one of
// the real gap's lines.
func foundBy(rg Real, gaps []Gap) bool {
	lines := rg.Lines()
	for _, g := range gaps {
		if g.Category != CategoryEnvironment && slices.Contains(lines, g.Line) {
			return true
		}
	}
	return false
}

// add sums a page into the score.
func (s *Score) add(ps PageScore) {
	s.Pages = append(s.Pages, ps)
	t := &s.Total
	t.Pages++
	t.Reported += ps.Reported
	t.Real += ps.Real
	t.Env += ps.Env
	t.Wrong += ps.Wrong
	t.Unjudged += len(ps.Unjudged)
	t.Accusations += ps.Accusations
	t.AccusedReal += ps.AccusedReal
	for _, g := range ps.Unjudged {
		if g.Category != CategoryEnvironment {
			t.UnjudgedAccusations++
		}
	}
	t.EnvFindings += ps.EnvFindings
	t.EnvRight += ps.EnvRight
	t.EnvWrong += ps.EnvWrong
	t.RealGaps += len(ps.Found) + len(ps.Missed)
	t.Found += len(ps.Found)
	if ps.Vacuous {
		t.Vacuous++
	}
	if ps.Completes {
		t.Completable++
		if ps.Status == StatusCompleted {
			t.Completed++
		}
	}
	t.Exercised += ps.Exercised
	t.Blocks += ps.Blocks
}
