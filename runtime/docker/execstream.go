package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/docker/docker/api/types"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/smile-loop/smile/runtime"
)

// ExecStream is part of the runtime.Runtime interface: one exec without a
// TTY whose hijacked connection stays open; Docker multiplexes stdout and
// stderr on it, so a goroutine splits them, stdout into a pipe.
func (r *Runtime) ExecStream(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecConn, error) {
	if err := r.connect(ctx); err != nil {
		return nil, err
	}
	what := fmt.Sprintf("exec %q in container %s", strings.Join(req.Cmd, " "), nameOrID)
	created, err := r.createExec(ctx, nameOrID, req)
	if errors.Is(err, runtime.ErrNotFound) {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if err != nil {
		return nil, r.fail(what, err)
	}
	hijacked, err := r.cli.ContainerExecAttach(ctx, created.ID, container.ExecAttachOptions{})
	if err != nil {
		return nil, r.fail(what, err)
	}
	pr, pw := io.Pipe()
	c := &execConn{hijacked: hijacked, stdout: pr}
	go func() {
		_, err := stdcopy.StdCopy(pw, &c.stderr, hijacked.Reader)
		pw.CloseWithError(err) // nil: io.EOF
	}()
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	c.mu.Lock()
	c.stop = stop
	c.mu.Unlock()
	return c, nil
}

// execConn is a streaming exec's connection.
type execConn struct {
	hijacked  types.HijackedResponse
	stdout    *io.PipeReader
	stderr    tailBuffer
	closeOnce sync.Once
	mu        sync.Mutex
	stop      func() bool // ends the watch on the exec's ctx
}

func (c *execConn) Read(p []byte) (int, error)  { return c.stdout.Read(p) }
func (c *execConn) Write(p []byte) (int, error) { return c.hijacked.Conn.Write(p) }
func (c *execConn) Stderr() string              { return c.stderr.String() }

// Close closes the command's stdin, so it sees the end of its input, then
// drops the connection. Reads return io.ErrClosedPipe from then on.
func (c *execConn) Close() error {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		if c.stop != nil {
			c.stop()
		}
		c.mu.Unlock()
		_ = c.stdout.Close() // first: a reader gets io.ErrClosedPipe, not the connection's end
		_ = c.hijacked.CloseWrite()
		c.hijacked.Close()
	})
	return nil
}

// tailBufferBytes is how much of a stream's stderr is kept.
const tailBufferBytes = 4 << 10

// tailBuffer keeps the last tailBufferBytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - tailBufferBytes; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
