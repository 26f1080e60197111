package queue

import "testing"

// Slots go to runs in the order they first asked; a released slot goes to
// the oldest waiter, never to a newcomer; a larger limit wakes the queue.
func TestSlotsFIFO(t *testing.T) {
	woken := 0
	s := NewSlots(2, func() { woken++ })
	for _, n := range []string{"a", "b"} {
		if !s.TryAcquire(n) {
			t.Fatalf("TryAcquire(%s) = false with a free slot", n)
		}
	}
	if s.TryAcquire("c") || s.TryAcquire("d") {
		t.Fatal("TryAcquire beyond the limit = true")
	}
	s.Release("a")
	if woken != 1 {
		t.Errorf("a released slot woke the queue %d times, want 1", woken)
	}
	if s.TryAcquire("d") {
		t.Error("d took the slot c waits for")
	}
	if !s.TryAcquire("c") {
		t.Error("c, first in the queue, did not get the freed slot")
	}
	if !s.TryAcquire("c") {
		t.Error("c lost its slot when it asked again")
	}
	s.SetLimit(3)
	if woken != 2 || !s.TryAcquire("d") || s.Active() != 3 {
		t.Errorf("after SetLimit(3): woken %d, active %d, want 2 and d holding a slot", woken, s.Active())
	}
	s.Hold("e") // found active after a restart: over the limit, it goes on
	if s.Active() != 4 {
		t.Errorf("Hold: active %d, want 4", s.Active())
	}
	if DefaultParallel() < 1 {
		t.Errorf("DefaultParallel() = %d", DefaultParallel())
	}
}
