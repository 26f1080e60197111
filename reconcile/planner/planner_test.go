package planner_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
)

func TestDecide(t *testing.T) {
	grace := 5 * time.Second
	step := 60*time.Second + grace
	finished := plantest.RunIn(status.PhaseCompleted, 1)
	finished.Status.Report = &status.ReportRef{Markdown: "smile-report.md"}
	staleDigest := plantest.RunIn(status.PhaseWaitingForStudent, 1)
	staleDigest.Metadata.InputDigest = "sha256:old"
	newGen := plantest.RunIn(status.PhaseCompleted, 1)
	newGen.Status.ObservedGeneration = 1
	onDemand := plantest.RunIn(status.PhaseWaitingForMentor, 1)
	onDemand.Status.Attempt.OnDemand = true

	tests := []struct {
		name    string
		run     *status.Run
		obs     planner.Observed
		now     time.Time
		action  planner.Action
		phase   status.Phase
		reason  status.Reason
		message string // a substring of the plan's message
	}{
		{name: "no status yet: first generation", run: nil, now: plantest.T0,
			action: planner.ActNewGeneration},
		{name: "inputs changed: new generation", run: staleDigest, obs: planner.Observed{Containers: plantest.Running("c-student")}, now: plantest.T0,
			action: planner.ActNewGeneration, phase: status.PhaseWaitingForStudent},
		{name: "generation not observed: init", run: newGen, now: plantest.T0,
			action: planner.ActInit, phase: status.PhaseStarting},
		{name: "starting: begin iteration 1", run: plantest.RunIn(status.PhaseStarting, 0), now: plantest.T0,
			action: planner.ActBegin, phase: status.PhaseRunningStudent},
		{name: "starting without the image: error, the engine's words", run: plantest.RunIn(status.PhaseStarting, 0),
			obs: planner.Observed{ImageMissing: "image smile-base:latest not found"}, now: plantest.T0,
			action: planner.ActImageNotFound, phase: status.PhaseError, reason: status.ReasonImageNotFound, message: "smile-base:latest not found"},
		{name: "running student: start its container", run: plantest.RunIn(status.PhaseRunningStudent, 1), now: plantest.T0,
			action: planner.ActStartStudent, phase: status.PhaseWaitingForStudent},
		{name: "student completed", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Result: plantest.StudentPosted(status.StudentCompleted)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActStudentResult, phase: status.PhaseCompleted, reason: "Completed"},
		{name: "student asks the mentor", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Result: plantest.StudentPosted(status.StudentAskMentor)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActStudentResult, phase: status.PhaseRunningMentor, reason: "AskedMentor", message: "what now?"},
		{name: "student cannot complete: blocker", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Result: plantest.StudentPosted(status.StudentCannotComplete)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActStudentResult, phase: status.PhaseBlocker, reason: "CannotComplete", message: "stuck"},
		{name: "student asks in the last iteration: max iterations", run: plantest.RunIn(status.PhaseWaitingForStudent, 3),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Result: plantest.StudentPosted(status.StudentAskMentor)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActStudentResult, phase: status.PhaseMaxIterations, reason: "MaxIterations", message: "3 iterations"},
		{name: "result of an exited container still counts", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: []runtime.Container{{Name: "c-student", State: runtime.StateExited}}, Result: plantest.StudentPosted(status.StudentCompleted)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActStudentResult, phase: status.PhaseCompleted},
		{name: "result of another attempt is ignored", run: plantest.RunIn(status.PhaseWaitingForStudent, 2),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Result: &planner.Posted{Attempt: "old", Student: plantest.StudentPosted(status.StudentCompleted).Student}, Progress: &planner.Progress{At: plantest.T0}}, now: plantest.T0.Add(time.Second),
			action: planner.ActWait},
		{name: "running mentor: start its container", run: plantest.RunIn(status.PhaseRunningMentor, 1), now: plantest.T0,
			action: planner.ActStartMentor, phase: status.PhaseWaitingForMentor},
		{name: "mentor answers: next iteration", run: plantest.RunIn(status.PhaseWaitingForMentor, 1),
			obs: planner.Observed{Containers: plantest.Running("c-mentor"), Result: plantest.MentorPosted(status.ResolutionWorkaround)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActMentorResult, phase: status.PhaseRunningStudent, message: "iteration 2"},
		{name: "mentor finds it unresolvable: blocker", run: plantest.RunIn(status.PhaseWaitingForMentor, 1),
			obs: planner.Observed{Containers: plantest.Running("c-mentor"), Result: plantest.MentorPosted(status.ResolutionUnresolvable)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActMentorResult, phase: status.PhaseBlocker, reason: "Unresolvable"},
		{name: "mentor finds the container short (environment), not the page: inconclusive", run: plantest.RunIn(status.PhaseWaitingForMentor, 1),
			obs: planner.Observed{Containers: plantest.Running("c-mentor"), Result: plantest.MentorPostedAbout(status.ResolutionUnresolvable, status.CategoryEnvironment, 12)}, now: plantest.T0.Add(time.Minute),
			action: planner.ActMentorResult, phase: status.PhaseInconclusive, reason: "Environment", message: "line 12"},
		{name: "global timeout", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{At: plantest.T0.Add(599 * time.Second)}}, now: plantest.T0.Add(600 * time.Second),
			action: planner.ActGlobalTimeout, phase: status.PhaseTimeout, reason: "Timeout"},
		{name: "global timeout wins over a step timeout", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{At: plantest.T0}}, now: plantest.T0.Add(601 * time.Second),
			action: planner.ActGlobalTimeout, phase: status.PhaseTimeout},
		{name: "student step timeout asks the mentor (askOnTimeout)", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{Step: "line 9: make", Line: 9, At: plantest.T0.Add(10 * time.Second)}}, now: plantest.T0.Add(10*time.Second + step),
			action: planner.ActStepTimeout, phase: status.PhaseRunningMentor},
		{name: "mentor step timeout: blocker", run: plantest.RunIn(status.PhaseWaitingForMentor, 1),
			obs: planner.Observed{Containers: plantest.Running("c-mentor"), Progress: &planner.Progress{Step: "thinking", At: plantest.T0}}, now: plantest.T0.Add(step),
			action: planner.ActStepTimeout, phase: status.PhaseBlocker, reason: "MentorTimeout"},
		{name: "wrapper never calls back (E13)", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student")}, now: plantest.T0.Add(step),
			action: planner.ActNoCallback, phase: status.PhaseError, reason: "NoCallback", message: "never called back"},
		{name: "quiet but within the step timeout: wait for the nearest deadline", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student")}, now: plantest.T0.Add(time.Second),
			action: planner.ActWait},
		{name: "container exited without a result", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: []runtime.Container{{Name: "c-student", State: runtime.StateExited, ExitCode: 137}}}, now: plantest.T0.Add(time.Second),
			action: planner.ActContainerDied, phase: status.PhaseError, reason: "ContainerDied", message: "exited with code 137"},
		{name: "container vanished", run: plantest.RunIn(status.PhaseWaitingForMentor, 1),
			obs: planner.Observed{}, now: plantest.T0.Add(time.Second),
			action: planner.ActContainerDied, phase: status.PhaseError, message: "Mentor container c-mentor is gone"},
		{name: "on-demand container not started yet: wait", run: onDemand,
			obs: planner.Observed{}, now: plantest.T0.Add(time.Second),
			action: planner.ActWait},
		{name: "on-demand attempt's learner gone: restart", run: onDemand,
			obs: planner.Observed{BrainGone: true}, now: plantest.T0.Add(time.Second),
			action: planner.ActStartMentor, reason: "Resumed"},
		{name: "stop requested", run: plantest.RunIn(status.PhaseWaitingForStudent, 1),
			obs: planner.Observed{Containers: plantest.Running("c-student"), Stop: &planner.StopRequest{Reason: "enough"}}, now: plantest.T0.Add(time.Second),
			action: planner.ActStop, phase: status.PhaseStopped, reason: "Stopped", message: "enough"},
		{name: "ended without report: finish", run: plantest.RunIn(status.PhaseBlocker, 2), now: plantest.T0,
			action: planner.ActFinish, phase: status.PhaseBlocker},
		{name: "ended and reported: nothing to do", run: finished, now: plantest.T0,
			action: planner.ActNone, phase: status.PhaseCompleted},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := planner.Decide(planner.Input{Now: tc.now, Desired: plantest.Desired(), Run: tc.run, Observed: tc.obs, StepGrace: grace})
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
			if plan.Action == planner.ActWait && plan.RequeueAfter <= 0 {
				t.Errorf("wait without a requeue time")
			}
		})
	}
}

func TestDecideWaitsForTheNearestDeadline(t *testing.T) {
	run := plantest.RunIn(status.PhaseWaitingForStudent, 1)
	d := plantest.Desired()
	d.Config.Timeout = 30 // the loop ends before the step deadline
	plan := planner.Decide(planner.Input{Now: plantest.T0.Add(10 * time.Second), Desired: d, Run: run,
		Observed: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{At: plantest.T0.Add(5 * time.Second)}}, StepGrace: time.Second})
	if plan.Action != planner.ActWait || plan.RequeueAfter != 20*time.Second {
		t.Fatalf("plan = %+v, want a wait of 20s (global deadline)", plan)
	}
	d.Config.Timeout = 600
	plan = planner.Decide(planner.Input{Now: plantest.T0.Add(10 * time.Second), Desired: d, Run: run,
		Observed: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{At: plantest.T0.Add(5 * time.Second)}}, StepGrace: time.Second})
	if plan.RequeueAfter != 56*time.Second {
		t.Fatalf("RequeueAfter = %s, want 56s (5s + 60s + 1s grace - 10s)", plan.RequeueAfter)
	}
}

func TestStepTimeoutWithoutAskOnTimeoutIsABlocker(t *testing.T) {
	d := plantest.Desired()
	d.Config.StudentBehavior.AskOnTimeout = false
	run := plantest.RunIn(status.PhaseWaitingForStudent, 1)
	plan := planner.Decide(planner.Input{Now: plantest.T0.Add(2 * time.Minute), Desired: d, Run: run,
		Observed: planner.Observed{Containers: plantest.Running("c-student"), Progress: &planner.Progress{Step: "line 4: sleep 999", Line: 4, At: plantest.T0}}})
	if plan.Action != planner.ActStepTimeout || plan.Phase != status.PhaseBlocker {
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
	run := plantest.RunIn(status.PhaseWaitingForMentor, 2)
	run.Status.Attempt.Instance = "dead"
	plan := planner.Decide(planner.Input{Now: plantest.T0.Add(time.Second), Desired: plantest.Desired(), Run: run, Instance: "alive"})
	if plan.Action != planner.ActStartMentor || plan.Reason != "Resumed" {
		t.Fatalf("plan = %+v, want the Mentor's attempt started again", plan)
	}
	// The same controller losing its own container is a dead container.
	plan = planner.Decide(planner.Input{Now: plantest.T0.Add(time.Second), Desired: plantest.Desired(), Run: run, Instance: "dead"})
	if plan.Action != planner.ActContainerDied {
		t.Fatalf("plan = %+v, want ContainerDied", plan)
	}
	// A result the dead controller acknowledged still wins.
	plan = planner.Decide(planner.Input{Now: plantest.T0.Add(time.Second), Desired: plantest.Desired(), Run: run, Instance: "alive",
		Observed: planner.Observed{Result: plantest.MentorPosted(status.ResolutionWorkaround)}})
	if plan.Action != planner.ActMentorResult {
		t.Fatalf("plan = %+v, want the posted result applied", plan)
	}
}
