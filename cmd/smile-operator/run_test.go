package main

import (
	"testing"
	"time"

	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
)

// The operator, as a process, plays examples/quickstart's SmileRun on a
// Pod of the one-node cluster: the run ends Blocker at line 35 (the chmod +x
// the page forgets; the Mentor does not run here yet) with that gap in its
// status, and its Pod is gone.
func TestOperatorPlaysQuickstartOnAPod(t *testing.T) {
	c := onCluster(t)
	bin := buildOperator(t)
	c.startOperator(t, bin, "op-a")
	start := time.Now()
	c.createRun(t, "quickstart", quickstartFiles(t), map[string]any{"tutorial": "tutorial.md", "llmProvider": "literal"})
	st := c.wait(t, "quickstart", 2*time.Minute, func(st status.Status) bool { return st.Phase.Terminal() })
	t.Logf("SmileRun created -> %s in %s", st.Phase, time.Since(start).Round(100*time.Millisecond))
	if st.Phase != status.PhaseBlocker || !hasGapAt(st, 35) || st.ObservedGeneration != 1 {
		t.Errorf("status: phase %s, gaps %+v, observed generation %d: %s", st.Phase, st.Gaps, st.ObservedGeneration, st.Message)
	}
	if cond := st.Condition(status.ConditionSucceeded); cond == nil || cond.Status != status.ConditionFalse {
		t.Errorf("Succeeded condition %+v", cond)
	}
	pods, err := c.cs.CoreV1().Pods(c.ns).List(t.Context(), metav1.ListOptions{LabelSelector: runtime.LabelRun + "=quickstart"})
	if err != nil || len(pods.Items) != 0 {
		t.Errorf("pods left: %d, %v", len(pods.Items), err)
	}
}

// Two operators with leader election: the leader is killed (-9) while its
// Pod runs a step; the other takes the lease once it expires and plays the
// run again from the top, from what the status says, with an Event saying
// so.
func TestOperatorKilledMidRunIsResumedByTheOther(t *testing.T) {
	c := onCluster(t)
	bin := buildOperator(t)
	leader := c.startOperator(t, bin, "op-leader")
	waitLease(t, c)
	c.startOperator(t, bin, "op-standby")
	slow := map[string]string{"slow.md": "# Slow\n\nWait a little:\n\n```bash\nsleep 4\n```\n\nThen greet:\n\n```bash\necho hello\n```\n"}
	c.createRun(t, "slow", slow, map[string]any{"tutorial": "slow.md", "llmProvider": "literal"})
	deadline := time.Now().Add(time.Minute)
	for {
		pods, err := c.cs.CoreV1().Pods(c.ns).List(t.Context(), metav1.ListOptions{LabelSelector: runtime.LabelRun + "=slow"})
		if err == nil && len(pods.Items) > 0 && pods.Items[0].Status.Phase == "Running" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the leader never started the run's Pod")
		}
		time.Sleep(100 * time.Millisecond)
	}
	time.Sleep(time.Second) // the Student is in its sleep
	if err := leader.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if st := c.status(t, "slow"); st.Phase != status.PhaseRunningStudent {
		t.Fatalf("the killed leader's run is %s, want RunningStudent", st.Phase)
	}
	st := c.wait(t, "slow", 2*time.Minute, func(st status.Status) bool { return st.Phase.Terminal() })
	t.Logf("killed -> %s in %s", st.Phase, time.Since(killed).Round(100*time.Millisecond))
	if st.Phase != status.PhaseCompleted || len(st.Gaps) != 0 {
		t.Errorf("after the resume: phase %s, gaps %+v: %s", st.Phase, st.Gaps, st.Message)
	}
	var events eventsv1.EventList
	found := false
	for i := 0; i < 50 && !found; i++ {
		list, err := c.cs.EventsV1().Events(c.ns).List(t.Context(), metav1.ListOptions{})
		if err == nil {
			events = *list
		}
		for _, e := range events.Items {
			found = found || (e.Regarding.Name == "slow" && e.Reason == string(status.ReasonResumed))
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !found {
		t.Error("no Resumed Event about the run")
	}
}

// waitLease waits until an operator holds the namespace's lease.
func waitLease(t *testing.T, c cluster) {
	t.Helper()
	for i := 0; i < 300; i++ {
		l, err := c.cs.CoordinationV1().Leases(c.ns).Get(t.Context(), "smile-operator", metav1.GetOptions{})
		if err == nil && l.Spec.HolderIdentity != nil && *l.Spec.HolderIdentity != "" {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no operator took the lease")
}
