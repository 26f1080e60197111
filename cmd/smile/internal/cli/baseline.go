package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/baseline"
	"github.com/smile-loop/smile/status/store"
)

func newBaselineCommand(streams Streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "baseline [NAME...]",
		Short: "Accept the current gaps of finished runs, so that only new ones fail",
		Long: `Record the gaps of finished runs (all the workspace's, or the named ones) in smile-baseline.json, in the
workspace's root. Each gap is known by its tutorial, its category and the text it quotes, never its line,
so an edit above it does not revive it. apply, the pre-commit hook and the CI formats then count only the
gaps the baseline does not hold: SARIF marks each result new or unchanged, and lists an accepted gap that is
gone as absent (fixed). Commit the file with the tutorials; remove an entry to count its gap again.`,
		Example: `  smile baseline            # accept every finished run's gaps
  smile baseline quickstart # accept one run's`,
		RunE: func(cmd *cobra.Command, args []string) error {
			reg := store.Registry{Dir: dir}
			names := args
			if len(names) == 0 {
				recs, err := reg.List()
				if err != nil {
					return err
				}
				for _, r := range recs {
					names = append(names, r.Name)
				}
			}
			if len(names) == 0 {
				return fmt.Errorf("no runs in the workspace %s: apply one first", dir)
			}
			b, err := baseline.Load(dir)
			if err != nil {
				return err
			}
			now := time.Now()
			for _, name := range names {
				rec, err := reg.Get(name)
				if err != nil {
					return fmt.Errorf("smilerun %q not found", name)
				}
				run, err := store.Load(rec.StateFile)
				if err != nil {
					return err
				}
				if !run.Status.Phase.Terminal() {
					return fmt.Errorf("run %s has not finished (phase %s): accept its gaps once it ends", name, run.Status.Phase)
				}
				tut, err := tutorialKey(dir, rec.Manifest, run)
				if err != nil {
					return err
				}
				n := b.Accept(tut, name, run.Status.Gaps, now)
				fmt.Fprintf(streams.Out, "%s: %d gap(s) of %s accepted (%d already)\n", name, n, tut, len(run.Status.Gaps)-n)
			}
			if err := b.Save(dir); err != nil {
				return err
			}
			fmt.Fprintf(streams.ErrOut, "wrote %s\n", filepath.Join(dir, baseline.FileName))
			return nil
		},
	}
	workspaceFlag(cmd, &dir)
	return cmd
}

// tutorialKey is a run's tutorial as the baseline knows it: its path
// relative to the workspace's root.
func tutorialKey(workspace, manifest string, run *status.Run) (string, error) {
	m, err := runfile.LoadNamed(manifest, run.Metadata.Name)
	if err != nil {
		return "", err
	}
	d, err := spec.Resolve(m, filepath.Dir(manifest))
	if err != nil {
		return "", err
	}
	return baseline.TutorialKey(workspace, d.Paths.Tutorial), nil
}

// countedGaps are a run's gaps the workspace's baseline does not accept (all
// of them when there is no baseline), and how many it accepted.
func countedGaps(manifest string, run *status.Run) ([]status.Gap, int, error) {
	workspace := spec.FindWorkspace(filepath.Dir(manifest))
	b, err := baseline.Load(workspace)
	if err != nil || len(b.Accepted) == 0 {
		return run.Status.Gaps, 0, err
	}
	tut, err := tutorialKey(workspace, manifest, run)
	if err != nil {
		return run.Status.Gaps, 0, err
	}
	counted := b.Counted(tut, run.Status.Gaps)
	return counted, len(run.Status.Gaps) - len(counted), nil
}
