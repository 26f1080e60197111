package docker

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
)

func TestExecStream(t *testing.T) {
	r := newRuntime(t)
	c := start(t, r, testSpec(testRun(t, r), "execstream"))
	ctx := context.Background()
	script := `while read -r l; do echo "$HANDS_X $l"; echo "err $l" >&2; done; echo bye`
	conn, err := r.ExecStream(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"sh", "-c", script}, Env: []string{"HANDS_X=got"}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	br := bufio.NewReader(conn)
	// One command answers line after line: stdout only, stderr apart.
	for _, l := range []string{"one", "two"} {
		if _, err := io.WriteString(conn, l+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := br.ReadString('\n')
		if err != nil || got != "got "+l+"\n" {
			t.Fatalf("answer to %q = %q, %v; want %q", l, got, err, "got "+l+"\n")
		}
	}
	// Stderr arrives in frames of its own, a moment after the stdout line
	// that was read: wait for it (the engine's pace, not a fixed sleep).
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(conn.Stderr(), "err one\n") && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(conn.Stderr(), "err one\n") {
		t.Fatalf("Stderr() = %q, want the command's stderr", conn.Stderr())
	}
	if err := conn.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(br); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("read after Close = %v", err)
	}
	if _, err := r.ExecStream(ctx, "smile-test-no-such-container", runtime.ExecRequest{Cmd: []string{"true"}}); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("ExecStream in a missing container = %v, want ErrNotFound", err)
	}
}

// TestExecStreamEndsWithCtx checks the command sees the end of its input
// when the stream's ctx ends, and the reader the end of the stream.
func TestExecStreamEndsWithCtx(t *testing.T) {
	r := newRuntime(t)
	c := start(t, r, testSpec(testRun(t, r), "execstreamctx"))
	ctx, cancel := context.WithCancel(context.Background())
	conn, err := r.ExecStream(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"sh", "-c", "echo up; cat >/dev/null; echo gone >/tmp/stream-ended"}})
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	if l, err := br.ReadString('\n'); err != nil || l != "up\n" {
		t.Fatalf("first line = %q, %v", l, err)
	}
	cancel()
	if _, err := io.ReadAll(br); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("read after the ctx ended = %v", err)
	}
	// The command read the end of its stdin and went on: poll for its mark.
	code, out := mustExec(t, r, c.Name, "sh", "-c", "for i in $(seq 50); do [ -f /tmp/stream-ended ] && exit 0; sleep 0.1; done; exit 1")
	if code != 0 {
		t.Fatalf("the command did not see the end of its stdin: %d %q", code, out)
	}
}
