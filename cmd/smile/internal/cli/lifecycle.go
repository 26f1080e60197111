package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/smile-loop/smile/cmd/smile/internal/ctlclient"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"

	"github.com/spf13/cobra"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/spec"
)

func newDeleteCommand(streams Streams) *cobra.Command {
	var dir string
	cmd := &cobra.Command{
		Use:   "delete NAME",
		Short: "Stop a run, remove its containers and forget its status",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return deleteRun(cmd.Context(), streams, dir, args[0])
		},
	}
	workspaceFlag(cmd, &dir)
	return cmd
}

func deleteRun(ctx context.Context, streams Streams, dir, name string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	rec, err := store.Registry{Dir: dir}.Get(name)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("smilerun %q not found", name)
	}
	if err != nil {
		return err
	}
	if c, err := ctlclient.Find(dir); err == nil {
		if err := c.Delete(ctx, name); err == nil {
			fmt.Fprintf(streams.Out, "%s/%s deleted\n", spec.Resource, name)
			return nil
		} else if !isNotFound(err) {
			return err
		}
		// The controller does not run it (it was applied elsewhere or failed
		// to resume): delete it here.
	}
	lock, err := store.Acquire(rec.StateFile)
	if err != nil {
		return err
	}
	defer lock.Release()
	rt, err := docker.New()
	if err != nil {
		return err
	}
	defer rt.Close()
	if err := reconcile.DeleteRun(ctx, rt, rec); err != nil {
		return err
	}
	_ = os.Remove(store.LockPath(rec.StateFile))
	fmt.Fprintf(streams.Out, "%s/%s deleted\n", spec.Resource, name)
	return nil
}

func newStopCommand(streams Streams) *cobra.Command {
	var dir, reason string
	cmd := &cobra.Command{
		Use:   "stop NAME",
		Short: "End a run's loop now; its report is still written",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if ctx == nil {
				ctx = context.Background()
			}
			name := args[0]
			rec, err := store.Registry{Dir: dir}.Get(name)
			if err != nil {
				return fmt.Errorf("smilerun %q not found", name)
			}
			run, err := store.Load(rec.StateFile)
			if err != nil {
				return err
			}
			if run.Status.Phase.Terminal() {
				fmt.Fprintf(streams.Out, "%s/%s already ended (%s)\n", spec.Resource, name, run.Status.Phase)
				return nil
			}
			c, err := ctlclient.Find(dir)
			if err != nil {
				return fmt.Errorf("no controller is running the loop of %s (it resumes when you apply it again; `smile delete %s` forgets it)", name, name)
			}
			ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			res, err := c.Stop(ctx, run.Status.Token, name, reason)
			if err != nil {
				return err
			}
			fmt.Fprintln(streams.Out, stopLine(name, res))
			return nil
		},
	}
	workspaceFlag(cmd, &dir)
	cmd.Flags().StringVar(&reason, "reason", "stopped by the user", "why the run is stopped (kept in its status and report)")
	return cmd
}

// stopLine is stop's answer: the run stopped (after how many iterations),
// it ended otherwise meanwhile, or it is still stopping.
func stopLine(name string, res wire.StopResponse) string {
	st := res.FinalState
	switch {
	case !res.Stopped:
		return fmt.Sprintf("%s/%s stopping: the loop ends at its next transition (`smile get %s` shows when)", spec.Resource, name, name)
	case st.Status == status.PhaseStopped.LoopStatus():
		return fmt.Sprintf("%s/%s stopped after %d iteration(s)", spec.Resource, name, st.Iteration)
	}
	return fmt.Sprintf("%s/%s ended before the stop: %s after %d iteration(s)", spec.Resource, name, st.Status, st.Iteration)
}

// isNotFound: the controller does not know the run (HTTP 404).
func isNotFound(err error) bool {
	return errors.Is(err, status.ErrUnknownRun)
}
