package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/cmd/smile/internal/planview"
	"github.com/smile-loop/smile/learner/literal/explain"
	"github.com/smile-loop/smile/learner/literal/fence"
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
			steps, _, _ := fence.Read(t, reading.Options{})
			return planview.Write(streams.Out, path, explain.Describe(steps), o.output)
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
