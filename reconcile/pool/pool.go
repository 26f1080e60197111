// Package pool keeps container start-up and removal off the loop's
// critical path: it starts the next role's container (and opens its hands)
// while the current attempt works, and removes finished containers in the
// background. The controller waits for it before it exits; a controller
// killed before a removal ends leaves an orphan that the next one removes
// (E19).
package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
)

// Pool is one controller's containers in preparation and in removal, by
// name.
type Pool struct {
	rt   runtime.Runtime
	base context.Context
	log  logr.Logger

	mu        sync.Mutex
	preparing map[string]chan struct{}      // closed when the start is over
	streams   map[string]io.ReadWriteCloser // hands opened while preparing
	removing  map[string]chan struct{}      // closed when the removal is over
	failed    map[string]error              // why the last removal failed
	unstarted map[string]error              // why the last preparation failed
	ready     map[string]bool               // prepared, until removed
	wg        sync.WaitGroup
}

// New returns a pool working on rt; its streams live as long as ctx.
func New(ctx context.Context, rt runtime.Runtime, log logr.Logger) *Pool {
	return &Pool{rt: rt, base: ctx, log: log, preparing: map[string]chan struct{}{},
		streams: map[string]io.ReadWriteCloser{}, removing: map[string]chan struct{}{}, failed: map[string]error{},
		unstarted: map[string]error{}, ready: map[string]bool{}}
}

// Item is one container to prepare: before makes the folders it mounts,
// open the hands the attempt's learner will use (either may be nil).
type Item struct {
	Spec   runtime.ContainerSpec
	Before func() error
	Open   func(ctx context.Context) (io.ReadWriteCloser, error)
}

// Prepare starts the items' containers in the background, one after the
// other in the order given (the first is needed first), each after any
// removal of a container of its name. A container already prepared, or
// being prepared, is left alone. It returns how many it took.
func (p *Pool) Prepare(items ...Item) int {
	type job struct {
		Item
		done, removal chan struct{}
	}
	var jobs []job
	p.mu.Lock()
	for _, it := range items {
		name := it.Spec.Name
		if _, busy := p.preparing[name]; busy || p.ready[name] {
			continue
		}
		j := job{Item: it, done: make(chan struct{}), removal: p.removing[name]}
		p.preparing[name] = j.done
		jobs = append(jobs, j)
	}
	p.mu.Unlock()
	if len(jobs) == 0 {
		return 0
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for _, j := range jobs {
			if j.removal != nil {
				<-j.removal // an earlier container of that name goes first
			}
			p.mu.Lock()
			_, unwanted := p.removing[j.Spec.Name] // asked to go before its turn came
			p.mu.Unlock()
			var err error
			if !unwanted {
				err = p.prepare(j.Item)
			}
			if err != nil {
				p.log.Info("Could not prepare a container", "container", j.Spec.Name, "error", err.Error())
			}
			p.mu.Lock()
			delete(p.preparing, j.Spec.Name)
			delete(p.unstarted, j.Spec.Name)
			switch {
			case err != nil:
				p.unstarted[j.Spec.Name] = err
			case !unwanted:
				p.ready[j.Spec.Name] = true
			}
			p.mu.Unlock()
			close(j.done)
		}
	}()
	return len(jobs)
}

func (p *Pool) prepare(it Item) error {
	if it.Before != nil {
		if err := it.Before(); err != nil {
			return err
		}
	}
	ctx := context.WithoutCancel(p.base)
	if _, err := p.rt.Start(ctx, it.Spec); err != nil {
		return err
	}
	if it.Open == nil {
		return nil
	}
	s, err := it.Open(p.base)
	if err != nil {
		return nil // the attempt opens its own hands
	}
	p.mu.Lock()
	if old := p.streams[it.Spec.Name]; old != nil {
		_ = old.Close()
	}
	p.streams[it.Spec.Name] = s
	p.mu.Unlock()
	return nil
}

// Start starts the item's container now, unless it is prepared or being
// prepared already, and waits for it: a container started when its attempt
// first needs it (reconcile's on-demand Mentor). The pool keeps it in its
// books as it would a prepared one, so a run's end removes it even while
// it starts.
func (p *Pool) Start(ctx context.Context, it Item) error {
	name := it.Spec.Name
	p.Prepare(it)
	p.mu.Lock()
	done := p.preparing[name]
	p.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.ready[name]:
		return nil
	case p.unstarted[name] != nil:
		return p.unstarted[name]
	}
	return fmt.Errorf("container %s was removed before it could start", name)
}

// Await waits until the container's preparation, if one is under way, is
// over, for limit at most. It reports false when it was not over in time.
func (p *Pool) Await(ctx context.Context, name string, limit time.Duration) bool {
	p.mu.Lock()
	done := p.preparing[name]
	p.mu.Unlock()
	if done == nil {
		return true
	}
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case <-done:
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return false
}

// Stream hands over the hands opened for the container while it was
// prepared, or nil; the caller closes it.
func (p *Pool) Stream(name string) io.ReadWriteCloser {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.streams[name]
	delete(p.streams, name)
	return s
}

// Remove removes the container in the background, once however often it is
// asked, after its preparation if one is under way. retire, when set, runs
// first (the seed's cleanup script). A container that is gone already is
// no error.
func (p *Pool) Remove(name string, retire func(ctx context.Context)) {
	p.mu.Lock()
	if _, busy := p.removing[name]; busy || name == "" {
		p.mu.Unlock()
		return
	}
	done := make(chan struct{})
	p.removing[name] = done
	delete(p.failed, name)
	delete(p.ready, name)
	prep := p.preparing[name]
	if s := p.streams[name]; s != nil {
		_ = s.Close()
		delete(p.streams, name)
	}
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		defer func() {
			p.mu.Lock()
			delete(p.removing, name)
			p.mu.Unlock()
			close(done)
		}()
		if prep != nil {
			<-prep
			p.mu.Lock()
			if s := p.streams[name]; s != nil {
				_ = s.Close()
				delete(p.streams, name)
			}
			p.mu.Unlock()
		}
		ctx := context.WithoutCancel(p.base)
		if retire != nil {
			retire(ctx)
		}
		if err := p.rt.Remove(ctx, name); err != nil && !errors.Is(err, runtime.ErrNotFound) {
			p.log.Info("Could not remove a container", "container", name, "error", err.Error())
			p.mu.Lock()
			p.failed[name] = err
			p.mu.Unlock()
		}
	}()
}

// RemoveNow removes the containers at once, side by side, and waits for
// them and for any removal of theirs already under way. It returns why any
// could not be removed.
func (p *Pool) RemoveNow(ctx context.Context, names ...string) error {
	for _, name := range names {
		p.Remove(name, nil)
	}
	var errs []error
	for _, name := range names {
		if err := p.AwaitRemoval(ctx, name); err != nil {
			return err
		}
		p.mu.Lock()
		err := p.failed[name]
		delete(p.failed, name)
		p.mu.Unlock()
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// AwaitRemoval waits until the container's removal, if one is under way, is
// over; it returns the context's error when that ends first.
func (p *Pool) AwaitRemoval(ctx context.Context, name string) error {
	p.mu.Lock()
	done := p.removing[name]
	p.mu.Unlock()
	if done == nil {
		return nil
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Preparing returns the names of the containers being prepared that begin
// with prefix.
func (p *Pool) Preparing(prefix string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for name := range p.preparing {
		if strings.HasPrefix(name, prefix) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Removing reports whether the container's removal is under way.
func (p *Pool) Removing(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	_, ok := p.removing[name]
	return ok
}

// Busy reports whether any preparation or removal is under way.
func (p *Pool) Busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.preparing) > 0 || len(p.removing) > 0
}

// Wait waits for every preparation and removal under way to end.
func (p *Pool) Wait() { p.wg.Wait() }

// Close waits (Wait), then closes the streams nobody took.
func (p *Pool) Close() {
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	for name, s := range p.streams {
		_ = s.Close()
		delete(p.streams, name)
	}
}
