package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Version is set at build time (-ldflags "-X ...cli.Version=v0.1.0").
var Version = "dev"

func newVersionCommand(streams Streams) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of smile",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			v := Version
			if info, ok := debug.ReadBuildInfo(); ok && v == "dev" && info.Main.Version != "" && info.Main.Version != "(devel)" {
				v = info.Main.Version
			}
			fmt.Fprintf(streams.Out, "smile %s\n", v)
			return nil
		},
	}
}
