package reconcile

import (
	"context"
	"time"
)

// Busy reports whether the controller has work or an audience: a run whose
// loop has not ended, a container being prepared or removed, or an observer
// subscribed to its events.
func (m *Manager) Busy() bool {
	if m.hub.Subscribers() > 0 || m.rec.containers().Busy() {
		return true
	}
	for _, name := range m.Names() {
		if run, err := m.Run(name); err == nil && !run.Status.Phase.Terminal() {
			return true
		}
	}
	return false
}

// ExitWhenIdle calls stop once the controller has not been Busy for idle
// without a break, checking every poll. It returns when ctx ends or after
// calling stop. An idle of 0 never stops.
func (m *Manager) ExitWhenIdle(ctx context.Context, idle, poll time.Duration, stop func()) {
	if idle <= 0 {
		return
	}
	since := time.Now()
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if m.Busy() {
				since = now
				continue
			}
			if now.Sub(since) >= idle {
				m.log.Info("Idle: no active run and no observer, exiting", "idleFor", now.Sub(since).Round(time.Second).String())
				stop()
				return
			}
		}
	}
}
