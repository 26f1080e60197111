package kube

import (
	"bufio"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// ExecIO carries the request's environment, folder and stdin, and gives the
// exit code and the two streams apart.
func TestExecIO(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	c := startSleeper(t, r, runtime.ContainerSpec{})
	res, err := r.ExecIO(ctx, c.Name, runtime.ExecRequest{
		Cmd:        []string{"sh", "-c", `pwd; echo "$A $B"; cat; echo oops >&2; exit 7`},
		Env:        []string{"A=1", "B=two words"},
		WorkingDir: "/tmp",
		Stdin:      []byte("from stdin\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 7 || string(res.Stdout) != "/tmp\n1 two words\nfrom stdin\n" || string(res.Stderr) != "oops\n" {
		t.Errorf("ExecIO = code %d, stdout %q, stderr %q", res.ExitCode, res.Stdout, res.Stderr)
	}
	// With no stdin, the command reads its end at once.
	res, err = r.ExecIO(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"cat"}})
	if err != nil || res.ExitCode != 0 || len(res.Stdout) != 0 {
		t.Errorf("cat with no stdin = %+v, %v", res, err)
	}
	start := time.Now()
	_, err = r.ExecIO(ctx, c.Name, runtime.ExecRequest{Cmd: []string{"sleep", "30"}, Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s") || time.Since(start) > 15*time.Second {
		t.Errorf("timeout: %v after %s", err, time.Since(start))
	}
	code, out, err := r.Exec(ctx, c.Name, []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, 0)
	if err != nil || code != 3 || !strings.Contains(out, "out") || !strings.Contains(out, "err") {
		t.Errorf("Exec = %d %q %v", code, out, err)
	}
}

// ExecStream keeps one command running: lines written are its stdin, its
// stdout is read back as it comes, its stderr kept apart; it ends when
// closed.
func TestExecStream(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	c := startSleeper(t, r, runtime.ContainerSpec{})
	conn, err := r.ExecStream(ctx, c.Name, runtime.ExecRequest{
		Cmd: []string{"sh", "-c", `echo started >&2; while read -r l; do echo "got $l $X"; done`},
		Env: []string{"X=x"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	lines := bufio.NewReader(conn)
	for _, in := range []string{"one", "two"} {
		if _, err := io.WriteString(conn, in+"\n"); err != nil {
			t.Fatal(err)
		}
		got, err := lines.ReadString('\n')
		if err != nil || got != "got "+in+" x\n" {
			t.Fatalf("read %q, %v", got, err)
		}
	}
	if !strings.Contains(conn.Stderr(), "started") {
		t.Errorf("stderr %q", conn.Stderr())
	}
	if err := conn.Close(); err != nil && !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("close: %v", err)
	}
	if _, err := lines.ReadString('\n'); err == nil {
		t.Error("read after close gave a line")
	}
}

// Snapshots are declared unsupported.
func TestSnapshotUnsupported(t *testing.T) {
	r := &Runtime{}
	if _, err := r.Snapshot(t.Context(), runtime.SnapshotSpec{Container: "x"}); !errors.Is(err, runtime.ErrUnsupported) {
		t.Errorf("Snapshot: %v", err)
	}
	if snaps, err := r.ListSnapshots(t.Context(), nil); err != nil || len(snaps) != 0 {
		t.Errorf("ListSnapshots = %v, %v", snaps, err)
	}
}
