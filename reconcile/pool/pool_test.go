package pool_test

import (
	"context"
	"errors"
	"io"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

const image = "smile-base:latest"

// gated holds Start and Remove until their gate opens, so a test sees the
// pool while they are under way.
type gated struct {
	*fake.Runtime
	startGate, removeGate chan struct{}
	entered               chan string // told the name of each start begun
}

func (g *gated) Start(ctx context.Context, cs runtime.ContainerSpec) (runtime.Container, error) {
	if g.entered != nil {
		g.entered <- cs.Name
	}
	if g.startGate != nil {
		<-g.startGate
	}
	return g.Runtime.Start(ctx, cs)
}

func (g *gated) Remove(ctx context.Context, name string) error {
	if g.removeGate != nil {
		<-g.removeGate
	}
	return g.Runtime.Remove(ctx, name)
}

// stream is a hands stream that records its closing.
type stream struct {
	io.Reader
	io.Writer
	closed atomic.Bool
}

func (s *stream) Close() error { s.closed.Store(true); return nil }

func spec(name string) runtime.ContainerSpec {
	return runtime.ContainerSpec{Name: name, Image: image, Labels: map[string]string{"smile.dev/prepared": "true"}}
}

func running(t *testing.T, rt runtime.Runtime, name string) bool {
	t.Helper()
	c, err := rt.Inspect(context.Background(), name)
	return err == nil && c.State == runtime.StateRunning
}

func TestPrepareStartsAndOpensHands(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), startGate: make(chan struct{})}
	p := pool.New(context.Background(), rt, logr.Discard())
	opened := &stream{}
	var before atomic.Bool
	if n := p.Prepare(pool.Item{Spec: spec("run-a-g1-i1-mentor"), Before: func() error { before.Store(true); return nil },
		Open: func(context.Context) (io.ReadWriteCloser, error) { return opened, nil }}); n != 1 {
		t.Fatalf("Prepare took %d containers, want the one", n)
	}
	if n := p.Prepare(pool.Item{Spec: spec("run-a-g1-i1-mentor")}); n != 0 {
		t.Error("Prepare took a container already being prepared")
	}
	if got := p.Preparing("run-a-"); !slices.Equal(got, []string{"run-a-g1-i1-mentor"}) {
		t.Errorf("Preparing(run-a-) = %v while it starts", got)
	}
	if got := p.Preparing("run-b-"); len(got) != 0 {
		t.Errorf("Preparing(run-b-) = %v, want none of another run's", got)
	}
	if p.Await(context.Background(), "run-a-g1-i1-mentor", 20*time.Millisecond) {
		t.Error("Await reported a start that is still held as over")
	}
	close(rt.startGate)
	if !p.Await(context.Background(), "run-a-g1-i1-mentor", 5*time.Second) {
		t.Fatal("Await never saw the preparation end")
	}
	if !before.Load() || !running(t, rt, "run-a-g1-i1-mentor") {
		t.Fatalf("after the preparation: folders made %v, container running %v", before.Load(), running(t, rt, "run-a-g1-i1-mentor"))
	}
	if s := p.Stream("run-a-g1-i1-mentor"); s != opened {
		t.Fatalf("Stream = %v, want the hands opened while preparing", s)
	}
	if s := p.Stream("run-a-g1-i1-mentor"); s != nil {
		t.Errorf("the stream was handed over twice")
	}
	if p.Busy() {
		t.Error("Busy after the preparation ended")
	}
	if n := p.Prepare(pool.Item{Spec: spec("run-a-g1-i1-mentor")}); n != 0 {
		t.Error("Prepare took a container already prepared (its start would replace it)")
	}
}

func TestPrepareGoesInOrder(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), startGate: make(chan struct{})}
	p := pool.New(context.Background(), rt, logr.Discard())
	if n := p.Prepare(pool.Item{Spec: spec("first")}, pool.Item{Spec: spec("second")}); n != 2 {
		t.Fatalf("Prepare took %d, want 2", n)
	}
	rt.startGate <- struct{}{} // one start only
	if !p.Await(context.Background(), "first", 5*time.Second) {
		t.Fatal("the first never got ready")
	}
	if running(t, rt, "second") || p.Await(context.Background(), "second", 20*time.Millisecond) {
		t.Fatal("the second started before its turn")
	}
	close(rt.startGate)
	if !p.Await(context.Background(), "second", 5*time.Second) || !running(t, rt, "second") {
		t.Fatal("the second never got ready")
	}
}

func TestRemoveWaitsForThePreparation(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), startGate: make(chan struct{}), entered: make(chan string, 1)}
	p := pool.New(context.Background(), rt, logr.Discard())
	opened := &stream{}
	p.Prepare(pool.Item{Spec: spec("c1"), Open: func(context.Context) (io.ReadWriteCloser, error) { return opened, nil }})
	<-rt.entered // the start is under way
	var retired atomic.Bool
	p.Remove("c1", func(context.Context) { retired.Store(true) })
	p.Remove("c1", nil) // asked twice: removed once
	if !p.Removing("c1") || !p.Busy() {
		t.Fatal("the removal is not under way")
	}
	close(rt.startGate) // the start ends after the removal was asked for
	p.Wait()
	if _, err := rt.Inspect(context.Background(), "c1"); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Inspect after the removal = %v, want the container gone (not started after it)", err)
	}
	if !retired.Load() || !opened.closed.Load() {
		t.Errorf("retired %v, its hands closed %v; want both", retired.Load(), opened.closed.Load())
	}
	if p.Stream("c1") != nil {
		t.Error("a removed container's stream is still handed out")
	}
}

func TestPrepareWaitsForARemovalOfTheSameName(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), removeGate: make(chan struct{})}
	if _, err := rt.Runtime.Start(context.Background(), spec("c1")); err != nil {
		t.Fatal(err)
	}
	p := pool.New(context.Background(), rt, logr.Discard())
	p.Remove("c1", nil)
	p.Prepare(pool.Item{Spec: spec("c1")})
	close(rt.removeGate)
	p.Wait()
	if !running(t, rt, "c1") {
		t.Fatal("the new container of that name was removed by the earlier removal")
	}
}

func TestRemoveNowRemovesSideBySideAndTellsFailures(t *testing.T) {
	rt := fake.New(image)
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		if _, err := rt.Start(ctx, spec(n)); err != nil {
			t.Fatal(err)
		}
	}
	p := pool.New(ctx, rt, logr.Discard())
	if err := p.RemoveNow(ctx, "a", "b", "never-there"); err != nil {
		t.Fatalf("RemoveNow = %v", err)
	}
	for _, n := range []string{"a", "b"} {
		if _, err := rt.Inspect(ctx, n); !errors.Is(err, runtime.ErrNotFound) {
			t.Errorf("%s after RemoveNow: %v, want gone", n, err)
		}
	}
	if _, err := rt.Start(ctx, spec("c")); err != nil {
		t.Fatal(err)
	}
	rt.SetUnavailable(true)
	if err := p.RemoveNow(ctx, "c"); err == nil {
		t.Fatal("RemoveNow with the engine down = nil, want the removal's error")
	}
}

func TestCloseClosesStreamsNobodyTook(t *testing.T) {
	rt := fake.New(image)
	p := pool.New(context.Background(), rt, logr.Discard())
	opened := &stream{}
	p.Prepare(pool.Item{Spec: spec("c1"), Open: func(context.Context) (io.ReadWriteCloser, error) { return opened, nil }})
	p.Close()
	if !opened.closed.Load() {
		t.Fatal("Close left a prepared container's hands open")
	}
}

// A container asked to go before its turn to be prepared came is never
// started: a finished run does not wait for containers nobody will use.
func TestRemoveSkipsAPreparationNotBegun(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), startGate: make(chan struct{})}
	p := pool.New(context.Background(), rt, logr.Discard())
	p.Prepare(pool.Item{Spec: spec("first")}, pool.Item{Spec: spec("second")})
	p.Remove("second", nil)
	close(rt.startGate)
	p.Wait()
	if _, ok := rt.Spec("second"); ok {
		t.Fatal("the second container was started although it was asked to go before its turn")
	}
	if !running(t, rt, "first") {
		t.Fatal("the first container was not prepared")
	}
	if n := p.Prepare(pool.Item{Spec: spec("second")}); n != 1 {
		t.Fatal("a container skipped once cannot be prepared again")
	}
	p.Wait()
	if !running(t, rt, "second") {
		t.Fatal("the second container was not prepared the second time")
	}
}

func TestStartStartsNowAndTellsWhy(t *testing.T) {
	rt := &gated{Runtime: fake.New(image), startGate: make(chan struct{}), entered: make(chan string, 4)}
	p := pool.New(context.Background(), rt, logr.Discard())
	done := make(chan error, 1)
	go func() { done <- p.Start(context.Background(), pool.Item{Spec: spec("run-a-g1-i1-mentor")}) }()
	<-rt.entered
	if got := p.Preparing("run-a-"); !slices.Equal(got, []string{"run-a-g1-i1-mentor"}) {
		t.Errorf("Preparing(run-a-) = %v while Start waits: a run's end would miss it", got)
	}
	select {
	case err := <-done:
		t.Fatalf("Start returned %v before the container started", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(rt.startGate)
	if err := <-done; err != nil || !running(t, rt, "run-a-g1-i1-mentor") {
		t.Fatalf("Start = %v; running %v", err, running(t, rt, "run-a-g1-i1-mentor"))
	}
	// Started already: no second start.
	if err := p.Start(context.Background(), pool.Item{Spec: spec("run-a-g1-i1-mentor")}); err != nil {
		t.Fatal(err)
	}
	if len(rt.entered) != 0 {
		t.Error("Start started a container the pool had started")
	}
	// A start that fails says why.
	boom := errors.New("no such image")
	err := p.Start(context.Background(), pool.Item{Spec: spec("run-a-g1-i2-mentor"), Before: func() error { return boom }})
	if !errors.Is(err, boom) {
		t.Fatalf("Start = %v, want %v", err, boom)
	}
}
