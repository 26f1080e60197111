package brains

import (
	"context"
	"testing"
)

func TestSetRunsStopsAndReplaces(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := New(ctx)
	started := make(chan context.Context, 2)
	block := func(ctx context.Context) { started <- ctx; <-ctx.Done() }

	s.Start("a", block)
	first := <-started
	if !s.Running("a") || s.Running("b") {
		t.Fatalf("running a %v, b %v; want a only", s.Running("a"), s.Running("b"))
	}
	s.Start("a", block) // replaces the first brain of the attempt
	second := <-started
	<-first.Done()
	if second.Err() != nil || !s.Running("a") {
		t.Fatalf("the replacing brain must keep running (err %v)", second.Err())
	}
	s.Stop("a")
	<-second.Done()
	if s.Running("a") {
		t.Fatal("a stopped brain still counts as running")
	}

	done := make(chan struct{})
	s.Start("b", func(context.Context) { close(done) })
	<-done
	s.Wait()
	if s.Running("b") {
		t.Error("a brain that returned still counts as running")
	}
	s.Start("c", block)
	<-started
	cancel() // the controller's context ends every brain
	s.Wait()
}
