package reconcile

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

// streamHands makes the fake engine's containers stream: a hands-serve
// answers each line with session.Serve in this process, as localHands does
// for one exec, and hangs up after breakAfter requests (0: never). ended
// gives a channel closed when a container's (first) stream has ended.
func streamHands(t *testing.T, h *harness, breakAfter int) (ended func(container string) chan struct{}) {
	var chans sync.Map
	ended = func(name string) chan struct{} {
		c, _ := chans.LoadOrStore(name, make(chan struct{}))
		return c.(chan struct{})
	}
	ready := filepath.Join(t.TempDir(), "ready")
	write(t, ready, "")
	h.rt.SetExecStream(func(ctx context.Context, name string, req runtime.ExecRequest, stdin io.Reader, stdout io.Writer) error {
		if !slices.Equal(req.Cmd, []string{wire.ContainerWrapperPath, wrappers.CmdHandsServe}) {
			t.Errorf("stream %q in %s, want only the wrapper's hands-serve", req.Cmd, name)
		}
		if c := ended(name); !isClosed(c) {
			defer close(c)
		}
		cs, _ := h.rt.Spec(name)
		work := cs.Mounts[1].Source
		br := bufio.NewReader(stdin)
		for n := 1; ; n++ {
			line, err := br.ReadString('\n')
			if err != nil {
				return nil
			}
			if n == breakAfter {
				return errors.New("the stream broke")
			}
			in := strings.NewReplacer(wire.ContainerWorkDir, work, wrappers.ReadyFile, ready).Replace(line)
			var out bytes.Buffer
			if err := session.Serve(ctx, strings.NewReader(in), &out); err != nil {
				return err
			}
			if _, err := io.WriteString(stdout, strings.ReplaceAll(out.String(), work, wire.ContainerWorkDir)); err != nil {
				return err
			}
		}
	})
	return ended
}

// TestBrainHandsStream checks the learner's hands go on one stream per
// attempt, and fall back to one exec per request when it breaks (here on
// its second request, the session's init, which is sent again), with the
// same result either way.
func TestBrainHandsStream(t *testing.T) {
	for _, tt := range []struct {
		name       string
		breakAfter int
		wantExecs  bool
	}{{"one stream", 0, false}, {"broken stream", 2, true}} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "")
			write(t, filepath.Join(h.dir, "tutorial.md"), "# Demo\n\nRun it:\n\n```bash\necho hello > out.txt\ncat missing.txt\n```\n")
			localHands(t, h)
			ended := streamHands(t, h, tt.breakAfter)
			woken := startBrains(t, h)
			run := h.settleUntil(woken, "the Student's result", func(r *status.Run) bool { return len(r.Status.History) == 1 })
			out := run.Status.History[0].StudentOutput
			if len(out.Findings) == 0 || out.Findings[0].Line != 7 {
				t.Fatalf("findings %+v, want one at line 7 (cat missing.txt)", out.Findings)
			}
			if data, err := os.ReadFile(filepath.Join(h.workDir(1), "out.txt")); err != nil || string(data) != "hello\n" {
				t.Fatalf("out.txt in the work folder = %q, %v", data, err)
			}
			select { // the attempt closed its stream
			case <-ended(containerOf(t, h, status.RoleStudent)):
			case <-time.After(10 * time.Second):
				t.Fatal("the stream is still open after the attempt")
			}
			var serves, execs int
			for _, cmd := range h.rt.Execs(containerOf(t, h, status.RoleStudent)) {
				switch cmd[len(cmd)-1] {
				case wrappers.CmdHandsServe:
					serves++
				case wrappers.CmdHands:
					execs++
				}
			}
			if serves != 1 || (execs > 0) != tt.wantExecs {
				t.Fatalf("%d streams and %d hands-exec, want 1 stream and hands-exec %v", serves, execs, tt.wantExecs)
			}
		})
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}
