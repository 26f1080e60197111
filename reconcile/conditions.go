package reconcile

import (
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile/status"
)

// setConditions derives the run's conditions from its status, so they can
// never disagree with it. LastTransitionTime moves only on a flip.
func setConditions(run *status.Run, now time.Time) {
	st := &run.Status
	gen := run.Metadata.Generation
	set := func(typ string, s status.ConditionStatus, reason status.Reason, msg string) {
		st.SetCondition(status.Condition{Type: typ, Status: s, Reason: reason, Message: msg, ObservedGeneration: st.ObservedGeneration}, now)
	}

	if st.ObservedGeneration == gen && st.InputDigest == run.Metadata.InputDigest {
		set(status.ConditionUpToDate, status.ConditionTrue, status.ReasonCurrent, fmt.Sprintf("the run reflects the current inputs (generation %d)", gen))
	} else {
		set(status.ConditionUpToDate, status.ConditionFalse, status.ReasonInputsChanged, fmt.Sprintf("the inputs changed: generation %d is not started yet", gen))
	}

	switch {
	case st.Attempt != nil:
		set(status.ConditionContainerReady, status.ConditionTrue, status.ReasonRunning,
			fmt.Sprintf("the %s container %s is running", st.Attempt.Role, st.Attempt.Container))
	case st.Phase.Terminal():
		set(status.ConditionContainerReady, status.ConditionFalse, status.ReasonFinished, "the loop has ended")
	default:
		set(status.ConditionContainerReady, status.ConditionFalse, status.ReasonNoContainer, "no container is running for this run right now")
	}

	switch {
	case st.Phase == status.PhaseCompleted && len(st.Gaps) > 0:
		// Like a Kubernetes Job that ran to its end and failed: the loop is
		// done (Ready) but the tutorial did not pass (Succeeded=False).
		set(status.ConditionReady, status.ConditionTrue, status.ReasonCompleted, st.Message)
		set(status.ConditionSucceeded, status.ConditionFalse, status.ReasonGapsFound, gapsMessage(st.Gaps))
	case st.Phase == status.PhaseCompleted:
		set(status.ConditionReady, status.ConditionTrue, status.ReasonCompleted, st.Message)
		set(status.ConditionSucceeded, status.ConditionTrue, status.ReasonCompleted, st.Message)
	case st.Phase.Terminal():
		set(status.ConditionReady, status.ConditionFalse, reasonOr(st.Reason, status.Reason(st.Phase)), st.Message)
		set(status.ConditionSucceeded, status.ConditionFalse, reasonOr(st.Reason, status.Reason(st.Phase)), st.Message)
	default:
		set(status.ConditionReady, status.ConditionTrue, status.Reason(st.Phase), st.Message)
		set(status.ConditionSucceeded, status.ConditionUnknown, status.ReasonRunning, "the loop has not ended")
	}
}

func reasonOr(reason, fallback status.Reason) status.Reason {
	if reason == "" {
		return fallback
	}
	return reason
}

// gapsMessage counts gaps by severity: "the Student completed the tutorial
// with 3 gaps (1 critical, 2 minor)".
func gapsMessage(gaps []status.Gap) string {
	counts := map[status.Severity]int{}
	for _, g := range gaps {
		counts[g.Severity]++
	}
	var parts []string
	for _, sev := range []status.Severity{status.SeverityCritical, status.SeverityMajor, status.SeverityMinor} {
		if n := counts[sev]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, sev))
		}
	}
	noun := "gaps"
	if len(gaps) == 1 {
		noun = "gap"
	}
	return fmt.Sprintf("the Student completed the tutorial with %d %s (%s)", len(gaps), noun, strings.Join(parts, ", "))
}
