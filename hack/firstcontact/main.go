// Command firstcontact scores a first-contact round (test/firstcontact/roundN,
// see test/firstcontact/README.md): with -labels-only, the round's recorded
// figures from its labels alone (no Docker); otherwise it runs the learner
// on copies of the round's pages (fetched outside the repository: a folder
// of copies, else the labelled commit of a mirror) and matches the gaps it
// reports to the labels. Gaps the labels do not know are listed for a person
// to judge. It is a measurement, not a test: it exits 0 whatever the
// numbers, and 1 only when it could not run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/smile-loop/smile/hack/corpus/fixture"
	"github.com/smile-loop/smile/hack/firstcontact/round"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type options struct {
	round, copies, mirrors, bin, run, prefix string
	jobs                                     int
	labelsOnly                               bool
	timeout                                  time.Duration
}

func run(args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("firstcontact", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.round, "round", "", "the round's folder of labels, e.g. test/firstcontact/round5 (required)")
	fs.BoolVar(&o.labelsOnly, "labels-only", false, "no run, no Docker: score the round from its labels (its recorded figures)")
	fs.StringVar(&o.copies, "copies", "/work/fc/pages", "the folder holding a copy of each page as NAME/tutorial.md")
	fs.StringVar(&o.mirrors, "mirrors", "/work/.mirror", "the folder of bare git mirrors (OWNER+REPO...) a missing copy is taken from")
	fs.StringVar(&o.bin, "bin", "bin", "the folder holding smile and smile-wrapper")
	fs.StringVar(&o.run, "run", "", "only the pages whose name matches this regexp")
	fs.StringVar(&o.prefix, "prefix", "fcr-", "run-name prefix, so these runs' containers are told apart")
	fs.IntVar(&o.jobs, "j", 2, "pages run in parallel")
	fs.DurationVar(&o.timeout, "timeout", 6*time.Minute, "limit for one page")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.round == "" || fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("want -round DIR and no other arguments")
	}
	r, err := round.Load(o.round)
	if err != nil {
		return err
	}
	if err := keep(r, o.run); err != nil {
		return err
	}
	for _, p := range r.Pages {
		for _, w := range p.Warnings() {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	if o.labelsOnly {
		round.Write(stdout, round.ScoreLabels(r))
		return nil
	}
	smile, err := filepath.Abs(filepath.Join(o.bin, "smile"))
	if err != nil {
		return fmt.Errorf("find smile: %w", err)
	}
	if _, err := os.Stat(smile); err != nil {
		return fmt.Errorf("find smile (build it with hack/build.sh, or run hack/firstcontact.sh): %w", err)
	}
	stage, err := os.MkdirTemp("", "smile-firstcontact-")
	if err != nil {
		return fmt.Errorf("make a folder for the pages: %w", err)
	}
	defer os.RemoveAll(stage)
	runner := fixture.Runner{Smile: smile, Prefix: o.prefix, Provider: "literal", Timeout: o.timeout}
	runs, why := runPages(runner, r.Pages, o, stage, stderr)
	round.Write(stdout, round.ScoreRuns(r, runs, why))
	return nil
}

// keep leaves in r only the pages whose name matches pattern.
func keep(r *round.Round, pattern string) error {
	if pattern == "" {
		return nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return fmt.Errorf("parse -run: %w", err)
	}
	var kept []round.Page
	for _, p := range r.Pages {
		if re.MatchString(p.Name) {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return fmt.Errorf("no page of %s matches %q", r.Dir, pattern)
	}
	r.Pages = kept
	return nil
}

// runPages stages each page's text and runs it, jobs at a time. It returns
// the runs by page name and, for the pages it could not run, why.
func runPages(runner fixture.Runner, pages []round.Page, o options, stage string, progress io.Writer) (map[string]round.Run, map[string]string) {
	runs := map[string]round.Run{}
	why := map[string]string{}
	var staged []fixture.Fixture
	texts := map[string][]byte{}
	for _, p := range pages {
		text, note, err := pageText(p, o.copies, o.mirrors)
		if note != "" {
			fmt.Fprintln(progress, "warning:", note)
		}
		if err != nil {
			fmt.Fprintln(progress, "missing:", err)
			why[p.Name] = err.Error()
			continue
		}
		dir := filepath.Join(stage, p.Name)
		if err := stagePage(dir, text); err != nil {
			why[p.Name] = "stage the page: " + err.Error()
			continue
		}
		if err := stageCopyFiles(p, dir, o.copies); err != nil {
			why[p.Name] = "stage the page's files: " + err.Error()
			continue
		}
		if err := stageImages(p, dir, text, o.copies, o.mirrors); err != nil {
			why[p.Name] = "stage the page: " + err.Error()
			continue
		}
		staged = append(staged, fixture.Fixture{Name: p.Name, Dir: dir})
		texts[p.Name] = text
	}
	for _, oc := range fixture.RunAll(runner, staged, o.jobs, progress) {
		if oc.Err != nil {
			why[oc.Fixture.Name] = "error: " + oc.Err.Error()
			continue
		}
		runs[oc.Fixture.Name] = outcomeRun(oc, texts[oc.Fixture.Name])
	}
	return runs, why
}

// stagePage writes the page alone as dir/tutorial.md: the run sees no
// report or setting left beside a copy.
func stagePage(dir string, text []byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "tutorial.md"), text, 0o644)
}

// outcomeRun is what the scorer needs of a run.
func outcomeRun(oc fixture.Outcome, text []byte) round.Run {
	run := round.Run{Status: oc.Status, Exercised: exercised(text, oc.StudentLines)}
	for _, g := range oc.Gaps {
		run.Gaps = append(run.Gaps, round.Gap{Line: g.Line, Category: g.Category, Problem: g.Problem})
	}
	return run
}
