package reconcile

import (
	"time"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// The planner's fixtures (reconcile/planner/planner_test.go), for the
// tests here that drive Decide through the reconciler.

var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func desired() *spec.Desired {
	cfg := spec.DefaultConfig()
	cfg.MaxIterations = 3
	cfg.Timeout = 600
	cfg.StudentBehavior.TimeoutSeconds = 60
	return &spec.Desired{Name: "demo", Config: cfg, Digest: "sha256:aaa"}
}

// runIn returns a run of the current generation in a phase, waiting on an
// attempt started at t0 when the phase waits.
func runIn(phase status.Phase, iteration int) *status.Run {
	run := &status.Run{Metadata: status.Metadata{Name: "demo", Generation: 2, InputDigest: "sha256:aaa"}}
	run.Status = status.Status{Phase: phase, Iteration: iteration, ObservedGeneration: 2, StartedAt: t0, InputDigest: "sha256:aaa"}
	switch phase {
	case status.PhaseWaitingForStudent:
		run.Status.Attempt = &status.Attempt{Role: status.RoleStudent, Iteration: iteration, Container: "c-student", StartedAt: t0}
	case status.PhaseWaitingForMentor:
		run.Status.Attempt = &status.Attempt{Role: status.RoleMentor, Iteration: iteration, Container: "c-mentor", StartedAt: t0}
	}
	return run
}

func running(name string) []runtime.Container {
	return []runtime.Container{{Name: name, State: runtime.StateRunning}}
}

func studentPosted(s status.StudentStatus) *planner.Posted {
	out := status.StudentOutput{Status: s, CurrentStep: "line 3", QuestionForMentor: "what now?", Reason: "stuck"}
	return &planner.Posted{Attempt: "c-student", Role: status.RoleStudent, Student: &wire.StudentResultRequest{StudentOutput: out}}
}
