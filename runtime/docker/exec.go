package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/smile-loop/smile/runtime"
)

// Exec is part of the runtime.Runtime interface. A timeout of zero or less
// means no limit beyond ctx.
func (r *Runtime) Exec(ctx context.Context, nameOrID string, cmd []string, timeout time.Duration) (int, string, error) {
	if err := r.connect(ctx); err != nil {
		return 0, "", err
	}
	what := fmt.Sprintf("exec %q in container %s", strings.Join(cmd, " "), nameOrID)
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	created, err := r.cli.ContainerExecCreate(ctx, nameOrID, container.ExecOptions{
		Cmd:          cmd,
		AttachStdout: true,
		AttachStderr: true,
	})
	if cerrdefs.IsNotFound(err) {
		return 0, "", fmt.Errorf("%s: %w", what, runtime.ErrNotFound)
	}
	if err != nil {
		return 0, "", r.fail(what, timedOut(err, timeout))
	}
	hijacked, err := r.cli.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return 0, "", r.fail(what, timedOut(err, timeout))
	}
	defer hijacked.Close()

	// One buffer for both streams keeps their interleaving, as a terminal would.
	var out bytes.Buffer
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(&out, &out, hijacked.Reader)
		copied <- err
	}()
	select {
	case err = <-copied:
	case <-ctx.Done():
		// Closing the hijacked connection ends the copy; the command itself
		// may go on running in the container.
		hijacked.Close()
		<-copied // the buffer is ours again
		return -1, out.String(), fmt.Errorf("%s: %w", what, timedOut(ctx.Err(), timeout))
	}
	if err != nil {
		return -1, out.String(), r.fail(what, err)
	}
	code, err := r.exitCode(ctx, created.ID)
	if err != nil {
		return -1, out.String(), r.fail(what, timedOut(err, timeout))
	}
	return code, out.String(), nil
}

// exitCode waits for the engine to record the exec's exit: the output stream
// can end a moment before the engine marks the exec finished.
func (r *Runtime) exitCode(ctx context.Context, execID string) (int, error) {
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		inspect, err := r.cli.ContainerExecInspect(ctx, execID)
		if err != nil {
			return -1, err
		}
		if !inspect.Running {
			return inspect.ExitCode, nil
		}
		select {
		case <-ctx.Done():
			return -1, ctx.Err()
		case <-time.After(wait):
		}
	}
}

// timedOut names the limit when it was the exec's own timeout that ran out.
func timedOut(err error, timeout time.Duration) error {
	if timeout > 0 && errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("timed out after %s: %w", timeout, err)
	}
	return err
}
