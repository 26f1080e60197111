package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"syscall"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/kubectlfmt"
	"github.com/smile-loop/smile/status/store"

	"github.com/spf13/cobra"
)

func newControllerCommand(streams Streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "controller",
		Short: "Show or stop the workspace's background controller",
		Long: `The controller runs the loops of the runs applied in a workspace (the git repository, else the
manifest's folder; one controller per workspace) and watches their files. apply starts it in the
background when none runs; it exits by itself after $SMILE_CONTROLLER_IDLE_TIMEOUT (default
30m) with no active run and no observer.`,
	}
	workspaceFlag(cmd, &dir)
	cmd.AddCommand(&cobra.Command{
		Use:   "status",
		Short: "Say whether a controller serves the workspace, and which",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return controllerStatus(streams, dir, time.Now())
		},
	}, &cobra.Command{
		Use:   "stop",
		Short: "Stop the workspace's background controller (runs resume when applied again)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			return controllerStop(ctx, streams, dir)
		},
	})
	return cmd
}

func controllerStatus(streams Streams, dir string, now time.Time) error {
	_, info, err := runningController(streams, dir)
	if err != nil || info == nil {
		return err
	}
	kind := "background"
	if info.Foreground {
		kind = "apply --wait (in process)"
	}
	fmt.Fprintf(streams.Out, "Controller:  running (%s)\nDir:         %s\nPID:         %d\nAPI:         http://%s/\nVersion:     %s\nStarted:     %s ago\n",
		kind, info.Dir, info.PID, info.APIAddr, dash(info.Version), kubectlfmt.Age(now.Sub(info.StartedAt)))
	return nil
}

// controllerStop asks the folder's background controller to exit (SIGTERM,
// as a service manager would) and waits until it has let go of the folder.
// Its runs keep their state: applying one again resumes it.
func controllerStop(ctx context.Context, streams Streams, dir string) error {
	abs, info, err := runningController(streams, dir)
	if err != nil || info == nil {
		return err
	}
	if info.Foreground {
		return fmt.Errorf("the controller of %s is `smile apply --wait` (pid %d): press Ctrl-C there", abs, info.PID)
	}
	if err := syscall.Kill(info.PID, syscall.SIGTERM); err != nil {
		return fmt.Errorf("stop controller pid %d: %w", info.PID, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for store.Held(store.ControllerLockPath(abs)) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("the controller (pid %d) did not exit within 30s: see %s", info.PID,
				filepath.Join(abs, store.HomeDir, "controller.log"))
		case <-time.After(50 * time.Millisecond):
		}
	}
	fmt.Fprintf(streams.Out, "controller (pid %d) stopped\n", info.PID)
	return nil
}

// runningController finds the folder's controller; with none it says so and
// returns a nil info.
func runningController(streams Streams, dir string) (string, *store.ControllerInfo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", nil, err
	}
	info, err := store.ReadControllerInfo(abs)
	if errors.Is(err, store.ErrNoController) {
		fmt.Fprintf(streams.Out, "no controller is running for %s\n", abs)
		return abs, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	return abs, &info, nil
}
