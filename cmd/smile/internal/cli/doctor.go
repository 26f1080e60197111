package cli

import (
	"context"
	"fmt"

	"github.com/smile-loop/smile/cmd/smile/internal/doctor"
	"github.com/spf13/cobra"
)

func newDoctorCommand(streams Streams) *cobra.Command {
	var file, wrapper string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check that everything a run needs is here: Docker, the image, the network, the provider",
		Long: `Check what a run needs, one line per check: Docker reachable and its API version, the image
present, the bridge gateway usable for callbacks, the smile-wrapper binary, and for a model provider its
CLI and version (` + "`<cli> --version`" + ` in a container of the image), its key variable, and for openai
the endpoint's /models (the server's kind and the models it serves). "skip" lines say what only a model
call can tell. Exits non-zero when a check fails.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			cfg, source, err := doctor.Config(file)
			if err != nil {
				return err
			}
			fmt.Fprintf(streams.ErrOut, "checking with %s\n", source)
			failed := 0
			for _, c := range doctor.Run(ctx, cfg, wrapper) {
				word := "ok  "
				switch {
				case c.Skipped:
					word = "skip"
				case !c.OK:
					word = "FAIL"
					failed++
				}
				fmt.Fprintf(streams.Out, "%s  %-12s %s\n", word, c.Name, c.Msg)
			}
			if failed > 0 {
				return &exitError{code: ExitError, err: fmt.Errorf("%d check(s) failed", failed)}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&file, "filename", "f", "", "the SmileRun manifest whose settings to check (default: run.yaml here if present, else smile.json)")
	cmd.Flags().StringVar(&wrapper, "wrapper", "", "the smile-wrapper binary (default: beside smile, or $SMILE_WRAPPER)")
	return cmd
}
