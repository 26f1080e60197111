package e2e

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
)

// TestHandsTimeoutKillsTheGroup drives a real container the way the
// controller drives a learner's hands: a command that outlives its timeout
// is killed with everything it started in the background, and the session
// carries on, whether each request is one exec (hands-exec) or all go on one
// stream (hands-serve).
func TestHandsTimeoutKillsTheGroup(t *testing.T) {
	bin := smileBinaries(t)
	baseImage(t)
	rt, err := docker.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("exec", func(t *testing.T) {
		handsTimeout(t, rt, bin, func(c string) session.Hands {
			return session.Remote{Exec: func(ctx context.Context, stdin []byte, timeout time.Duration) ([]byte, error) {
				res, err := rt.ExecIO(ctx, c, runtime.ExecRequest{Cmd: []string{wire.ContainerWrapperPath, "hands-exec"}, Stdin: stdin, Timeout: timeout})
				return res.Stdout, err
			}}
		})
	})
	t.Run("stream", func(t *testing.T) {
		handsTimeout(t, rt, bin, func(c string) session.Hands {
			conn, err := rt.ExecStream(context.Background(), c, runtime.ExecRequest{Cmd: []string{wire.ContainerWrapperPath, "hands-serve"}})
			if err != nil {
				t.Fatal(err)
			}
			h := session.NewStream(conn)
			t.Cleanup(func() { _ = h.Close() })
			return h
		})
	})
}

func handsTimeout(t *testing.T, rt runtime.Runtime, bin string, hands func(container string) session.Hands) {
	ctx := context.Background()
	name := "hd-hands-" + strings.ToLower(strings.ReplaceAll(t.Name(), "/", "-"))
	c, err := rt.Start(ctx, runtime.ContainerSpec{
		Name: name, Image: "smile-base:latest",
		Cmd:    []string{wire.ContainerWrapperPath, "idle"},
		Labels: map[string]string{runtime.LabelOwner: "hd-e2e"},
		Mounts: []runtime.Mount{{Source: filepath.Join(bin, "smile-wrapper"), Target: wire.ContainerWrapperPath, ReadOnly: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = rt.Remove(context.Background(), c.Name) })
	s, err := session.NewWith(ctx, hands(c.Name), "/tmp", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	steps := []struct {
		command  string
		timeout  time.Duration
		timedOut bool
		output   string
	}{
		{"cd /etc && export MARK=kept", 10 * time.Second, false, ""},
		{"(sleep 300 &) ; sleep 301 & sleep 302", time.Second, true, ""},
		{"ls -l /proc/[0-9]*/exe 2>/dev/null | grep -c /sleep; pwd; echo $MARK", 10 * time.Second, false, "0\n/etc\nkept\n"},
	}
	for _, st := range steps {
		res, err := s.Run(ctx, st.command, st.timeout)
		if err != nil {
			t.Fatalf("Run(%q): %v", st.command, err)
		}
		if res.TimedOut != st.timedOut || (st.output != "" && res.Output != st.output) {
			t.Fatalf("Run(%q) = timed out %v, output %q; want %v, %q", st.command, res.TimedOut, res.Output, st.timedOut, st.output)
		}
	}
}
