package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status/store"
)

type planOptions struct {
	dir    string
	output string
}

func newPlanCommand(streams Streams) *cobra.Command {
	o := &planOptions{}
	cmd := &cobra.Command{
		Use:   "plan (TUTORIAL.md | run.yaml | NAME)",
		Short: "Show how the literal Student reads every block of a tutorial, without running anything",
		Long: `plan prints, in page order, what the literal Student will do with each code block of a
tutorial: run it (in which program), write it to a file (replace or append), compare it as
the output of a command (exactly or tolerantly), type it into a program, or skip it, and why.
It runs nothing and needs no Docker. Name a Markdown file, a SmileRun manifest, or the name
of a run applied in this workspace.`,
		Example: `  smile plan docs/tutorial.md
  smile plan run.yaml -o json
  smile plan quickstart`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch o.output {
			case "", "json", "yaml":
			default:
				return fmt.Errorf("unknown output format %q: use json or yaml", o.output)
			}
			path, err := planTutorialPath(o.dir, args[0])
			if err != nil {
				return err
			}
			t, err := spec.LoadTutorial(path)
			if err != nil {
				return err
			}
			return writePlan(streams.Out, path, reading.Describe(reading.Plan(t)), o.output)
		},
	}
	workspaceFlag(cmd, &o.dir)
	cmd.Flags().StringVarP(&o.output, "output", "o", "", "output format: json or yaml (default: a table)")
	return cmd
}

// planTutorialPath finds the tutorial an argument names: a Markdown file, a
// manifest's tutorial, or an applied run's.
func planTutorialPath(workspace, arg string) (string, error) {
	if info, err := os.Stat(arg); err == nil && !info.IsDir() {
		switch strings.ToLower(filepath.Ext(arg)) {
		case ".yaml", ".yml", ".json":
			return manifestTutorial(arg)
		}
		return arg, nil
	}
	rec, err := store.Registry{Dir: workspace}.Get(arg)
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("%s is neither a file nor a run applied in %s", arg, workspace)
	}
	if err != nil {
		return "", err
	}
	return manifestTutorial(rec.Manifest)
}

// manifestTutorial is the tutorial a SmileRun manifest resolves to.
func manifestTutorial(manifest string) (string, error) {
	run, err := runfile.Load(manifest)
	if err != nil {
		return "", err
	}
	d, err := spec.Resolve(run, filepath.Dir(manifest))
	if err != nil {
		return "", err
	}
	return d.Paths.Tutorial, nil
}

// planDocument is `smile plan -o json|yaml`: the tutorial and its readings.
type planDocument struct {
	Tutorial string            `json:"tutorial"`
	Steps    []reading.Reading `json:"steps"`
}

func writePlan(w io.Writer, path string, steps []reading.Reading, format string) error {
	doc := planDocument{Tutorial: path, Steps: steps}
	switch format {
	case "json", "yaml":
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if format == "yaml" {
			if data, err = runfile.JSONToYAML(data); err != nil {
				return err
			}
			_, err = w.Write(data)
			return err
		}
		_, err = fmt.Fprintln(w, string(data))
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "LINES\tLANG\tACTION\tTARGET\tWHY")
	for _, s := range steps {
		lines := fmt.Sprint(s.Line)
		if s.EndLine > s.Line {
			lines = fmt.Sprintf("%d-%d", s.Line, s.EndLine)
		}
		why := s.Why
		if len(s.Flags) > 0 {
			why = strings.TrimSpace("[" + strings.Join(s.Flags, "; ") + "] " + why)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", lines, dash(s.Lang), s.Action, dash(cell(s.Target)), dash(cell(why)))
	}
	return tw.Flush()
}

// cell keeps a table cell on one line.
func cell(s string) string { return strings.Join(strings.Fields(s), " ") }
