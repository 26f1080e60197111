package round

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// Write prints the per-page table, the totals (precision, recall,
// environment findings, vacuous passes, completion) and the lists a person
// acts on: the unjudged gaps first, then the missed real gaps, the labelled
// gaps a fresh run no longer reports and the pages not scored.
func Write(w io.Writer, s Score) {
	how := "from the labels (the run the reviewers judged)"
	if s.Mode == ModeRun {
		how = "for this run, its gaps matched to the labels by line and category"
	}
	fmt.Fprintf(w, "first-contact round %d (labels judge learner %s), scored %s\n\n", s.Round, s.Learner, how)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PAGE\tSTATUS\tREPORTED\tREAL\tENV\tWRONG\tUNJUDGED\tREAL GAPS FOUND/MISSED\tEXERCISED/BLOCKS\tREADER COMPLETES")
	for _, p := range s.Pages {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d/%d\t%d/%d\t%s\n", p.Name, p.Status, p.Reported, p.Real, p.Env, p.Wrong,
			len(p.Unjudged), len(p.Found), len(p.Missed), p.Exercised, p.Blocks, yesNo(p.Completes))
	}
	t := s.Total
	fmt.Fprintf(tw, "TOTAL (%d pages)\t\t%d\t%d\t%d\t%d\t%d\t%d/%d\t%d/%d\t%d yes\n", t.Pages, t.Reported, t.Real, t.Env, t.Wrong,
		t.Unjudged, t.Found, t.RealGaps-t.Found, t.Exercised, t.Blocks, t.Completable)
	tw.Flush()

	num, den := t.Precision()
	fmt.Fprintf(w, "\nprecision:    %s of the accusations (reported gaps outside environment) are real", share(num, den))
	if t.UnjudgedAccusations > 0 {
		fmt.Fprintf(w, "; %d unjudged, left out", t.UnjudgedAccusations)
	}
	num, den = t.Recall()
	fmt.Fprintf(w, "\nrecall:       %s of the real gaps found (a gap outside environment reported at its line or alsoLines)\n", share(num, den))
	fmt.Fprintf(w, "environment:  %d finding(s): %d right, %d wrong", t.EnvFindings, t.EnvRight, t.EnvWrong)
	if n := t.EnvFindings - t.EnvRight - t.EnvWrong; n > 0 {
		fmt.Fprintf(w, ", %d unjudged", n)
	}
	fmt.Fprintf(w, "\nvacuous:      %d pass(es) completed with nothing exercised%s\n", t.Vacuous, names(s.Pages, func(p PageScore) bool { return p.Vacuous }))
	num, den = t.Completion()
	fmt.Fprintf(w, "completion:   %s of the pages a careful reader completes ended completed%s\n", share(num, den),
		names(s.Pages, func(p PageScore) bool { return p.Completes && p.Status != StatusCompleted }, "not: "))
	writeLists(w, s)
}

// writeLists prints the gaps a person should look at.
func writeLists(w io.Writer, s Score) {
	var unjudged, missed, gone []string
	for _, p := range s.Pages {
		for _, g := range p.Unjudged {
			unjudged = append(unjudged, fmt.Sprintf("%s:%d %s: %s", p.Name, g.Line, g.Category, short(g.Problem)))
		}
		for _, g := range p.Missed {
			missed = append(missed, fmt.Sprintf("%s:%v %s: %s", p.Name, lineList(g.Lines()), g.Category, short(g.Why)))
		}
		for _, g := range p.Gone {
			gone = append(gone, fmt.Sprintf("%s:%d %s (labelled %s)", p.Name, g.Line, g.Category, g.Label))
		}
	}
	list(w, "unjudged gaps (judge each and add it under the page's reported)", unjudged)
	list(w, "real gaps missed", missed)
	list(w, "labelled gaps this run no longer reports", gone)
	list(w, "pages not scored", s.NotScored)
}

func list(w io.Writer, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s: %d\n", title, len(items))
	for _, it := range items {
		fmt.Fprintf(w, "  %s\n", it)
	}
}

// share prints "a/b (p%)", or "a/b (-)" when b is zero.
func share(a, b int) string {
	if b == 0 {
		return fmt.Sprintf("%d/%d (-)", a, b)
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", a, b, 100*float64(a)/float64(b))
}

// names lists the pages for which pick holds, as " (a, b)" after an
// optional lead, or nothing.
func names(pages []PageScore, pick func(PageScore) bool, lead ...string) string {
	var out []string
	for _, p := range pages {
		if pick(p) {
			out = append(out, p.Name)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(lead, "") + strings.Join(out, ", ") + ")"
}

func lineList(lines []int) string {
	s := make([]string, len(lines))
	for i, l := range lines {
		s[i] = fmt.Sprint(l)
	}
	return strings.Join(s, ",")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func short(s string) string {
	const limit = 100
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		return string(r[:limit]) + "..."
	}
	return s
}
