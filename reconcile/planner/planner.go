package planner

import (
	"fmt"
	"time"

	"github.com/smile-loop/smile/reconcile/events"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Action is the single transition a reconcile performs.
type Action string

// The transitions of the loop. Each reconcile performs at most one.
const (
	// ActNewGeneration records that the inputs changed: generation + 1.
	ActNewGeneration Action = "NewGeneration"
	// ActQueue records that the generation waits for a free slot (Queued).
	ActQueue Action = "Queue"
	// ActInit starts the current generation over: old containers go, Starting.
	ActInit Action = "Init"
	// ActBegin moves Starting -> RunningStudent: the image is there.
	ActBegin Action = "Begin"
	// ActImageNotFound ends a Starting loop whose image is not there (E09).
	ActImageNotFound Action = "ImageNotFound"
	// ActStartStudent creates the Student's container -> WaitingForStudent.
	ActStartStudent Action = "StartStudent"
	// ActStudentResult applies the Student's answer.
	ActStudentResult Action = "StudentResult"
	// ActStartMentor creates the Mentor's container -> WaitingForMentor.
	ActStartMentor Action = "StartMentor"
	// ActMentorResult applies the Mentor's notes.
	ActMentorResult Action = "MentorResult"
	// ActStepTimeout ends an attempt that stopped making progress.
	ActStepTimeout Action = "StepTimeout"
	// ActNoCallback ends an attempt whose wrapper never called back (E13).
	ActNoCallback Action = "NoCallback"
	// ActContainerDied ends an attempt whose container is gone without a result.
	ActContainerDied Action = "ContainerDied"
	// ActGlobalTimeout ends the loop when its total time is spent.
	ActGlobalTimeout Action = "GlobalTimeout"
	// ActBudget ends the loop when its LLM calls have cost budgetUsd.
	ActBudget Action = "BudgetExceeded"
	// ActStop ends the loop on a user's request (POST /api/stop).
	ActStop Action = "Stop"
	// ActFinish cleans up containers and writes the report of an ended loop.
	ActFinish Action = "Finish"
	// ActWait has nothing to do until an event or RequeueAfter.
	ActWait Action = "Wait"
	// ActNone: the loop ended and its report is written.
	ActNone Action = "None"
)

// The events a transition records under its own name rather than its
// action's (the timeline and the WebSocket's "action"); observers match them.
const (
	EvStudentStarted  Action = "StudentStarted"
	EvMentorStarted   Action = "MentorStarted"
	EvStudentReported Action = "StudentReported"
	EvMentorAnswered  Action = "MentorAnswered"
	EvStopped         Action = "Stopped"
	EvTimeout         Action = "Timeout"
	EvInvalidSpec     Action = "InvalidSpec"
	EvQueued          Action = "Queued"
	// EvUnwritable: the run ended because its files cannot be written (a
	// full disk); its state stays in memory.
	EvUnwritable Action = "Unwritable"
)

// Observed is what the reconciler saw of the world for one run.
type Observed struct {
	// Containers are all containers labelled with the run.
	Containers []runtime.Container
	// Result is the posted result of the current attempt, if any.
	Result *Posted
	// Progress is the last progress report of the current attempt, if any.
	Progress *Progress
	// Stop is a pending stop request, if any.
	Stop *StopRequest
	// BrainGone: the current attempt's learner ran in a controller and no
	// longer runs (that controller stopped) and left no result.
	BrainGone bool
	// ImageMissing is why the run's image is not on the engine, as the engine
	// said it ("" when it is there). Only a Starting run looks.
	ImageMissing string
}

// Posted is a Student or Mentor result as the API kept it in the inbox.
type Posted struct {
	Attempt    string                     `json:"attempt"`
	Role       status.Role                `json:"role"`
	ReceivedAt time.Time                  `json:"receivedAt"`
	Student    *wire.StudentResultRequest `json:"student,omitempty"`
	Mentor     *wire.MentorResultRequest  `json:"mentor,omitempty"`
	// File is where the result is kept (set when read back).
	File string `json:"-"`
}

// LLMCalls are the model calls the posted result's audit records (none for
// a nil result): what the run's cost adds, in the same save that records the
// result, so status.cost is always the total of the history (the budget
// check reads it).
func (p *Posted) LLMCalls() []status.LLMCall {
	switch {
	case p == nil:
	case p.Student != nil && p.Student.Audit != nil:
		return p.Student.Audit.LLMCalls
	case p.Mentor != nil && p.Mentor.Audit != nil:
		return p.Mentor.Audit.LLMCalls
	}
	return nil
}

// Progress is the last thing an attempt said it was doing.
type Progress = events.Progress

// StopRequest asks the loop to end.
type StopRequest struct {
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
}

// Input is everything the planner decides from.
type Input struct {
	Now      time.Time
	Desired  *spec.Desired
	Run      *status.Run
	Observed Observed
	// StepGrace is added to timeoutSeconds before an attempt that has gone
	// quiet is given up on (the wrapper enforces timeoutSeconds itself).
	StepGrace time.Duration
	// Instance is the controller deciding. An attempt another (dead)
	// instance started whose container is gone is run again, not failed.
	Instance string
}

// Plan is the planner's decision.
type Plan struct {
	Action Action
	// Phase is the phase the run is in after the action.
	Phase   status.Phase
	Reason  status.Reason
	Message string
	// RequeueAfter is when to look again if nothing happens (ActWait).
	RequeueAfter time.Duration
	// TimedOut is the answer recorded for a Student whose step ran out of
	// time (ActStepTimeout while the Student works): the planner's, so the
	// executor never works it out again.
	TimedOut *status.StudentOutput
	// From is the checkpoint a Student attempt starts from (ActStartStudent;
	// nil: the top, in a clean container).
	From *status.Checkpoint
	// Verify: the Student completed from a checkpoint; the next iteration is
	// the clean replay with every fix (ActStudentResult, ActStepTimeout).
	Verify bool
}

// Decide returns the one transition to perform next. It is pure: the same
// input gives the same plan, which is what makes a reconcile safe to repeat
// after a crash. A Student attempt also gets the checkpoint it starts from.
func Decide(in Input) Plan {
	plan := decide(in)
	if plan.Action == ActStartStudent && in.Run != nil {
		plan.From = checkpoints.Resume(in.Desired, &in.Run.Status)
	}
	return plan
}

func decide(in Input) Plan {
	run, d := in.Run, in.Desired
	if run == nil || run.Metadata.Generation == 0 || run.Metadata.InputDigest != d.Digest {
		return Plan{Action: ActNewGeneration, Phase: phaseOf(run), Reason: status.ReasonInputsChanged, Message: "the run's inputs changed"}
	}
	st := &run.Status
	if st.ObservedGeneration != run.Metadata.Generation {
		return Plan{Action: ActInit, Phase: status.PhaseStarting, Reason: status.ReasonNewGeneration,
			Message: fmt.Sprintf("starting generation %d", run.Metadata.Generation)}
	}
	if st.Phase.Terminal() {
		if st.Report == nil {
			return Plan{Action: ActFinish, Phase: st.Phase, Reason: st.Reason, Message: st.Message}
		}
		return Plan{Action: ActNone, Phase: st.Phase}
	}

	// A result that arrived is a fact: apply it before any deadline.
	if r := in.Observed.Result; r != nil && st.Attempt != nil && r.Attempt == st.Attempt.Container {
		switch {
		case st.Phase == status.PhaseWaitingForStudent && r.Student != nil:
			return studentResult(in, r.Student.StudentOutput)
		case st.Phase == status.PhaseWaitingForMentor && r.Mentor != nil:
			return mentorResult(in, r.Mentor)
		}
	}
	if s := in.Observed.Stop; s != nil {
		return Plan{Action: ActStop, Phase: status.PhaseStopped, Reason: status.ReasonStopped, Message: "stopped: " + s.Reason}
	}
	deadline := st.StartedAt.Add(time.Duration(d.Config.Timeout) * time.Second)
	if !in.Now.Before(deadline) {
		return Plan{Action: ActGlobalTimeout, Phase: status.PhaseTimeout, Reason: status.ReasonTimeout,
			Message: fmt.Sprintf("the loop did not finish within its timeout of %ds", d.Config.Timeout)}
	}

	// A spent budget ends the loop before another model call (cost.go).
	if (st.Phase == status.PhaseRunningStudent || st.Phase == status.PhaseRunningMentor) && overBudget(d.Config, st) {
		return budgetPlan(d.Config, st)
	}

	switch st.Phase {
	case status.PhaseStarting:
		if why := in.Observed.ImageMissing; why != "" {
			return Plan{Action: ActImageNotFound, Phase: status.PhaseError, Reason: status.ReasonImageNotFound, Message: why}
		}
		return Plan{Action: ActBegin, Phase: status.PhaseRunningStudent, Reason: status.ReasonStarted, Message: "starting iteration 1"}
	case status.PhaseRunningStudent:
		return Plan{Action: ActStartStudent, Phase: status.PhaseWaitingForStudent, Reason: status.ReasonStudentRunning,
			Message: fmt.Sprintf("the Student is following the tutorial (iteration %d)", st.Iteration)}
	case status.PhaseRunningMentor:
		return Plan{Action: ActStartMentor, Phase: status.PhaseWaitingForMentor, Reason: status.ReasonMentorRunning,
			Message: fmt.Sprintf("the Mentor is answering the Student's question (iteration %d)", st.Iteration)}
	case status.PhaseWaitingForStudent, status.PhaseWaitingForMentor:
		return waiting(in, deadline)
	}
	return Plan{Action: ActInit, Phase: status.PhaseStarting, Reason: status.ReasonUnknownPhase,
		Message: fmt.Sprintf("unknown phase %q: starting over", st.Phase)}
}

// waiting decides while a container works: it died, went quiet, never called
// back, or is fine (look again at the nearest deadline).
func waiting(in Input, globalDeadline time.Time) Plan {
	st := &in.Run.Status
	role := "Student"
	if st.Phase == status.PhaseWaitingForMentor {
		role = "Mentor"
	}
	if st.Attempt == nil {
		// Nothing to wait on (a crash between two writes cannot cause this, but
		// a hand-edited state file can): run the step again.
		return Plan{Action: restartAction(st.Phase), Phase: st.Phase, Reason: status.ReasonNoAttempt, Message: "no container recorded: starting it again"}
	}
	if in.Observed.BrainGone {
		// Its learner died with the controller that ran it: the attempt
		// starts again, from a fresh container.
		return Plan{Action: restartAction(st.Phase), Phase: st.Phase, Reason: status.ReasonResumed,
			Message: fmt.Sprintf("resuming iteration %d: the %s's learner ran in a controller that stopped", st.Iteration, role)}
	}
	// A container started on demand may not exist yet: the learner's liveness
	// (BrainGone, above) stands for it.
	if !st.Attempt.OnDemand {
		if plan, over := containerGone(in, role); over {
			return plan
		}
	}
	step := time.Duration(in.Desired.Config.StudentBehavior.TimeoutSeconds)*time.Second + in.StepGrace
	if p := in.Observed.Progress; p == nil {
		quietUntil := st.Attempt.StartedAt.Add(step)
		if !in.Now.Before(quietUntil) {
			return Plan{Action: ActNoCallback, Phase: status.PhaseError, Reason: status.ReasonNoCallback,
				Message: fmt.Sprintf("the %s wrapper never called back within %s of starting", role, step.Round(time.Second))}
		}
		return wait(in.Now, quietUntil, globalDeadline)
	} else {
		quietUntil := p.At.Add(step)
		if !in.Now.Before(quietUntil) {
			return stepTimeout(in, role, p, step)
		}
		return wait(in.Now, quietUntil, globalDeadline)
	}
}

// containerGone decides when the attempt's container is gone or exited
// (over), or belonged to a controller that stopped.
func containerGone(in Input, role string) (Plan, bool) {
	st := &in.Run.Status
	c, ok := FindContainer(in.Observed.Containers, st.Attempt.Container)
	if !ok && st.Attempt.Instance != "" && st.Attempt.Instance != in.Instance {
		// The controller that started it died and its orphan was removed
		// (E19): resume from the last completed transition.
		return Plan{Action: restartAction(st.Phase), Phase: st.Phase, Reason: status.ReasonResumed,
			Message: fmt.Sprintf("resuming iteration %d: the %s's container belonged to a controller that stopped", st.Iteration, role)}, true
	}
	if !ok || c.State == runtime.StateExited || c.State == runtime.StateGone {
		msg := fmt.Sprintf("the %s container %s is gone without reporting a result", role, st.Attempt.Container)
		if ok && c.State == runtime.StateExited {
			msg = fmt.Sprintf("the %s container %s exited with code %d without reporting a result", role, st.Attempt.Container, c.ExitCode)
		}
		return Plan{Action: ActContainerDied, Phase: status.PhaseError, Reason: status.ReasonContainerDied, Message: msg}, true
	}
	return Plan{}, false
}

func wait(now time.Time, deadlines ...time.Time) Plan {
	next := deadlines[0]
	for _, d := range deadlines[1:] {
		if d.Before(next) {
			next = d
		}
	}
	return Plan{Action: ActWait, RequeueAfter: max(next.Sub(now), 10*time.Millisecond)}
}

// stepTimeout: a Student step that ran out of time is a timeout the Student
// asks about (askOnTimeout) or gives up on; a Mentor that ran out of time
// leaves the Student with no way forward.
func stepTimeout(in Input, role string, p *Progress, step time.Duration) Plan {
	st := &in.Run.Status
	msg := fmt.Sprintf("the %s made no progress for %s on step %q", role, step.Round(time.Second), p.Step)
	if st.Phase == status.PhaseWaitingForMentor {
		return Plan{Action: ActStepTimeout, Phase: status.PhaseBlocker, Reason: status.ReasonMentorTimeout, Message: msg}
	}
	out := TimedOutStudent(in.Desired.Config.StudentBehavior, p, step)
	plan := studentResult(in, out)
	plan.Action, plan.TimedOut = ActStepTimeout, &out
	if plan.Message == "" {
		plan.Message = msg
	}
	return plan
}

// TimedOutStudent is the answer the controller records for a Student whose
// step ran out of time.
func TimedOutStudent(b spec.StudentBehavior, p *Progress, step time.Duration) status.StudentOutput {
	out := status.StudentOutput{
		CurrentStep: p.Step,
		Line:        p.Line,
		Problem:     fmt.Sprintf("step %q did not finish within %s", p.Step, step.Round(time.Second)),
		Summary:     "the Student's step timed out",
	}
	if b.AskOnTimeout {
		out.Status = status.StudentAskMentor
		out.QuestionForMentor = fmt.Sprintf("The step %q never finished (more than %s). Is something missing before it?", p.Step, step.Round(time.Second))
	} else {
		out.Status = status.StudentCannotComplete
		out.Reason = out.Problem
	}
	out.Findings = []status.Finding{{
		Category: status.CategoryTimeout, Line: p.Line, Problem: out.Problem,
		Asked: out.Status == status.StudentAskMentor,
	}}
	return out
}

func studentResult(in Input, out status.StudentOutput) Plan {
	st := &in.Run.Status
	if plan, ok := inconclusive(in, out); ok {
		return plan
	}
	if checkpoints.Verifying(st) {
		return verified(st, out)
	}
	switch out.Status {
	case status.StudentCompleted:
		if a := st.Attempt; a != nil && a.ResumedFrom != nil && !a.ResumedFrom.Clean {
			return Plan{Action: ActStudentResult, Phase: status.PhaseRunningStudent, Reason: status.ReasonVerifying, Verify: true,
				Message: fmt.Sprintf("the Student completed the tutorial in iteration %d from a checkpoint; replaying it from a clean start with the %s",
					st.Iteration, plural(checkpoints.Fixes(st.MentorNotes), "suggested fix", "suggested fixes"))}
		}
		return Plan{Action: ActStudentResult, Phase: status.PhaseCompleted, Reason: status.ReasonCompleted,
			Message: fmt.Sprintf("the Student completed the tutorial in iteration %d", st.Iteration)}
	case status.StudentAskMentor:
		if st.Iteration >= in.Desired.Config.MaxIterations {
			return Plan{Action: ActStudentResult, Phase: status.PhaseMaxIterations, Reason: status.ReasonMaxIterations,
				Message: fmt.Sprintf("the Student was still stuck after %d iterations (maxIterations)", st.Iteration)}
		}
		return Plan{Action: ActStudentResult, Phase: status.PhaseRunningMentor, Reason: status.ReasonAskedMentor,
			Message: "the Student asked the Mentor: " + out.QuestionForMentor}
	}
	reason := out.Reason
	if reason == "" {
		reason = out.Problem
	}
	return Plan{Action: ActStudentResult, Phase: status.PhaseBlocker, Reason: status.ReasonCannotComplete,
		Message: "the Student cannot complete the tutorial: " + reason}
}

// inconclusive ends the loop Inconclusive when the Student went through the
// page (it completed, or found nothing it could follow: no block was left
// unreached) and the run exercised less of the page's code blocks than
// minCoverage: neither a pass nor a verdict of gaps, since most of the page
// was never tried. The run's coverage is its best attempt's, this one's
// included (status.RunCoverage); a learner that reports none is not held
// to it. A clean replay after a completion counts as the completion did.
func inconclusive(in Input, out status.StudentOutput) (Plan, bool) {
	st := &in.Run.Status
	through := out.Status == status.StudentCompleted || checkpoints.Verifying(st) ||
		out.Status == status.StudentCannotComplete && out.Coverage != nil && out.Coverage.NotReached == 0
	cov := st.RunCoverage()
	if out.Coverage.Better(cov) {
		cov = out.Coverage
	}
	if !through || !cov.Below(in.Desired.Config.MinCoverage) {
		return Plan{}, false
	}
	return Plan{Action: ActStudentResult, Phase: status.PhaseInconclusive, Reason: status.ReasonLowCoverage,
		Message: cov.Verdict(in.Desired.Config.MinCoverage)}, true
}

// verified ends the loop with the clean replay's verdict: the Student
// completed before it, whatever the replay says.
func verified(st *status.Status, out status.StudentOutput) Plan {
	v := status.Verification{Fixes: checkpoints.Fixes(st.MentorNotes), Done: true, Verified: out.Status == status.StudentCompleted}
	if !v.Verified {
		v.Line, v.Step = out.Line, out.CurrentStep
	}
	msg := "the Student completed the tutorial; " + v.Sentence()
	return Plan{Action: ActStudentResult, Phase: status.PhaseCompleted, Reason: status.ReasonCompleted, Message: msg}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func mentorResult(in Input, r *wire.MentorResultRequest) Plan {
	st := &in.Run.Status
	if r.Advice != nil && r.Advice.Resolution == status.ResolutionUnresolvable {
		if r.Advice.Category == status.CategoryEnvironment {
			// The container, not the page, is short: no verdict on the page.
			return Plan{Action: ActMentorResult, Phase: status.PhaseInconclusive, Reason: status.ReasonEnvironment,
				Message: fmt.Sprintf("the container lacks what line %d needs and the Mentor found no way past it: the page was not shown to fail, and the rest of it was not tested", r.Advice.Line)}
		}
		return Plan{Action: ActMentorResult, Phase: status.PhaseBlocker, Reason: status.ReasonUnresolvable,
			Message: "the Mentor found no way past the Student's problem"}
	}
	return Plan{Action: ActMentorResult, Phase: status.PhaseRunningStudent, Reason: status.ReasonMentorAnswered,
		Message: fmt.Sprintf("the Mentor answered; starting iteration %d", st.Iteration+1)}
}

func restartAction(p status.Phase) Action {
	if p == status.PhaseWaitingForMentor {
		return ActStartMentor
	}
	return ActStartStudent
}

// FindContainer is the container of that name among cs.
func FindContainer(cs []runtime.Container, name string) (runtime.Container, bool) {
	for _, c := range cs {
		if c.Name == name {
			return c, true
		}
	}
	return runtime.Container{}, false
}

func phaseOf(run *status.Run) status.Phase {
	if run == nil {
		return ""
	}
	return run.Status.Phase
}

// overBudget says whether the run has spent its budgetUsd.
func overBudget(cfg spec.Config, st *status.Status) bool {
	return cfg.BudgetUSD > 0 && st.Cost != nil && st.Cost.USD >= cfg.BudgetUSD
}

// budgetPlan ends a loop whose LLM calls have cost its budget.
func budgetPlan(cfg spec.Config, st *status.Status) Plan {
	return Plan{Action: ActBudget, Phase: status.PhaseError, Reason: status.ReasonBudgetExceeded,
		Message: fmt.Sprintf("the run's LLM calls cost $%.4f, which reaches its budgetUsd of $%.2f", st.Cost.USD, cfg.BudgetUSD)}
}
