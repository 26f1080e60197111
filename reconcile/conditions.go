package reconcile

import (
	"fmt"
	"time"

	"github.com/smile-loop/smile/status"
)

// setConditions derives the run's conditions from its status, so they can
// never disagree with it. LastTransitionTime moves only on a flip.
func setConditions(run *status.Run, now time.Time) {
	st := &run.Status
	gen := run.Metadata.Generation
	set := func(typ string, s status.ConditionStatus, reason, msg string) {
		st.SetCondition(status.Condition{Type: typ, Status: s, Reason: reason, Message: msg, ObservedGeneration: st.ObservedGeneration}, now)
	}

	if st.ObservedGeneration == gen && st.InputDigest == run.Metadata.InputDigest {
		set(status.ConditionUpToDate, status.ConditionTrue, "Current", fmt.Sprintf("the run reflects the current inputs (generation %d)", gen))
	} else {
		set(status.ConditionUpToDate, status.ConditionFalse, "InputsChanged", fmt.Sprintf("the inputs changed: generation %d is not started yet", gen))
	}

	switch {
	case st.Attempt != nil:
		set(status.ConditionContainerReady, status.ConditionTrue, "Running",
			fmt.Sprintf("the %s container %s is running", st.Attempt.Role, st.Attempt.Container))
	case st.Phase.Terminal():
		set(status.ConditionContainerReady, status.ConditionFalse, "Finished", "the loop has ended")
	default:
		set(status.ConditionContainerReady, status.ConditionFalse, "NoContainer", "no container is running for this run right now")
	}

	switch {
	case st.Phase == status.PhaseCompleted:
		set(status.ConditionReady, status.ConditionTrue, "Completed", st.Message)
		set(status.ConditionSucceeded, status.ConditionTrue, "Completed", st.Message)
	case st.Phase.Terminal():
		set(status.ConditionReady, status.ConditionFalse, reasonOr(st.Reason, string(st.Phase)), st.Message)
		set(status.ConditionSucceeded, status.ConditionFalse, reasonOr(st.Reason, string(st.Phase)), st.Message)
	default:
		set(status.ConditionReady, status.ConditionTrue, string(st.Phase), st.Message)
		set(status.ConditionSucceeded, status.ConditionUnknown, "Running", "the loop has not ended")
	}
}

func reasonOr(reason, fallback string) string {
	if reason == "" {
		return fallback
	}
	return reason
}
