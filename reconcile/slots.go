package reconcile

import (
	"fmt"
	"time"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/queue"
	"github.com/smile-loop/smile/status"
)

// DefaultParallel is the default limit of active runs on this machine
// (queue.DefaultParallel).
func DefaultParallel() int { return queue.DefaultParallel() }

// admit applies the slot limit to a plan: a generation that would start
// without a free slot is queued instead (once: then it waits to be woken),
// an active run keeps its slot, an ended one frees it.
func (r *Reconciler) admit(name string, run *status.Run, plan planner.Plan) planner.Plan {
	s := r.Slots
	if s == nil {
		return plan
	}
	switch {
	case plan.Action == planner.ActInit:
		if s.TryAcquire(name) {
			return plan
		}
		if run != nil && run.Status.Phase == status.PhaseQueued {
			return planner.Plan{Action: planner.ActWait, RequeueAfter: queuedRecheck}
		}
		limit := s.Limit()
		return planner.Plan{Action: planner.ActQueue, Phase: status.PhaseQueued, Reason: status.ReasonQueued,
			Message: fmt.Sprintf("waiting for a free slot: %d run(s) active, at most %d at once (--parallel)", s.Active(), limit)}
	case plan.Phase.Terminal() || plan.Action == planner.ActNone:
		s.Release(name)
	case run != nil && run.Status.Phase != status.PhaseQueued && run.Status.Phase != "":
		s.Hold(name)
	}
	return plan
}

// queuedRecheck is how often a queued run looks for a slot without being
// woken (a slot freeing up wakes it at once).
const queuedRecheck = 5 * time.Second
