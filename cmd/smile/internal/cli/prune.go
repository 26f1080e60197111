package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/runtime/docker"
)

func newPruneCommand(streams Streams) *cobra.Command {
	var dir string
	var dry bool
	cmd := &cobra.Command{
		Use:   "prune",
		Short: "Remove the checkpoint snapshots no run of the workspace can start from",
		Long: "Removes the checkpoint snapshots no run can start from: those a finished run of the workspace does not\n" +
			"record, those of runs the workspace forgot, and those of folders deleted without `smile delete`.\n" +
			"A run that is not finished keeps all of its own. checkpointDisk in smile.json caps what the\n" +
			"workspace's checkpoints hold while runs go on.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			rt, err := docker.New()
			if err != nil {
				return err
			}
			defer rt.Close()
			pruned, err := checkpoints.Prune(ctx, rt, dir, dry)
			verb := "removed"
			if dry {
				verb = "would remove"
			}
			var total int64
			for _, p := range pruned {
				total += p.SizeBytes
				fmt.Fprintf(streams.Out, "%s %s (run %s, %.1f MB): %s\n", verb, p.Ref, p.Run, float64(p.SizeBytes)/1e6, p.Why)
			}
			if len(pruned) == 0 && err == nil {
				fmt.Fprintln(streams.Out, "nothing to prune: every checkpoint is one a run can start from")
			} else if len(pruned) > 0 {
				fmt.Fprintf(streams.Out, "%s %d checkpoint(s), %.1f MB\n", verb, len(pruned), float64(total)/1e6)
			}
			return err
		},
	}
	workspaceFlag(cmd, &dir)
	cmd.Flags().BoolVar(&dry, "dry-run", false, "only say what would be removed")
	return cmd
}
