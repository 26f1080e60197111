package status

// Reason is the one-word, machine-readable cause of a run's phase or of a
// condition (CamelCase, as Kubernetes spells reasons). Clients match on
// these values, so each is spelt once, here.
type Reason string

// The reasons the controller writes into status and conditions.
const (
	ReasonInputsChanged  Reason = "InputsChanged"
	ReasonNewGeneration  Reason = "NewGeneration"
	ReasonStarted        Reason = "Started"
	ReasonStudentRunning Reason = "StudentRunning"
	ReasonMentorRunning  Reason = "MentorRunning"
	ReasonUnknownPhase   Reason = "UnknownPhase"
	ReasonNoAttempt      Reason = "NoAttempt"
	ReasonResumed        Reason = "Resumed"
	ReasonContainerDied  Reason = "ContainerDied"
	ReasonNoCallback     Reason = "NoCallback"
	ReasonNoContainer    Reason = "NoContainer"
	ReasonCurrent        Reason = "Current"
	ReasonRunning        Reason = "Running"
	ReasonFinished       Reason = "Finished"
	ReasonMentorTimeout  Reason = "MentorTimeout"
	ReasonCompleted      Reason = "Completed"
	ReasonMaxIterations  Reason = "MaxIterations"
	ReasonAskedMentor    Reason = "AskedMentor"
	ReasonCannotComplete Reason = "CannotComplete"
	ReasonUnresolvable   Reason = "Unresolvable"
	ReasonMentorAnswered Reason = "MentorAnswered"
	ReasonStopped        Reason = "Stopped"
	ReasonTimeout        Reason = "Timeout"
	ReasonBudgetExceeded Reason = "BudgetExceeded"
	ReasonImageNotFound  Reason = "ImageNotFound"
	// ReasonVerifying: the Student completed from a checkpoint; the tutorial
	// is replayed once from a clean start with every fix.
	ReasonVerifying Reason = "Verifying"
	// ReasonInvalidSpec: the manifest or smile.json cannot be used; the run
	// waits for the user to fix its inputs.
	ReasonInvalidSpec Reason = "InvalidSpec"
	// ReasonGapsFound: the loop completed, and the tutorial has gaps.
	ReasonGapsFound Reason = "GapsFound"
	// ReasonQueued: the run waits for a free slot (the controller's
	// --parallel limit).
	ReasonQueued Reason = "Queued"
	// ReasonLowCoverage: the Student went through the page but exercised
	// less of its code blocks than minCoverage (phase Inconclusive).
	ReasonLowCoverage Reason = "LowCoverage"
	// ReasonEnvironment: the Student stopped at what the container lacks
	// (the network, a device, a daemon the page states) and the Mentor
	// found no way past it: the page was not shown to fail, and what
	// follows was not tested (phase Inconclusive).
	ReasonEnvironment Reason = "Environment"
	// ReasonInconclusive: the Succeeded condition of an Inconclusive run:
	// neither passed nor failed (get's RESULT).
	ReasonInconclusive Reason = "Inconclusive"
	// ReasonUnwritable: the run's files (state, inbox, reports) cannot be
	// written, for want of space or write access; the run ended (phase Error)
	// and its report went to stdout.
	ReasonUnwritable Reason = "Unwritable"
	// ReasonReconcileFailed: the last reconcile returned an error.
	ReasonReconcileFailed Reason = "ReconcileFailed"
)
