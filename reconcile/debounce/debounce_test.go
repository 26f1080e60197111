package debounce

import (
	"sync/atomic"
	"testing"
	"time"
)

// A save that writes in steps further apart than the wait (truncate, a
// pause, write) runs the run's function once, after the last step; the
// flags of the steps are or-ed.
func TestDebouncerWaitsForQuiet(t *testing.T) {
	var q Debouncer
	var runs atomic.Int32
	got := make(chan bool, 4)
	fn := func(flag bool) { runs.Add(1); got <- flag }
	const wait = 80 * time.Millisecond
	q.After("demo", true, wait, fn) // truncate: the manifest
	time.Sleep(wait / 2)
	q.After("demo", false, wait, fn) // a write
	time.Sleep(wait / 2)
	q.After("demo", false, wait, fn) // another, wait+ after the first
	select {
	case <-got:
		t.Fatal("ran before the files had been quiet for the wait")
	case <-time.After(wait / 2):
	}
	select {
	case flag := <-got:
		if !flag {
			t.Error("the manifest flag of the first event was lost")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("never ran")
	}
	time.Sleep(2 * wait)
	if n := runs.Load(); n != 1 {
		t.Errorf("ran %d times, want once", n)
	}
	// Another run's events wait on their own.
	q.After("other", false, wait, fn)
	select {
	case flag := <-got:
		if flag {
			t.Error("a flag carried over from the last save")
		}
	case <-time.After(2 * time.Second):
		t.Fatal("never ran for the other run")
	}
}
