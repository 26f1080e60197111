package fake

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/smile-loop/smile/runtime"
)

// ExecStreamFunc plays the command of an ExecStream: it reads the
// command's stdin from stdin and writes its stdout to stdout until it
// returns, which ends the stream (its error is what the reader then gets).
type ExecStreamFunc func(ctx context.Context, name string, req runtime.ExecRequest, stdin io.Reader, stdout io.Writer) error

// SetExecStream makes every later ExecStream run f in a goroutine. Without
// one, ExecStream returns runtime.ErrUnsupported, as a runtime that cannot
// stream does.
func (r *Runtime) SetExecStream(f ExecStreamFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.execStream = f
}

// ExecStream is part of the runtime.Runtime interface. Like ExecIO, it
// records the command (see Execs) and fails in a container that is not
// running.
func (r *Runtime) ExecStream(ctx context.Context, nameOrID string, req runtime.ExecRequest) (runtime.ExecConn, error) {
	r.mu.Lock()
	e, err := r.findLocked(nameOrID)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	f := r.execStream
	if f == nil {
		r.mu.Unlock()
		return nil, fmt.Errorf("exec stream in container %s: %w", nameOrID, runtime.ErrUnsupported)
	}
	e.execs = append(e.execs, slices.Clone(req.Cmd))
	name, running := e.c.Name, e.c.State == runtime.StateRunning
	r.mu.Unlock()
	if !running {
		return nil, fmt.Errorf("exec stream in container %s: container is not running", name)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(ctx)
	c := &streamConn{stdin: inW, stdout: outR, cancel: cancel}
	go func() {
		err := f(ctx, name, req, inR, outW)
		_ = inR.CloseWithError(io.ErrClosedPipe)
		_ = outW.CloseWithError(err)
	}()
	return c, nil
}

// streamConn is a fake streaming exec's connection.
type streamConn struct {
	stdin  *io.PipeWriter
	stdout *io.PipeReader
	cancel context.CancelFunc
	once   sync.Once
}

func (c *streamConn) Read(p []byte) (int, error)  { return c.stdout.Read(p) }
func (c *streamConn) Write(p []byte) (int, error) { return c.stdin.Write(p) }
func (c *streamConn) Stderr() string              { return "" }

// Close ends the command's stdin, cancels it and drops its stdout.
func (c *streamConn) Close() error {
	c.once.Do(func() {
		_ = c.stdin.Close()
		c.cancel()
		_ = c.stdout.Close()
	})
	return nil
}
