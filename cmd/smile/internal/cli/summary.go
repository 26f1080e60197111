package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/cmd/smile/internal/applyset"
	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/report"
)

// finishMany prints the runs' table and their gaps, writes the formats asked
// for (one file for all runs of sarif, junit, github and summary; md and
// json in each run's outputDir), and exits by the worst result: 1 if SMILE
// could not run one, else 3 if one was inconclusive, else 2 if one has gaps
// at or above --fail-on or did not complete, else 0.
func (o *applyOptions) finishMany(streams Streams, runs []*applied, threshold gate.Gate) error {
	var rows []report.RunRow
	var reports []*report.Report
	var errs []error
	for _, a := range runs {
		if a.failed != nil {
			rows = append(rows, report.RunRow{Run: a.t.Name(), Tutorial: tutorialOf(a.t), Status: "not applied"})
			continue
		}
		rep, outDir, err := reportOfTarget(a.t, a.run)
		if err != nil {
			errs = append(errs, err)
			rows = append(rows, report.RunRow{Run: a.t.Name(), Tutorial: tutorialOf(a.t), Status: a.run.Status.Phase.LoopStatus()})
			continue
		}
		reports = append(reports, rep)
		rows = append(rows, report.RowOf(rep))
		if err := o.writeRunFormats(streams, outDir, rep, len(runs) > 1); err != nil {
			errs = append(errs, err)
		}
	}
	_, _ = streams.Out.Write(report.RenderRunTable(rows))
	for _, a := range runs {
		if a.run != nil {
			printGapLinesOf(streams.Out, tutorialOf(a.t), a.run)
		}
	}
	if len(runs) > 1 {
		if err := o.writeSetFormats(streams, reports); err != nil {
			errs = append(errs, err)
		}
	}
	return worstExit(runs, threshold, errs)
}

// writeRunFormats writes the formats kept per run into its outputDir: all
// of them for a single run, md and json when the others cover every run.
func (o *applyOptions) writeRunFormats(streams Streams, dir string, rep *report.Report, many bool) error {
	formats, _ := report.ParseFormats(o.formats)
	if many {
		formats = slices.DeleteFunc(formats, func(f string) bool { return slices.Contains(report.SetFormats, f) })
	}
	if len(formats) == 0 {
		return nil
	}
	return writeFormats(streams, dir, rep, formats)
}

// writeSetFormats writes one file per format for all the runs into
// --output-dir.
func (o *applyOptions) writeSetFormats(streams Streams, reports []*report.Report) error {
	formats, _ := report.ParseFormats(o.formats)
	if len(reports) == 0 {
		return nil
	}
	var errs []error
	for _, f := range formats {
		if !slices.Contains(report.SetFormats, f) {
			continue
		}
		data, err := report.RenderSet(f, reports)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		path := filepath.Join(o.outputDir, report.FormatFileName(f))
		if err := os.MkdirAll(o.outputDir, 0o755); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			errs = append(errs, err)
			continue
		}
		fmt.Fprintf(streams.ErrOut, "wrote %s\n", path)
	}
	return errors.Join(errs...)
}

// worstExit is the exit of many runs: the worst of each run's (1 is worse
// than 3, which is worse than 2: a run SMILE could not run has no verdict
// at all, an inconclusive one has none about most of its page).
func worstExit(runs []*applied, threshold gate.Gate, errs []error) error {
	code := ExitOK
	if len(errs) > 0 {
		code = ExitError
	}
	for _, a := range runs {
		if a.failed != nil {
			code = ExitError
			continue
		}
		var ee *exitError
		counted, _, cerr := countedGaps(a.t.Path, a.run)
		if cerr != nil {
			errs = append(errs, cerr)
			code = ExitError
			continue
		}
		if err := exitByResult(a.run, threshold, counted); errors.As(err, &ee) {
			if ee.err != nil {
				errs = append(errs, ee.err)
			}
			code = worseExit(code, ee.code)
		}
	}
	if code == ExitOK {
		return nil
	}
	return &exitError{code: code, err: errors.Join(errs...)}
}

// worseExit orders exit codes: 0, then 2, then 3, then 1.
func worseExit(a, b int) int {
	rank := map[int]int{ExitOK: 0, ExitGaps: 1, ExitInconclusive: 2, ExitError: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// reportOfTarget builds a run's report from its manifest as applied.
func reportOfTarget(t applyset.Target, run *status.Run) (*report.Report, string, error) {
	d, err := t.Resolve()
	if err != nil {
		return nil, "", err
	}
	return reconcile.ReportFor(run, d, Version), d.Paths.OutputDir, nil
}

// tutorialOf is the run's tutorial relative to the current folder.
func tutorialOf(t applyset.Target) string {
	if d, err := t.Resolve(); err == nil {
		return relToWD(d.Paths.Tutorial)
	}
	return relToWD(t.Path)
}

// printGapLinesOf prints a run's gaps as printGapLines does, on its
// tutorial's path.
func printGapLinesOf(w io.Writer, path string, run *status.Run) {
	st := run.Status
	for _, g := range st.Gaps {
		fmt.Fprintf(w, "%s:%d: [%s/%s] %s\n", path, g.Location.LineNumber, g.Severity, g.Category, oneLine(g.Problem))
	}
	printEnd(w, path, st)
}
