// Package brains runs the in-process learners ("brains") of a controller:
// one goroutine per attempt, keyed by the attempt's container name, ended
// with the controller's context or one by one.
package brains

import (
	"context"
	"sync"
)

// Set is the learners a controller runs, one goroutine per attempt.
// They die with the process: a restarted controller finds none and the
// planner starts the attempt again in a fresh container.
type Set struct {
	mu      sync.Mutex
	base    context.Context
	running map[string]context.CancelFunc // by attempt (container name)
	wg      sync.WaitGroup
}

// New returns a Set whose goroutines end with ctx.
func New(ctx context.Context) *Set {
	return &Set{base: ctx, running: map[string]context.CancelFunc{}}
}

// Running reports whether the attempt's brain is still at work.
func (b *Set) Running(attempt string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.running[attempt]
	return ok
}

// Start runs f for the attempt, replacing a brain already running for it.
func (b *Set) Start(attempt string, f func(ctx context.Context)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cancel, ok := b.running[attempt]; ok {
		cancel()
	}
	ctx, cancel := context.WithCancel(b.base)
	b.running[attempt] = cancel
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		defer cancel()
		f(ctx)
		b.mu.Lock()
		defer b.mu.Unlock()
		if _, ok := b.running[attempt]; ok && ctx.Err() == nil {
			delete(b.running, attempt)
		}
	}()
}

// Stop ends the attempt's brain, if it runs.
func (b *Set) Stop(attempt string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if cancel, ok := b.running[attempt]; ok {
		cancel()
		delete(b.running, attempt)
	}
}

// Wait waits for every brain to return (after their context ended).
func (b *Set) Wait() { b.wg.Wait() }
