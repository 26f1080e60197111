package planner

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

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

func studentPosted(s status.StudentStatus) *Posted {
	out := status.StudentOutput{Status: s, CurrentStep: "line 3", QuestionForMentor: "what now?", Reason: "stuck"}
	return &Posted{Attempt: "c-student", Role: status.RoleStudent, Student: &wire.StudentResultRequest{StudentOutput: out}}
}

func mentorPosted(res status.Resolution) *Posted {
	return &Posted{Attempt: "c-mentor", Role: status.RoleMentor, Mentor: &wire.MentorResultRequest{
		MentorOutput: "notes", Advice: &wire.MentorAdvice{Resolution: res}}}
}

func TestDecide(t *testing.T) {
	grace := 5 * time.Second
	step := 60*time.Second + grace
	finished := runIn(status.PhaseCompleted, 1)
	finished.Status.Report = &status.ReportRef{Markdown: "smile-report.md"}
	staleDigest := runIn(status.PhaseWaitingForStudent, 1)
	staleDigest.Metadata.InputDigest = "sha256:old"
	newGen := runIn(status.PhaseCompleted, 1)
	newGen.Status.ObservedGeneration = 1

	tests := []struct {
		name    string
		run     *status.Run
		obs     Observed
		now     time.Time
		action  Action
		phase   status.Phase
		reason  status.Reason
		message string // a substring of the plan's message
	}{
		{name: "no status yet: first generation", run: nil, now: t0,
			action: ActNewGeneration},
		{name: "inputs changed: new generation", run: staleDigest, obs: Observed{Containers: running("c-student")}, now: t0,
			action: ActNewGeneration, phase: status.PhaseWaitingForStudent},
		{name: "generation not observed: init", run: newGen, now: t0,
			action: ActInit, phase: status.PhaseStarting},
		{name: "starting: begin iteration 1", run: runIn(status.PhaseStarting, 0), now: t0,
			action: ActBegin, phase: status.PhaseRunningStudent},
		{name: "starting without the image: error, the engine's words", run: runIn(status.PhaseStarting, 0),
			obs: Observed{ImageMissing: "image smile-base:latest not found"}, now: t0,
			action: ActImageNotFound, phase: status.PhaseError, reason: status.ReasonImageNotFound, message: "smile-base:latest not found"},
		{name: "running student: start its container", run: runIn(status.PhaseRunningStudent, 1), now: t0,
			action: ActStartStudent, phase: status.PhaseWaitingForStudent},
		{name: "student completed", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Result: studentPosted(status.StudentCompleted)}, now: t0.Add(time.Minute),
			action: ActStudentResult, phase: status.PhaseCompleted, reason: "Completed"},
		{name: "student asks the mentor", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Result: studentPosted(status.StudentAskMentor)}, now: t0.Add(time.Minute),
			action: ActStudentResult, phase: status.PhaseRunningMentor, reason: "AskedMentor", message: "what now?"},
		{name: "student cannot complete: blocker", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Result: studentPosted(status.StudentCannotComplete)}, now: t0.Add(time.Minute),
			action: ActStudentResult, phase: status.PhaseBlocker, reason: "CannotComplete", message: "stuck"},
		{name: "student asks in the last iteration: max iterations", run: runIn(status.PhaseWaitingForStudent, 3),
			obs: Observed{Containers: running("c-student"), Result: studentPosted(status.StudentAskMentor)}, now: t0.Add(time.Minute),
			action: ActStudentResult, phase: status.PhaseMaxIterations, reason: "MaxIterations", message: "3 iterations"},
		{name: "result of an exited container still counts", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: []runtime.Container{{Name: "c-student", State: runtime.StateExited}}, Result: studentPosted(status.StudentCompleted)}, now: t0.Add(time.Minute),
			action: ActStudentResult, phase: status.PhaseCompleted},
		{name: "result of another attempt is ignored", run: runIn(status.PhaseWaitingForStudent, 2),
			obs: Observed{Containers: running("c-student"), Result: &Posted{Attempt: "old", Student: studentPosted(status.StudentCompleted).Student}, Progress: &Progress{At: t0}}, now: t0.Add(time.Second),
			action: ActWait},
		{name: "running mentor: start its container", run: runIn(status.PhaseRunningMentor, 1), now: t0,
			action: ActStartMentor, phase: status.PhaseWaitingForMentor},
		{name: "mentor answers: next iteration", run: runIn(status.PhaseWaitingForMentor, 1),
			obs: Observed{Containers: running("c-mentor"), Result: mentorPosted(status.ResolutionWorkaround)}, now: t0.Add(time.Minute),
			action: ActMentorResult, phase: status.PhaseRunningStudent, message: "iteration 2"},
		{name: "mentor finds it unresolvable: blocker", run: runIn(status.PhaseWaitingForMentor, 1),
			obs: Observed{Containers: running("c-mentor"), Result: mentorPosted(status.ResolutionUnresolvable)}, now: t0.Add(time.Minute),
			action: ActMentorResult, phase: status.PhaseBlocker, reason: "Unresolvable"},
		{name: "global timeout", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Progress: &Progress{At: t0.Add(599 * time.Second)}}, now: t0.Add(600 * time.Second),
			action: ActGlobalTimeout, phase: status.PhaseTimeout, reason: "Timeout"},
		{name: "global timeout wins over a step timeout", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Progress: &Progress{At: t0}}, now: t0.Add(601 * time.Second),
			action: ActGlobalTimeout, phase: status.PhaseTimeout},
		{name: "student step timeout asks the mentor (askOnTimeout)", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Progress: &Progress{Step: "line 9: make", Line: 9, At: t0.Add(10 * time.Second)}}, now: t0.Add(10*time.Second + step),
			action: ActStepTimeout, phase: status.PhaseRunningMentor},
		{name: "mentor step timeout: blocker", run: runIn(status.PhaseWaitingForMentor, 1),
			obs: Observed{Containers: running("c-mentor"), Progress: &Progress{Step: "thinking", At: t0}}, now: t0.Add(step),
			action: ActStepTimeout, phase: status.PhaseBlocker, reason: "MentorTimeout"},
		{name: "wrapper never calls back (E13)", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student")}, now: t0.Add(step),
			action: ActNoCallback, phase: status.PhaseError, reason: "NoCallback", message: "never called back"},
		{name: "quiet but within the step timeout: wait for the nearest deadline", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student")}, now: t0.Add(time.Second),
			action: ActWait},
		{name: "container exited without a result", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: []runtime.Container{{Name: "c-student", State: runtime.StateExited, ExitCode: 137}}}, now: t0.Add(time.Second),
			action: ActContainerDied, phase: status.PhaseError, reason: "ContainerDied", message: "exited with code 137"},
		{name: "container vanished", run: runIn(status.PhaseWaitingForMentor, 1),
			obs: Observed{}, now: t0.Add(time.Second),
			action: ActContainerDied, phase: status.PhaseError, message: "Mentor container c-mentor is gone"},
		{name: "stop requested", run: runIn(status.PhaseWaitingForStudent, 1),
			obs: Observed{Containers: running("c-student"), Stop: &StopRequest{Reason: "enough"}}, now: t0.Add(time.Second),
			action: ActStop, phase: status.PhaseStopped, reason: "Stopped", message: "enough"},
		{name: "ended without report: finish", run: runIn(status.PhaseBlocker, 2), now: t0,
			action: ActFinish, phase: status.PhaseBlocker},
		{name: "ended and reported: nothing to do", run: finished, now: t0,
			action: ActNone, phase: status.PhaseCompleted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := Decide(Input{Now: tc.now, Desired: desired(), Run: tc.run, Observed: tc.obs, StepGrace: grace})
			if plan.Action != tc.action {
				t.Fatalf("action = %s, want %s (plan %+v)", plan.Action, tc.action, plan)
			}
			if tc.phase != "" && plan.Phase != tc.phase {
				t.Errorf("phase = %s, want %s", plan.Phase, tc.phase)
			}
			if tc.reason != "" && plan.Reason != tc.reason {
				t.Errorf("reason = %s, want %s", plan.Reason, tc.reason)
			}
			if !strings.Contains(plan.Message, tc.message) {
				t.Errorf("message %q does not contain %q", plan.Message, tc.message)
			}
			if plan.Action == ActWait && plan.RequeueAfter <= 0 {
				t.Errorf("wait without a requeue time")
			}
		})
	}
}

func TestDecideWaitsForTheNearestDeadline(t *testing.T) {
	run := runIn(status.PhaseWaitingForStudent, 1)
	d := desired()
	d.Config.Timeout = 30 // the loop ends before the step deadline
	plan := Decide(Input{Now: t0.Add(10 * time.Second), Desired: d, Run: run,
		Observed: Observed{Containers: running("c-student"), Progress: &Progress{At: t0.Add(5 * time.Second)}}, StepGrace: time.Second})
	if plan.Action != ActWait || plan.RequeueAfter != 20*time.Second {
		t.Fatalf("plan = %+v, want a wait of 20s (global deadline)", plan)
	}
	d.Config.Timeout = 600
	plan = Decide(Input{Now: t0.Add(10 * time.Second), Desired: d, Run: run,
		Observed: Observed{Containers: running("c-student"), Progress: &Progress{At: t0.Add(5 * time.Second)}}, StepGrace: time.Second})
	if plan.RequeueAfter != 56*time.Second {
		t.Fatalf("RequeueAfter = %s, want 56s (5s + 60s + 1s grace - 10s)", plan.RequeueAfter)
	}
}

func TestStepTimeoutWithoutAskOnTimeoutIsABlocker(t *testing.T) {
	d := desired()
	d.Config.StudentBehavior.AskOnTimeout = false
	run := runIn(status.PhaseWaitingForStudent, 1)
	plan := Decide(Input{Now: t0.Add(2 * time.Minute), Desired: d, Run: run,
		Observed: Observed{Containers: running("c-student"), Progress: &Progress{Step: "line 4: sleep 999", Line: 4, At: t0}}})
	if plan.Action != ActStepTimeout || plan.Phase != status.PhaseBlocker {
		t.Fatalf("plan = %+v, want a step timeout ending in Blocker", plan)
	}
	if !strings.Contains(plan.Message, "sleep 999") {
		t.Errorf("message %q should name the step", plan.Message)
	}
	// The planner, not the executor, writes the Student's answer.
	want := &status.StudentOutput{Status: status.StudentCannotComplete, CurrentStep: "line 4: sleep 999", Line: 4,
		Problem: `step "line 4: sleep 999" did not finish within 1m0s`, Summary: "the Student's step timed out",
		Reason:   `step "line 4: sleep 999" did not finish within 1m0s`,
		Findings: []status.Finding{{Category: status.CategoryTimeout, Line: 4, Problem: `step "line 4: sleep 999" did not finish within 1m0s`}}}
	if !reflect.DeepEqual(plan.TimedOut, want) {
		t.Errorf("TimedOut =\n  %+v\nwant\n  %+v", plan.TimedOut, want)
	}
}

func TestPhaseLoopStatus(t *testing.T) {
	for phase, want := range map[status.Phase]string{
		status.PhaseRunningStudent: "running_student", status.PhaseMaxIterations: "max_iterations",
		status.PhaseCompleted: "completed", status.PhaseWaitingForMentor: "waiting_for_mentor",
	} {
		if got := phase.LoopStatus(); got != want {
			t.Errorf("%s.LoopStatus() = %q, want %q", phase, got, want)
		}
	}
}

func TestDecideResumesAnAttemptOfADeadController(t *testing.T) {
	run := runIn(status.PhaseWaitingForMentor, 2)
	run.Status.Attempt.Instance = "dead"
	plan := Decide(Input{Now: t0.Add(time.Second), Desired: desired(), Run: run, Instance: "alive"})
	if plan.Action != ActStartMentor || plan.Reason != "Resumed" {
		t.Fatalf("plan = %+v, want the Mentor's attempt started again", plan)
	}
	// The same controller losing its own container is a dead container.
	plan = Decide(Input{Now: t0.Add(time.Second), Desired: desired(), Run: run, Instance: "dead"})
	if plan.Action != ActContainerDied {
		t.Fatalf("plan = %+v, want ContainerDied", plan)
	}
	// A result the dead controller acknowledged still wins.
	plan = Decide(Input{Now: t0.Add(time.Second), Desired: desired(), Run: run, Instance: "alive",
		Observed: Observed{Result: mentorPosted(status.ResolutionWorkaround)}})
	if plan.Action != ActMentorResult {
		t.Fatalf("plan = %+v, want the posted result applied", plan)
	}
}
