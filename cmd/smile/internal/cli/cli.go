// Package cli is the smile command line: kubectl-style verbs over SmileRun
// manifests. stdout carries only program output; progress, logs and errors
// go to stderr.
package cli

import (
	// Pages carry their own settings in front matter (`smile:`).
	_ "github.com/smile-loop/smile/spec/frontmatter"

	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/spec"
)

// Streams are the command's standard streams.
type Streams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Exit codes.
const (
	ExitOK = 0
	// ExitError: SMILE could not do what was asked (bad input, no Docker...).
	ExitError = 1
	// ExitGaps: the run found gaps at or above --fail-on, or did not complete.
	ExitGaps = 2
	// ExitInconclusive: the run went through the page but exercised less of
	// its code blocks than minCoverage: neither a pass nor a verdict of gaps.
	ExitInconclusive = 3
)

// exitError carries an exit code; its message (if any) is printed as an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// Main runs the command line and returns the exit code. Only main calls
// os.Exit.
func Main(args []string, streams Streams) int {
	cmd := NewCommand(streams)
	cmd.SetArgs(args)
	err := cmd.Execute()
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(streams.ErrOut, "error: %v\n", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(streams.ErrOut, "error: %v\n", err)
	return ExitError
}

// NewCommand builds the root command.
func NewCommand(streams Streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "smile",
		Short:         "Test Markdown tutorials with a simulated learner in a container",
		Long:          "SMILE lets a simulated learner (the Student) follow a Markdown tutorial inside a Docker container,\nasks a Mentor when it is stuck, and reports every gap at its exact tutorial line.",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetIn(streams.In)
	root.AddCommand(
		newApplyCommand(streams),
		newGetCommand(streams),
		newDescribeCommand(streams),
		newLogsCommand(streams),
		newStopCommand(streams),
		newDeleteCommand(streams),
		newPruneCommand(streams),
		newInitCommand(streams),
		newDoctorCommand(streams),
		newHookCommand(streams),
		newReportCommand(streams),
		newBaselineCommand(streams),
		newPlanCommand(streams),
		newVersionCommand(streams),
		newControllerCommand(streams),
	)
	return root
}

// workspaceFlag adds --dir to a verb: any folder inside the workspace,
// default the current one. Before the verb runs, dir becomes the workspace
// itself (spec.FindWorkspace: the folder holding .git, else where runs were
// applied), so every verb works from any folder inside it, as git does.
func workspaceFlag(cmd *cobra.Command, dir *string) {
	cmd.PersistentFlags().StringVar(dir, "dir", ".", "any folder inside the workspace (the git repository, else the folder the runs were applied in)")
	cmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		*dir = spec.FindWorkspace(*dir)
		return nil
	}
}
