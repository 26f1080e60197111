// Package unwritable tells when a run must end because its files cannot be
// written: a full disk (or a quota, or a filesystem remounted read-only)
// refuses every write of a run, its state, its inbox and its reports, and
// retrying for good would keep its containers, and its apply --wait, as long.
// A run ends after Tries reconciles in a row failed so (the work queue's
// backoff retries them, 100 then 200 ms apart, in case space comes back), or
// at once when a result could not be kept: it is lost.
package unwritable

import (
	"errors"
	"fmt"
	"sync"
	"syscall"
)

// Tries is how many reconciles of a run in a row may fail to write for want
// of space before the run ends.
const Tries = 3

// Is reports whether err is a write the filesystem refused for want of space
// or of write access, which the same write would meet again.
func Is(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) || errors.Is(err, syscall.EROFS)
}

// Runs is what a controller knows of its runs' failed writes. The zero Runs
// is ready; it is safe for concurrent use.
type Runs struct {
	mu sync.Mutex
	m  map[string]*entry
}

type entry struct {
	fails int    // reconciles in a row whose writes failed for want of space
	lost  error  // why a result could not be kept
	ended string // the inputs' digest the run ended for, once it has
}

// get is the run's entry, made on first use; r.mu is held.
func (r *Runs) get(name string) *entry {
	if r.m == nil {
		r.m = map[string]*entry{}
	}
	if r.m[name] == nil {
		r.m[name] = &entry{}
	}
	return r.m[name]
}

// Failed counts a reconcile of the run that ended with err: one whose writes
// failed for want of space adds to the count, any other starts it again. It
// reports whether the run must end now.
func (r *Runs) Failed(name string, err error) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.get(name)
	if !Is(err) {
		e.fails = 0
		return false
	}
	e.fails++
	return e.fails >= Tries
}

// Lose records that a result of the run could not be kept: it must end.
func (r *Runs) Lose(name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.get(name).lost = fmt.Errorf("keep the attempt's result: %w", err)
}

// Lost is why a result of the run could not be kept, nil when none was lost.
func (r *Runs) Lost(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.get(name).lost
}

// End records that the run ended for the inputs of digest.
func (r *Runs) End(name, digest string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.get(name) = entry{ended: digest}
}

// Ended reports whether the run ended, for the inputs of digest, because its
// files could not be written: it is not to be reconciled again for them.
func (r *Runs) Ended(name, digest string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.m[name]
	return e != nil && e.ended != "" && e.ended == digest
}

// Forget drops what is known of the run (it was deleted).
func (r *Runs) Forget(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, name)
}
