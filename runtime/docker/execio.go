package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/smile-loop/smile/runtime"
)

// ExecIO is part of the runtime.Runtime interface.
func (r *Runtime) ExecIO(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecResult, error) {
	if err := r.connect(ctx); err != nil {
		return runtime.ExecResult{}, err
	}
	what := fmt.Sprintf("exec %q in container %s", strings.Join(req.Cmd, " "), nameOrID)
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	created, err := r.createExec(ctx, nameOrID, req)
	if errors.Is(err, runtime.ErrNotFound) {
		return runtime.ExecResult{}, fmt.Errorf("%s: %w", what, err)
	}
	if err != nil {
		return runtime.ExecResult{}, r.fail(what, timedOut(err, req.Timeout))
	}
	hijacked, err := r.cli.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return runtime.ExecResult{}, r.fail(what, timedOut(err, req.Timeout))
	}
	defer hijacked.Close()

	// stdin is written whole, then closed, so the command reads its end.
	go func() {
		_, _ = hijacked.Conn.Write(req.Stdin)
		_ = hijacked.CloseWrite()
	}()
	var stdout, stderr bytes.Buffer
	copied := make(chan error, 1)
	go func() {
		_, err := stdcopy.StdCopy(&stdout, &stderr, hijacked.Reader)
		copied <- err
	}()
	res := runtime.ExecResult{ExitCode: -1}
	select {
	case err = <-copied:
	case <-ctx.Done():
		hijacked.Close()
		<-copied
		res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
		return res, fmt.Errorf("%s: %w", what, timedOut(ctx.Err(), req.Timeout))
	}
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	if err != nil {
		return res, r.fail(what, err)
	}
	code, err := r.exitCode(ctx, created.ID)
	if err != nil {
		return res, r.fail(what, timedOut(err, req.Timeout))
	}
	res.ExitCode = code
	return res, nil
}

// createExec creates an exec of req's command with stdin, stdout and stderr
// attached; a missing container is runtime.ErrNotFound.
func (r *Runtime) createExec(ctx context.Context, nameOrID string, req runtime.ExecRequest) (container.ExecCreateResponse, error) {
	created, err := r.cli.ContainerExecCreate(ctx, nameOrID, container.ExecOptions{
		Cmd:          req.Cmd,
		Env:          req.Env,
		WorkingDir:   req.WorkingDir,
		AttachStdin:  true,
		AttachStdout: true,
		AttachStderr: true,
	})
	if cerrdefs.IsNotFound(err) {
		return created, runtime.ErrNotFound
	}
	return created, err
}
