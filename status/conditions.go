package status

import "time"

// ConditionStatus is True, False or Unknown, as in Kubernetes.
type ConditionStatus string

// Condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// Condition types a run reports.
const (
	// Ready: the loop is running as it should (False once it ended badly).
	ConditionReady = "Ready"
	// Succeeded: the loop ended; True when the Student completed the tutorial.
	ConditionSucceeded = "Succeeded"
	// ContainerReady: the container the loop waits on is running.
	ConditionContainerReady = "ContainerReady"
	// UpToDate: the run reflects the current inputs (manifest, config, tutorial).
	ConditionUpToDate = "UpToDate"
)

// Condition is a Kubernetes-shaped observation about a run.
type Condition struct {
	Type               string          `json:"type"`
	Status             ConditionStatus `json:"status"`
	Reason             Reason          `json:"reason"`
	Message            string          `json:"message"`
	ObservedGeneration int64           `json:"observedGeneration"`
	LastTransitionTime time.Time       `json:"lastTransitionTime"`
}

// SetCondition adds or updates a condition. LastTransitionTime changes only
// when the status flips; it reports whether anything changed.
func (s *Status) SetCondition(c Condition, now time.Time) bool {
	for i := range s.Conditions {
		old := &s.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status && old.Reason == c.Reason && old.Message == c.Message && old.ObservedGeneration == c.ObservedGeneration {
			return false
		}
		if old.Status != c.Status {
			old.LastTransitionTime = now
		}
		old.Status, old.Reason, old.Message, old.ObservedGeneration = c.Status, c.Reason, c.Message, c.ObservedGeneration
		return true
	}
	c.LastTransitionTime = now
	s.Conditions = append(s.Conditions, c)
	return true
}

// Condition returns the condition of a type, or nil.
func (s *Status) Condition(typ string) *Condition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == typ {
			return &s.Conditions[i]
		}
	}
	return nil
}
