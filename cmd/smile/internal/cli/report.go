package cli

import (
	"fmt"
	"path/filepath"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/status/report"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

func newReportCommand(streams Streams) *cobra.Command {
	var dir, formats, outDir string
	var stdout bool
	cmd := &cobra.Command{
		Use:   "report NAME",
		Short: "Render a finished run's report again, in any format",
		Long: `Render a finished run's report from its status. Formats: md, json (the files every run writes),
sarif (SARIF 2.1.0 for code scanning), github (workflow commands: annotations on the tutorial's lines),
junit (JUnit XML, one test case per step), summary (Markdown for $GITHUB_STEP_SUMMARY).`,
		Example: `  smile report quickstart --format sarif,junit
  smile report quickstart --format github --stdout`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			list, err := report.ParseFormats(formats)
			if err != nil {
				return err
			}
			rec, err := store.Registry{Dir: dir}.Get(args[0])
			if err != nil {
				return fmt.Errorf("smilerun %q not found", args[0])
			}
			run, err := store.Load(rec.StateFile)
			if err != nil {
				return err
			}
			if !run.Status.Phase.Terminal() {
				return fmt.Errorf("run %s has not finished (phase %s): its report is written when it ends", rec.Name, run.Status.Phase)
			}
			rep, outputDir, err := reportOf(rec.Manifest, run)
			if err != nil {
				return err
			}
			if outDir != "" {
				outputDir = outDir
			}
			if stdout {
				for _, f := range list {
					data, err := report.RenderFormat(f, rep)
					if err != nil {
						return err
					}
					if _, err := streams.Out.Write(data); err != nil {
						return err
					}
				}
				return nil
			}
			return writeFormats(streams, outputDir, rep, list)
		},
	}
	workspaceFlag(cmd, &dir)
	cmd.Flags().StringVar(&formats, "format", "md,json", "comma-separated formats: "+fmt.Sprint(report.Formats))
	cmd.Flags().StringVarP(&outDir, "output-dir", "o", "", "where to write the files (default: the run's outputDir)")
	cmd.Flags().BoolVar(&stdout, "stdout", false, "print the rendered formats on stdout instead of writing files")
	return cmd
}

// reportOf builds a run's report from its manifest's current inputs.
func reportOf(manifest string, run *status.Run) (*report.Report, string, error) {
	m, err := runfile.LoadNamed(manifest, run.Metadata.Name)
	if err != nil {
		return nil, "", err
	}
	d, err := spec.Resolve(m, filepath.Dir(manifest))
	if err != nil {
		return nil, "", err
	}
	return reconcile.ReportFor(run, d, Version), d.Paths.OutputDir, nil
}

func writeFormats(streams Streams, dir string, rep *report.Report, formats []string) error {
	paths, err := report.WriteFormats(dir, rep, formats, streams.Out)
	for _, p := range paths {
		fmt.Fprintf(streams.ErrOut, "wrote %s\n", p)
	}
	return err
}
