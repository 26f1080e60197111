package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"
	"k8s.io/streaming/pkg/httpstream"

	"github.com/smile-loop/smile/runtime"
)

// Exec is part of the runtime.Runtime interface: stdout and stderr
// together, as they came.
func (r *Runtime) Exec(ctx context.Context, nameOrID string, cmd []string, timeout time.Duration) (int, string, error) {
	var out syncBuffer
	code, err := r.run(ctx, nameOrID, runtime.ExecRequest{Cmd: cmd, Timeout: timeout}, nil, &out, &out)
	return code, out.String(), err
}

// ExecIO is part of the runtime.Runtime interface. As with Docker, a
// timeout ends the wait and the connection; the command may go on.
func (r *Runtime) ExecIO(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecResult, error) {
	var stdout, stderr syncBuffer
	code, err := r.run(ctx, nameOrID, req, bytes.NewReader(req.Stdin), &stdout, &stderr)
	return runtime.ExecResult{ExitCode: code, Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}, err
}

// run runs req's command in the Pod through the exec subresource and
// returns its exit code (-1 when it is not known).
func (r *Runtime) run(ctx context.Context, nameOrID string, req runtime.ExecRequest, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	what := fmt.Sprintf("exec %q in pod %s", strings.Join(req.Cmd, " "), podName(nameOrID))
	if req.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, req.Timeout)
		defer cancel()
	}
	exec, err := r.executor(nameOrID, execCommand(req), stdin != nil)
	if err != nil {
		return -1, fmt.Errorf("%s: %w", what, err)
	}
	err = exec.StreamWithContext(ctx, remotecommand.StreamOptions{Stdin: stdin, Stdout: stdout, Stderr: stderr})
	var exit utilexec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &exit):
		return exit.ExitStatus(), nil
	case ctx.Err() != nil && req.Timeout > 0 && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return -1, fmt.Errorf("%s: timed out after %s: %w", what, req.Timeout, ctx.Err())
	case ctx.Err() != nil:
		return -1, fmt.Errorf("%s: %w", what, ctx.Err())
	}
	return -1, fmt.Errorf("%s: %w", what, r.execFailure(ctx, nameOrID, err))
}

// execFailure says why an exec failed: the Pod is gone (runtime.ErrNotFound)
// or not running, or the stream broke.
func (r *Runtime) execFailure(ctx context.Context, nameOrID string, err error) error {
	c, ierr := r.Inspect(context.WithoutCancel(ctx), nameOrID)
	switch {
	case errors.Is(ierr, runtime.ErrNotFound):
		return ierr
	case ierr == nil && c.State != runtime.StateRunning:
		return fmt.Errorf("pod is %s: %w", c.State, err)
	}
	return err
}

// execCommand is the command the exec subresource runs: it has no
// environment or working folder of its own, so a request naming them goes
// through the image's sh and env.
func execCommand(req runtime.ExecRequest) []string {
	cmd := req.Cmd
	if len(req.Env) > 0 {
		cmd = append(append([]string{"env", "--"}, req.Env...), cmd...)
	}
	if req.WorkingDir != "" {
		cmd = append([]string{"/bin/sh", "-c", `cd -- "$0" && exec "$@"`, req.WorkingDir}, cmd...)
	}
	return cmd
}

// executor is a remotecommand executor for the Pod's exec subresource:
// WebSocket first (the API server's newer protocol), SPDY when the server
// refuses the upgrade.
func (r *Runtime) executor(nameOrID string, cmd []string, stdin bool) (remotecommand.Executor, error) {
	req := r.cs.CoreV1().RESTClient().Post().
		Namespace(r.opts.Namespace).Resource("pods").Name(podName(nameOrID)).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{
			Container: containerName,
			Command:   cmd,
			Stdin:     stdin,
			Stdout:    true,
			Stderr:    true,
		}, scheme.ParameterCodec)
	ws, err := remotecommand.NewWebSocketExecutor(r.cfg, http.MethodGet, req.URL().String())
	if err != nil {
		return nil, err
	}
	spdy, err := remotecommand.NewSPDYExecutor(r.cfg, http.MethodPost, req.URL())
	if err != nil {
		return nil, err
	}
	return remotecommand.NewFallbackExecutor(ws, spdy, func(err error) bool {
		return httpstream.IsUpgradeFailure(err) || httpstream.IsHTTPSProxyError(err)
	})
}
