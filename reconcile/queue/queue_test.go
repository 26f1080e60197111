package queue

import (
	"testing"
	"time"
)

func TestQueueDeduplicatesAndRequeuesDirtyNames(t *testing.T) {
	q := NewQueue()
	q.Add("a")
	q.Add("a")
	q.Add("b")
	if q.Len() != 2 {
		t.Fatalf("len %d, want 2 (a queued once)", q.Len())
	}
	name, _ := q.Get()
	if name != "a" {
		t.Fatalf("got %s, want a (FIFO)", name)
	}
	q.Add("a") // while a is processed: it must wait for Done
	if q.Len() != 1 {
		t.Fatalf("len %d, want 1: a is being processed", q.Len())
	}
	q.Done("a")
	if q.Len() != 2 {
		t.Fatalf("len %d, want 2: a requeued after Done", q.Len())
	}
}

func TestQueueAddAfterAndBackoff(t *testing.T) {
	q := NewQueue()
	q.BaseDelay = 10 * time.Millisecond
	start := time.Now()
	q.AddAfter("a", 30*time.Millisecond)
	q.AddAfter("a", 20*time.Millisecond) // the latest delay replaces the earlier
	name, ok := q.Get()
	if !ok || name != "a" {
		t.Fatalf("Get = %s %v", name, ok)
	}
	if d := time.Since(start); d < 20*time.Millisecond || d > 500*time.Millisecond {
		t.Errorf("delayed add arrived after %s, want about 20ms", d)
	}
	q.Done("a")
	for i, want := range []time.Duration{10, 20, 40} {
		start = time.Now()
		q.AddRateLimited("a")
		q.Get()
		q.Done("a")
		if d := time.Since(start); d < want*time.Millisecond {
			t.Errorf("failure %d backed off %s, want at least %dms", i+1, d, want)
		}
	}
	q.Forget("a")
	start = time.Now()
	q.AddRateLimited("a")
	q.Get()
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("after Forget the backoff restarts at the base delay, waited %s", d)
	}
}

func TestQueueShutDownWakesGet(t *testing.T) {
	q := NewQueue()
	done := make(chan bool)
	go func() { _, ok := q.Get(); done <- ok }()
	time.Sleep(10 * time.Millisecond)
	q.ShutDown()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("Get after shutdown returned an item")
		}
	case <-time.After(time.Second):
		t.Fatal("Get did not wake on shutdown")
	}
}
