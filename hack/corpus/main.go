// Command corpus measures the literal learner against the fixture corpus
// (test/corpus): it runs every fixture on the real engine and prints
// precision and recall per pattern. It is a measurement, not a test: it
// exits 0 whatever the numbers, and 1 only when it could not run.
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
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type options struct {
	root, bin, run, prefix, provider string
	jobs                             int
	noExpect                         bool
	timeout                          time.Duration
}

func run(args []string, stdout, stderr io.Writer) error {
	var o options
	fs := flag.NewFlagSet("corpus", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.root, "root", "test/corpus", "the folder holding one folder per fixture")
	fs.StringVar(&o.bin, "bin", "bin", "the folder holding smile and smile-wrapper")
	fs.StringVar(&o.run, "run", "", "only the fixtures whose folder name matches this regexp")
	fs.StringVar(&o.prefix, "prefix", "cp-", "run-name prefix, so these runs' containers are told apart")
	fs.StringVar(&o.provider, "provider", "literal", "the learner")
	fs.IntVar(&o.jobs, "j", 2, "fixtures run in parallel")
	fs.BoolVar(&o.noExpect, "no-expect", false, "no expectations: list every gap reported (published tutorials)")
	fs.DurationVar(&o.timeout, "timeout", 6*time.Minute, "limit for one fixture")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var filter *regexp.Regexp
	if o.run != "" {
		var err error
		if filter, err = regexp.Compile(o.run); err != nil {
			return fmt.Errorf("parse -run: %w", err)
		}
	}
	fixtures, err := fixture.List(o.root, filter, !o.noExpect)
	if err != nil {
		return err
	}
	if len(fixtures) == 0 {
		return fmt.Errorf("no fixtures under %s match %q", o.root, o.run)
	}
	smile, err := filepath.Abs(filepath.Join(o.bin, "smile"))
	if err != nil {
		return fmt.Errorf("find smile: %w", err)
	}
	if _, err := os.Stat(smile); err != nil {
		return fmt.Errorf("find smile (build it with hack/build.sh): %w", err)
	}
	runner := fixture.Runner{Smile: smile, Prefix: o.prefix, Provider: o.provider, Timeout: o.timeout}
	outcomes := fixture.RunAll(runner, fixtures, o.jobs, stderr)
	if o.noExpect {
		for _, oc := range outcomes {
			fixture.WriteFindings(stdout, oc)
		}
		return nil
	}
	fixture.WriteTable(stdout, fixture.Summarise(outcomes))
	return nil
}
