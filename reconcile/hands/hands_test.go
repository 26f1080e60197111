package hands_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/reconcile/hands"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/wrappers"
)

const image = "smile-base:latest"

// engine is a fake engine whose containers answer hands-serve with this
// machine's hands, their ready file being one of the test's.
func engine(t *testing.T) *fake.Runtime {
	t.Helper()
	ready := filepath.Join(t.TempDir(), "ready")
	if err := os.WriteFile(ready, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	rt := fake.New(image)
	rt.SetExecStream(func(ctx context.Context, _ string, _ runtime.ExecRequest, stdin io.Reader, stdout io.Writer) error {
		pr, pw := io.Pipe()
		go func() {
			sc := bufio.NewScanner(stdin)
			sc.Buffer(make([]byte, 1<<20), session.MaxRequestBytes)
			for sc.Scan() {
				_, _ = pw.Write([]byte(strings.ReplaceAll(sc.Text(), wrappers.ReadyFile, ready) + "\n"))
			}
			_ = pw.CloseWithError(sc.Err())
		}()
		return session.ServeStream(ctx, pr, stdout)
	})
	return rt
}

func item(rt runtime.Runtime, name string) pool.Item {
	return pool.Item{Spec: runtime.ContainerSpec{Name: name, Image: image},
		Open: func(ctx context.Context) (io.ReadWriteCloser, error) { return hands.Open(ctx, rt, name) }}
}

func TestOnDemandStartsItsContainerOnTheFirstRequest(t *testing.T) {
	ctx := context.Background()
	rt := engine(t)
	h := hands.NewOnDemand(ctx, rt, pool.New(ctx, rt, logr.Discard()), item(rt, "run-g1-i1-mentor"))
	defer h.Close()
	if got := rt.Started(); len(got) != 0 {
		t.Fatalf("started %q before any request", got)
	}
	file := filepath.Join(t.TempDir(), "seen")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, ok, err := session.Stat(ctx, h, file); err != nil || !ok {
			t.Fatalf("stat through the container: %v, %v", ok, err)
		}
	}
	if got := rt.Started(); !slices.Equal(got, []string{"run-g1-i1-mentor"}) {
		t.Fatalf("started %q, want the container once", got)
	}
	// One hands-serve for all the requests: the stream the pool opened.
	if n := len(rt.Execs("run-g1-i1-mentor")); n != 1 {
		t.Errorf("%d execs in the container, want the one hands-serve", n)
	}
}

func TestOnDemandSaysWhyItCouldNotStart(t *testing.T) {
	ctx := context.Background()
	rt := engine(t)
	boom := errors.New("no space left on device")
	rt.FailNextStart(boom)
	h := hands.NewOnDemand(ctx, rt, pool.New(ctx, rt, logr.Discard()), item(rt, "run-g1-i1-mentor"))
	defer h.Close()
	for range 2 { // the failure stays: the attempt reports it, it does not start another
		_, _, err := session.Stat(ctx, h, "/etc")
		if !errors.Is(err, boom) || !strings.Contains(err.Error(), "run-g1-i1-mentor") {
			t.Fatalf("stat: %v, want the start's failure naming the container", err)
		}
	}
	if got := rt.Started(); len(got) != 0 {
		t.Errorf("started %q after a failed start", got)
	}
}

func TestOnDemandClosedStartsNothing(t *testing.T) {
	ctx := context.Background()
	rt := engine(t)
	h := hands.NewOnDemand(ctx, rt, pool.New(ctx, rt, logr.Discard()), item(rt, "run-g1-i1-mentor"))
	h.Close()
	if _, _, err := session.Stat(ctx, h, "/etc"); err == nil {
		t.Fatal("a request after Close was answered")
	}
	if got := rt.Started(); len(got) != 0 {
		t.Errorf("started %q after Close", got)
	}
}
