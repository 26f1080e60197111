// Package events fans a run's transitions and progress reports out to the
// controller's observers (the WebSocket clients, an `apply --wait`) without
// ever blocking the loop. The controller publishes; the HTTP server and the
// manager subscribe.
package events

import (
	"sync"
	"time"

	"github.com/smile-loop/smile/status"
)

// Event is one transition of a run, or a progress report of its current
// attempt, as observers see it.
type Event struct {
	// Run is the status after the transition (for progress: as last written).
	Run *status.Run
	// Action is the planner's action that made the transition.
	Action string
	At     time.Time
	// Progress is set (and Action is ActProgress) when the attempt reported
	// what it is doing; no status was written.
	Progress *Progress
}

// ActProgress marks an Event that is a progress report, not a transition.
const ActProgress = "Progress"

// Progress is the last thing an attempt said it was doing.
type Progress struct {
	Step string    `json:"step"`
	Line int       `json:"line,omitempty"`
	At   time.Time `json:"at"`
}

// Hub fans transitions out to subscribers without ever blocking the loop: a
// subscriber that falls behind loses its oldest events (E17), and with no
// subscribers nothing is kept (E15).
type Hub struct {
	mu   sync.Mutex
	subs map[*Subscription]struct{}
}

// SubscriptionBuffer is how many events a slow subscriber may have pending.
const SubscriptionBuffer = 100

// Subscription receives events on C until it is closed.
type Subscription struct {
	C       chan Event
	hub     *Hub
	dropped int
}

// Subscribe starts receiving events.
func (h *Hub) Subscribe() *Subscription {
	s := &Subscription{C: make(chan Event, SubscriptionBuffer), hub: h}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs == nil {
		h.subs = map[*Subscription]struct{}{}
	}
	h.subs[s] = struct{}{}
	return s
}

// Close stops the subscription.
func (s *Subscription) Close() {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	delete(s.hub.subs, s)
}

// Dropped is how many events this subscriber lost by being slow.
func (s *Subscription) Dropped() int {
	s.hub.mu.Lock()
	defer s.hub.mu.Unlock()
	return s.dropped
}

// Publish delivers an event to every subscriber, dropping a slow
// subscriber's oldest pending event to make room. A nil Hub ignores it.
func (h *Hub) Publish(e Event) {
	if h == nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs {
		for {
			select {
			case s.C <- e:
			default:
				select {
				case <-s.C:
					s.dropped++
				default:
				}
				continue
			}
			break
		}
	}
}

// Subscribers counts the observers connected right now (WebSocket clients,
// an `apply --wait` following its run).
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}
