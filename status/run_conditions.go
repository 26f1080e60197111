package status

import (
	"fmt"
	"strings"
	"time"
)

// SetConditions derives the run's conditions from its status, so they can
// never disagree with it. LastTransitionTime moves only on a flip.
func (run *Run) SetConditions(now time.Time) {
	st := &run.Status
	gen := run.Metadata.Generation
	set := func(typ string, s ConditionStatus, reason Reason, msg string) {
		st.SetCondition(Condition{Type: typ, Status: s, Reason: reason, Message: msg, ObservedGeneration: st.ObservedGeneration}, now)
	}

	if st.ObservedGeneration == gen && st.InputDigest == run.Metadata.InputDigest {
		set(ConditionUpToDate, ConditionTrue, ReasonCurrent, fmt.Sprintf("the run reflects the current inputs (generation %d)", gen))
	} else {
		set(ConditionUpToDate, ConditionFalse, ReasonInputsChanged, fmt.Sprintf("the inputs changed: generation %d is not started yet", gen))
	}

	switch {
	case st.Attempt != nil:
		set(ConditionContainerReady, ConditionTrue, ReasonRunning,
			fmt.Sprintf("the %s container %s is running", st.Attempt.Role, st.Attempt.Container))
	case st.Phase.Terminal():
		set(ConditionContainerReady, ConditionFalse, ReasonFinished, "the loop has ended")
	default:
		set(ConditionContainerReady, ConditionFalse, ReasonNoContainer, "no container is running for this run right now")
	}

	switch {
	case st.Phase == PhaseCompleted && len(st.Gaps) > 0:
		// Like a Kubernetes Job that ran to its end and failed: the loop is
		// done (Ready) but the tutorial did not pass (Succeeded=False).
		set(ConditionReady, ConditionTrue, ReasonCompleted, st.Message)
		set(ConditionSucceeded, ConditionFalse, ReasonGapsFound, gapsMessage(st.Gaps))
	case st.Phase == PhaseInconclusive:
		// The loop ran to its end as it should, but has no verdict.
		set(ConditionReady, ConditionTrue, reasonOr(st.Reason, ReasonLowCoverage), st.Message)
		set(ConditionSucceeded, ConditionFalse, ReasonInconclusive, st.Message)
	case st.Phase == PhaseCompleted:
		set(ConditionReady, ConditionTrue, ReasonCompleted, st.Message)
		set(ConditionSucceeded, ConditionTrue, ReasonCompleted, st.Message)
	case st.Phase.Terminal():
		set(ConditionReady, ConditionFalse, reasonOr(st.Reason, Reason(st.Phase)), st.Message)
		set(ConditionSucceeded, ConditionFalse, reasonOr(st.Reason, Reason(st.Phase)), st.Message)
	default:
		set(ConditionReady, ConditionTrue, Reason(st.Phase), st.Message)
		set(ConditionSucceeded, ConditionUnknown, ReasonRunning, "the loop has not ended")
	}
}

func reasonOr(reason, fallback Reason) Reason {
	if reason == "" {
		return fallback
	}
	return reason
}

// gapsMessage counts gaps by severity: "the Student completed the tutorial
// with 3 gaps (1 critical, 2 minor)".
func gapsMessage(gaps []Gap) string {
	counts := map[Severity]int{}
	for _, g := range gaps {
		counts[g.Severity]++
	}
	var parts []string
	for _, sev := range []Severity{SeverityCritical, SeverityMajor, SeverityMinor} {
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
