// Package plantest holds the fixtures of the planner's tests, shared with
// the reconciler's tests that drive Decide.
package plantest

import (
	"time"

	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// T0 is the fixtures' clock: every run starts then.
var T0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// Desired is a run's desired state: 3 iterations, 600 s, 60 s steps.
func Desired() *spec.Desired {
	cfg := spec.DefaultConfig()
	cfg.MaxIterations = 3
	cfg.Timeout = 600
	cfg.StudentBehavior.TimeoutSeconds = 60
	return &spec.Desired{Name: "demo", Config: cfg, Digest: "sha256:aaa"}
}

// RunIn returns a run of the current generation in a phase, waiting on an
// attempt started at T0 when the phase waits.
func RunIn(phase status.Phase, iteration int) *status.Run {
	run := &status.Run{Metadata: status.Metadata{Name: "demo", Generation: 2, InputDigest: "sha256:aaa"}}
	run.Status = status.Status{Phase: phase, Iteration: iteration, ObservedGeneration: 2, StartedAt: T0, InputDigest: "sha256:aaa"}
	switch phase {
	case status.PhaseWaitingForStudent:
		run.Status.Attempt = &status.Attempt{Role: status.RoleStudent, Iteration: iteration, Container: "c-student", StartedAt: T0}
	case status.PhaseWaitingForMentor:
		run.Status.Attempt = &status.Attempt{Role: status.RoleMentor, Iteration: iteration, Container: "c-mentor", StartedAt: T0}
	}
	return run
}

// Running is one running container of that name.
func Running(name string) []runtime.Container {
	return []runtime.Container{{Name: name, State: runtime.StateRunning}}
}

// StudentPosted is the Student's posted answer with that status.
func StudentPosted(s status.StudentStatus) *planner.Posted {
	out := status.StudentOutput{Status: s, CurrentStep: "line 3", QuestionForMentor: "what now?", Reason: "stuck"}
	return &planner.Posted{Attempt: "c-student", Role: status.RoleStudent, Student: &wire.StudentResultRequest{StudentOutput: out}}
}

// MentorPostedAbout is a Mentor's result about a finding of a category at
// a line.
func MentorPostedAbout(res status.Resolution, cat status.Category, line int) *planner.Posted {
	p := MentorPosted(res)
	p.Mentor.Advice.Category, p.Mentor.Advice.Line = cat, line
	return p
}

// MentorPosted is the Mentor's posted notes with that resolution.
func MentorPosted(res status.Resolution) *planner.Posted {
	return &planner.Posted{Attempt: "c-mentor", Role: status.RoleMentor, Mentor: &wire.MentorResultRequest{
		MentorOutput: "notes", Advice: &wire.MentorAdvice{Resolution: res}}}
}
