package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"
)

// row is one line of the table, formatted.
type row struct {
	measure, n, p50, p95, mean, limit, share string
}

// durationRow summarises samples against a limit (0: none).
func durationRow(measure string, samples []time.Duration, limit time.Duration) row {
	s := summarize(samples)
	r := row{measure: measure, n: fmt.Sprint(len(samples)), p50: dur(s.p50), p95: dur(s.p95),
		mean: dur(s.mean) + " ± " + dur(s.sd), limit: "-", share: "-"}
	if limit > 0 {
		r.limit = "< " + dur(limit)
		r.share = fmt.Sprintf("%.2g %%", 100*float64(s.p95)/float64(limit))
	}
	return r
}

type summary struct{ p50, p95, mean, sd time.Duration }

func summarize(samples []time.Duration) summary {
	s := slices.Clone(samples)
	slices.Sort(s)
	var sum float64
	for _, d := range s {
		sum += float64(d)
	}
	mean := sum / float64(len(s))
	var sq float64
	for _, d := range s {
		sq += (float64(d) - mean) * (float64(d) - mean)
	}
	sd := 0.0
	if len(s) > 1 {
		sd = math.Sqrt(sq / float64(len(s)-1))
	}
	return summary{p50: pct(s, 50), p95: pct(s, 95), mean: time.Duration(mean), sd: time.Duration(sd)}
}

// pct is the nearest-rank percentile of sorted samples.
func pct(sorted []time.Duration, p float64) time.Duration {
	i := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// dur prints a duration with three significant digits in a unit that fits.
func dur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%.3g µs", float64(d)/float64(time.Microsecond))
	case d < time.Second:
		return fmt.Sprintf("%.3g ms", float64(d)/float64(time.Millisecond))
	}
	return fmt.Sprintf("%.3g s", d.Seconds())
}

func printTable(w io.Writer, rows []row) {
	head := row{"Measure", "N", "p50", "p95", "mean ± sd", "Seed limit", "p95 / limit"}
	all := append([]row{head}, rows...)
	cells := func(r row) []string { return []string{r.measure, r.n, r.p50, r.p95, r.mean, r.limit, r.share} }
	width := make([]int, 7)
	for _, r := range all {
		for i, c := range cells(r) {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	line := func(cs []string) {
		for i, c := range cs {
			fmt.Fprintf(w, "| %s%s ", c, strings.Repeat(" ", width[i]-len([]rune(c))))
		}
		fmt.Fprintln(w, "|")
	}
	line(cells(head))
	sep := make([]string, 7)
	for i := range sep {
		sep[i] = strings.Repeat("-", width[i])
	}
	line(sep)
	for _, r := range rows {
		line(cells(r))
	}
}
