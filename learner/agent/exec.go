package agent

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// maxStdout bounds what is kept of a CLI's output.
const maxStdout = 64 << 20

// Exec is one run of a CLI.
type Exec struct {
	Path string
	Args []string
	Dir  string
	Env  []string
	// OnLine sees each line of stdout as it arrives (for progress).
	OnLine func(line string)
	// Stdin is written to the CLI's stdin, then closed; "" leaves stdin at
	// /dev/null.
	Stdin string
}

// ExecResult is what a CLI run gave.
type ExecResult struct {
	Stdout   string
	Stderr   string
	ExitCode int
	// TimedOut: ctx's deadline passed and the CLI was killed.
	TimedOut  bool
	StartedAt time.Time
	Duration  time.Duration
}

// RunCLI runs a CLI with stdin at /dev/null (an open stdin blocks some of
// them) unless e.Stdin is given, in its own process group, and kills the
// whole group when ctx ends. The error is only for a CLI that could not be
// started.
func RunCLI(ctx context.Context, e Exec) (ExecResult, error) {
	cmd := exec.CommandContext(ctx, e.Path, e.Args...)
	cmd.Dir, cmd.Env = e.Dir, e.Env
	cmd.Stdin = nil
	if e.Stdin != "" {
		cmd.Stdin = strings.NewReader(e.Stdin)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 2 * time.Second
	var stderr tailBuffer
	stderr.limit = 1 << 20
	stdout := &lineWriter{onLine: e.OnLine}
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	res := ExecResult{StartedAt: time.Now()}
	if err := cmd.Start(); err != nil {
		return res, err
	}
	waitErr := cmd.Wait()
	stdout.flush()
	res.Duration = time.Since(res.StartedAt)
	res.Stdout, res.Stderr = stdout.buf.String(), stderr.String()
	res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
	var exitErr *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &exitErr):
		res.ExitCode = exitErr.ExitCode()
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = 128 + int(ws.Signal())
		}
	case ctx.Err() != nil:
		res.ExitCode = 128 + int(syscall.SIGKILL)
	default:
		return res, waitErr
	}
	if ctx.Err() != nil {
		// Whatever the CLI started must not outlive it.
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	return res, nil
}

// lineWriter keeps stdout (up to maxStdout) and hands each complete line
// to onLine. A writer, not a pipe: a background child that keeps stdout open
// cannot hold the wrapper once the CLI exits (WaitDelay).
type lineWriter struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	partial []byte
	onLine  func(string)
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() < maxStdout {
		w.buf.Write(p)
	}
	if w.onLine == nil {
		return len(p), nil
	}
	w.partial = append(w.partial, p...)
	for {
		i := bytes.IndexByte(w.partial, '\n')
		if i < 0 {
			break
		}
		w.onLine(strings.TrimRight(string(w.partial[:i]), "\r"))
		w.partial = w.partial[i+1:]
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.onLine != nil && len(w.partial) > 0 {
		w.onLine(strings.TrimRight(string(w.partial), "\r"))
	}
	w.partial = nil
}

// tailBuffer keeps the last limit bytes written to it.
type tailBuffer struct {
	mu    sync.Mutex
	buf   []byte
	limit int
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.limit {
		t.buf = t.buf[len(t.buf)-t.limit:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.ToValidUTF8(string(t.buf), "")
}

var _ io.Writer = (*tailBuffer)(nil)

// Tail returns the last n lines of s, trimmed.
func Tail(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
