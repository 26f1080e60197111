package kube

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"

	"github.com/smile-loop/smile/runtime"
)

// ExecStream is part of the runtime.Runtime interface: one exec whose
// stream stays open, stdin and stdout as pipes, stderr kept apart.
func (r *Runtime) ExecStream(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecConn, error) {
	what := fmt.Sprintf("exec %q in pod %s", strings.Join(req.Cmd, " "), podName(nameOrID))
	c, err := r.Inspect(ctx, nameOrID)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if c.State != runtime.StateRunning {
		return nil, fmt.Errorf("%s: pod is %s", what, c.State)
	}
	exec, err := r.executor(nameOrID, execCommand(req), true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	sctx, cancel := context.WithCancel(ctx)
	conn := &execConn{stdin: inW, stdout: outR, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(conn.done)
		err := exec.StreamWithContext(sctx, remotecommand.StreamOptions{Stdin: inR, Stdout: outW, Stderr: &conn.stderr})
		var exit utilexec.ExitError
		if errors.As(err, &exit) {
			err = nil // it ended: its stdout is at its end
		}
		outW.CloseWithError(err) // nil: io.EOF
		inR.CloseWithError(io.ErrClosedPipe)
		cancel()
	}()
	return conn, nil
}

// execConn is a streaming exec's connection.
type execConn struct {
	stdin  *io.PipeWriter
	stdout *io.PipeReader
	stderr tailBuffer
	cancel context.CancelFunc
	done   chan struct{} // closed when the stream has ended
}

// closeWait is how long Close waits for the command to end on its own once
// its stdin is closed, before it cuts the stream.
const closeWait = 2 * time.Second

func (c *execConn) Read(p []byte) (int, error)  { return c.stdout.Read(p) }
func (c *execConn) Write(p []byte) (int, error) { return c.stdin.Write(p) }
func (c *execConn) Stderr() string              { return c.stderr.String() }

// Close ends the command's stdin, gives it a moment to end (a stream cut
// short is logged by client-go), its output discarded, then ends the
// stream.
func (c *execConn) Close() error {
	_ = c.stdin.Close()
	go func() { _, _ = io.Copy(io.Discard, c.stdout) }() // what it still prints must not block its end
	select {
	case <-c.done:
	case <-time.After(closeWait):
	}
	c.cancel()
	return c.stdout.Close()
}

// tailBuffer keeps the last 4 KiB written to it; safe for concurrent use.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

const tailMax = 4 << 10

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if len(b.buf) > tailMax {
		b.buf = b.buf[len(b.buf)-tailMax:]
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}

// syncBuffer is a bytes.Buffer stdout and stderr may share: remotecommand
// writes each from its own goroutine.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

func (b *syncBuffer) String() string { return string(b.Bytes()) }
