package events

import (
	"testing"
	"time"
)

func TestHubDropsTheOldestForSlowSubscribers(t *testing.T) {
	h := &Hub{}
	slow := h.Subscribe()
	defer slow.Close()
	for i := 0; i < SubscriptionBuffer+5; i++ {
		h.Publish(Event{Action: (string(rune('a' + i%26))), At: time.Unix(int64(i), 0)})
	}
	if slow.Dropped() != 5 || len(slow.C) != SubscriptionBuffer {
		t.Fatalf("dropped %d, pending %d; want 5 and %d", slow.Dropped(), len(slow.C), SubscriptionBuffer)
	}
	if first := <-slow.C; first.At.Unix() != 5 {
		t.Errorf("oldest pending event is #%d, want #5 (0-4 dropped)", first.At.Unix())
	}
	var nilHub *Hub
	nilHub.Publish(Event{}) // no subscribers, no hub: nothing kept, no panic
}
