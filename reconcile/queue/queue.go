// Package queue is the controller's work queue of run names.
package queue

import (
	"sync"
	"time"
)

// Queue is a work queue of run names in the manner of client-go's: a name is
// queued at most once, is handed to one worker at a time (a name added while
// it is being processed is queued again when the worker is done), can be
// added after a delay, and failing names back off exponentially.
//
// It is small enough to own rather than import client-go for it.
type Queue struct {
	mu         sync.Mutex
	cond       *sync.Cond
	order      []string
	queued     map[string]bool
	processing map[string]bool
	dirty      map[string]bool
	timers     map[string]*time.Timer
	failures   map[string]int
	shutdown   bool

	// BaseDelay and MaxDelay bound the backoff of failing names.
	BaseDelay, MaxDelay time.Duration
}

// NewQueue returns an empty queue.
func NewQueue() *Queue {
	q := &Queue{
		queued:     map[string]bool{},
		processing: map[string]bool{},
		dirty:      map[string]bool{},
		timers:     map[string]*time.Timer{},
		failures:   map[string]int{},
		BaseDelay:  100 * time.Millisecond,
		MaxDelay:   30 * time.Second,
	}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Add queues a name now.
func (q *Queue) Add(name string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.addLocked(name)
}

func (q *Queue) addLocked(name string) {
	if q.shutdown {
		return
	}
	if q.processing[name] {
		q.dirty[name] = true
		return
	}
	if q.queued[name] {
		return
	}
	q.queued[name] = true
	q.order = append(q.order, name)
	q.cond.Signal()
}

// AddAfter queues a name after d, replacing a pending delayed add of the same
// name: the latest reconcile knows the nearest deadline best.
func (q *Queue) AddAfter(name string, d time.Duration) {
	if d <= 0 {
		q.Add(name)
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.shutdown {
		return
	}
	if t, ok := q.timers[name]; ok {
		t.Stop() // if it already fired, its Add is harmless
		delete(q.timers, name)
	}
	q.timers[name] = time.AfterFunc(d, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		delete(q.timers, name)
		q.addLocked(name)
	})
}

// AddRateLimited queues a name after its backoff: 100 ms, doubling per
// consecutive failure, capped at 30 s.
func (q *Queue) AddRateLimited(name string) {
	q.mu.Lock()
	n := q.failures[name]
	q.failures[name] = n + 1
	q.mu.Unlock()
	d := q.BaseDelay << min(n, 20)
	if d > q.MaxDelay || d <= 0 {
		d = q.MaxDelay
	}
	q.AddAfter(name, d)
}

// Forget resets a name's backoff after a success.
func (q *Queue) Forget(name string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.failures, name)
}

// Get blocks until a name is ready or the queue shuts down.
func (q *Queue) Get() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.order) == 0 && !q.shutdown {
		q.cond.Wait()
	}
	if q.shutdown {
		return "", false
	}
	name := q.order[0]
	q.order = q.order[1:]
	delete(q.queued, name)
	q.processing[name] = true
	return name, true
}

// Done marks a name processed; if it was added meanwhile it is queued again.
func (q *Queue) Done(name string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.processing, name)
	if q.dirty[name] {
		delete(q.dirty, name)
		q.addLocked(name)
	}
}

// Len is how many names wait to be processed.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.order)
}

// ShutDown wakes every waiting Get and drops what is queued.
func (q *Queue) ShutDown() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.shutdown = true
	for name, t := range q.timers {
		t.Stop()
		delete(q.timers, name)
	}
	q.cond.Broadcast()
}
