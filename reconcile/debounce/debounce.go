// Package debounce runs a function once a key's events have gone quiet: the
// controller reconciles a run when its input files have had no event for a
// while, since editors write a file in several steps.
package debounce

import (
	"sync"
	"time"
)

// Debouncer runs a key's function once the key has had no event for a
// while: each event starts the wait again. What the events said is or-ed
// (here: whether the manifest must be read again).
type Debouncer struct {
	mu    sync.Mutex
	state map[string]*pending
}

type pending struct {
	timer *time.Timer
	seq   int  // the event the timer waits after
	flag  bool // or of the events' flags
}

// After (re)starts key's wait of d; fn gets the or of the flags of the
// events since the last run.
func (q *Debouncer) After(key string, flag bool, d time.Duration, fn func(flag bool)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.state == nil {
		q.state = map[string]*pending{}
	}
	p := q.state[key]
	if p == nil {
		p = &pending{}
		q.state[key] = p
	} else {
		p.timer.Stop()
	}
	p.seq++
	p.flag = p.flag || flag
	seq := p.seq
	p.timer = time.AfterFunc(d, func() {
		q.mu.Lock()
		if q.state[key] != p || p.seq != seq {
			q.mu.Unlock() // a later event restarted the wait
			return
		}
		delete(q.state, key)
		flag := p.flag
		q.mu.Unlock()
		fn(flag)
	})
}
