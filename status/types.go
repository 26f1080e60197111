package status

import (
	"time"

	"github.com/smile-loop/smile/spec"
)

// Phase is where a run is in the loop (the seed's LoopStatus).
type Phase string

// The phases of the seed's state machine.
const (
	// PhaseQueued: the run waits for one of the controller's slots (its
	// --parallel limit) before its generation starts.
	PhaseQueued            Phase = "Queued"
	PhaseStarting          Phase = "Starting"
	PhaseRunningStudent    Phase = "RunningStudent"
	PhaseWaitingForStudent Phase = "WaitingForStudent"
	PhaseRunningMentor     Phase = "RunningMentor"
	PhaseWaitingForMentor  Phase = "WaitingForMentor"
	PhaseCompleted         Phase = "Completed"
	PhaseMaxIterations     Phase = "MaxIterations"
	PhaseBlocker           Phase = "Blocker"
	PhaseTimeout           Phase = "Timeout"
	PhaseError             Phase = "Error"
	// PhaseStopped: a user stopped the loop (smile stop, Ctrl-C in apply
	// --wait). Not an error: the report is still written.
	PhaseStopped Phase = "Stopped"
	// PhaseInconclusive: the Student went through the page but exercised
	// less of its code than minCoverage asks for: neither a pass nor a
	// verdict of gaps, but a finding about SMILE's reading of the page.
	PhaseInconclusive Phase = "Inconclusive"
)

// Terminal reports whether the loop has ended.
func (p Phase) Terminal() bool {
	switch p {
	case PhaseCompleted, PhaseMaxIterations, PhaseBlocker, PhaseTimeout, PhaseError, PhaseStopped, PhaseInconclusive:
		return true
	}
	return false
}

// LoopStatus is the seed's snake_case name of the phase (GET /api/status and
// the report use it): "running_student", "max_iterations", ...
func (p Phase) LoopStatus() string {
	out := make([]byte, 0, len(p)+4)
	for i, r := range string(p) {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				out = append(out, '_')
			}
			r += 'a' - 'A'
		}
		out = append(out, byte(r))
	}
	return string(out)
}

// Run is the object the state file holds: the run's identity and its status.
// The spec stays in the manifest; the controller never writes it.
type Run struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Metadata   Metadata `json:"metadata"`
	Status     Status   `json:"status"`
}

// Metadata identifies a run and counts its generations.
type Metadata struct {
	Name              string    `json:"name"`
	UID               string    `json:"uid"`
	Generation        int64     `json:"generation"`
	CreationTimestamp time.Time `json:"creationTimestamp"`
	// InputDigest is the digest of the inputs this generation was made from
	// (status.inputDigest is the one the controller last acted on).
	InputDigest string `json:"inputDigest,omitempty"`
	// Manifest is the file the run was applied from.
	Manifest string `json:"manifest,omitempty"`
}

// Status is what the controller observed and did: the seed's LoopState
// (phase, iteration, mentorNotes, history, timestamps) plus Kubernetes-style
// bookkeeping. It is also the crash-resume state.
type Status struct {
	Phase       Phase             `json:"phase"`
	Iteration   int               `json:"iteration"`
	MentorNotes []MentorNote      `json:"mentorNotes"`
	History     []IterationRecord `json:"history"`
	StartedAt   time.Time         `json:"startedAt"`
	UpdatedAt   time.Time         `json:"updatedAt"`
	FinishedAt  *time.Time        `json:"finishedAt,omitempty"`

	ObservedGeneration int64       `json:"observedGeneration"`
	InputDigest        string      `json:"inputDigest,omitempty"`
	Conditions         []Condition `json:"conditions,omitempty"`
	// Reason and Message say why the run is in its phase (for terminal phases:
	// why it ended).
	Reason  Reason `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`

	// Instance is the controller that owns the run's containers.
	Instance string `json:"instance,omitempty"`
	// Token authenticates the run's containers' callbacks. It changes with
	// every generation so an old container cannot post into a new run.
	Token string `json:"token,omitempty"`
	// Attempt is the container the loop is waiting on, if any. The containers
	// a run owns are not stored: the runtime lists them by the run's labels,
	// and a finished run that keeps some names them in a ContainersKept event.
	Attempt *Attempt `json:"attempt,omitempty"`

	Gaps []Gap `json:"gaps"`
	// Cost totals the run's LLM calls so far (nil before the first).
	Cost *Cost `json:"cost,omitempty"`
	// Timeline is every transition, oldest first (describe's events, the
	// report's timeline).
	Timeline []TimelineEntry `json:"timeline,omitempty"`
	Report   *ReportRef      `json:"report,omitempty"`
	// Checkpoints are the complete snapshots the run may resume from
	// (resume: checkpoint), oldest first.
	Checkpoints []Checkpoint `json:"checkpoints,omitempty"`
	// CheckpointCache are the checkpoints of earlier generations still kept:
	// a new generation starts from the deepest whose steps are unchanged.
	CheckpointCache []Checkpoint `json:"checkpointCache,omitempty"`
	// Verification is the clean replay with every fix, once it is needed.
	Verification *Verification `json:"verification,omitempty"`
}

// TimelineEntry is one event of a run's life.
type TimelineEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Iteration int       `json:"iteration"`
	Event     string    `json:"event"`
	Details   string    `json:"details,omitempty"`
}

// Role is what a container plays.
type Role string

// The two roles.
const (
	RoleStudent Role = "student"
	RoleMentor  Role = "mentor"
)

// Attempt is one Student or Mentor invocation: one container.
type Attempt struct {
	Role        Role   `json:"role"`
	Iteration   int    `json:"iteration"`
	Container   string `json:"container"`
	ContainerID string `json:"containerID,omitempty"`
	// Instance is the controller that started the container.
	Instance  string    `json:"instance,omitempty"`
	StartedAt time.Time `json:"startedAt"`
	// The host folders mounted into the container follow from the run's
	// layout (reconcile/layout.go) and are not stored.
	// ResumedFrom is the checkpoint a Student attempt started from.
	ResumedFrom *Resumed `json:"resumedFrom,omitempty"`
	// OnDemand: the learner runs in the controller and starts its container
	// only when it first needs one (the literal Mentor mostly reads the work
	// folder): until then no container is observed, and the learner's own
	// liveness is what the planner watches.
	OnDemand bool `json:"onDemand,omitempty"`
}

// MentorNote is one answer of the Mentor, carried to every later iteration.
// The seed's fields come first; the rest is structure the literal learner and
// the report use.
type MentorNote struct {
	Iteration int       `json:"iteration"`
	Question  string    `json:"question"`
	Answer    string    `json:"answer"`
	Timestamp time.Time `json:"timestamp"`

	Line         int        `json:"line,omitempty"`
	Category     Category   `json:"category,omitempty"`
	Resolution   Resolution `json:"resolution,omitempty"`
	Workaround   string     `json:"workaround,omitempty"`
	SuggestedFix string     `json:"suggestedFix,omitempty"`
	// Key digests the tutorial up to the note's line and the notes before
	// it (StepsKey): a new generation whose tutorial gives the same key
	// keeps the note (resume: checkpoint).
	Key string `json:"key,omitempty"`
}

// Resolution is what the Mentor's note lets the Student do.
type Resolution string

// Mentor resolutions.
const (
	// ResolutionWorkaround: run Workaround before the line, then go on.
	ResolutionWorkaround Resolution = "workaround"
	// ResolutionProceed: the step is a tutorial error to note, not to fix; go on.
	ResolutionProceed Resolution = "proceed"
	// ResolutionUnresolvable: the Mentor knows no way past; the loop ends (blocker).
	ResolutionUnresolvable Resolution = "unresolvable"
)

// IterationRecord is one iteration's Student output and Mentor answer.
type IterationRecord struct {
	Iteration     int           `json:"iteration"`
	StudentOutput StudentOutput `json:"studentOutput"`
	MentorOutput  *string       `json:"mentorOutput,omitempty"`
	StartedAt     time.Time     `json:"startedAt"`
	EndedAt       time.Time     `json:"endedAt"`
	// The files holding the posted results (with their audits) follow from the
	// run's layout: reconcile.Audits reads them.
	// ResumedFrom is the checkpoint the iteration started from (nil: the
	// top, in a clean container).
	ResumedFrom *Resumed `json:"resumedFrom,omitempty"`
}

// StudentStatus is the Student's verdict on one attempt.
type StudentStatus string

// The Student's three answers.
const (
	StudentCompleted      StudentStatus = "completed"
	StudentAskMentor      StudentStatus = "ask_mentor"
	StudentCannotComplete StudentStatus = "cannot_complete"
)

// StudentOutput is the seed's Student output. Line, Quote and Findings are
// optional extensions: where the Student was, and the problems it met.
type StudentOutput struct {
	Status            StudentStatus `json:"status"`
	CurrentStep       string        `json:"currentStep"`
	AttemptedActions  []string      `json:"attemptedActions"`
	Problem           string        `json:"problem,omitempty"`
	QuestionForMentor string        `json:"questionForMentor,omitempty"`
	Reason            string        `json:"reason,omitempty"`
	Summary           string        `json:"summary"`
	FilesCreated      []string      `json:"filesCreated"`
	CommandsRun       []string      `json:"commandsRun"`

	Line     int       `json:"line,omitempty"`
	Quote    string    `json:"quote,omitempty"`
	Findings []Finding `json:"findings,omitempty"`
	// Skipped lists the blocks the Student did not follow and why.
	Skipped []SkippedBlock `json:"skipped,omitempty"`
	// Coverage says what the attempt did with each code block of the page
	// (coverage.go); nil when the learner cannot say (the model-backed ones).
	Coverage *Coverage `json:"coverage,omitempty"`
}

// Category classifies a gap.
type Category string

// Gap categories.
const (
	CategoryMissingDependency    Category = "missing_dependency"
	CategoryPermissionDenied     Category = "permission_denied"
	CategoryMissingFile          Category = "missing_file"
	CategoryUndefinedVariable    Category = "undefined_variable"
	CategoryTimeout              Category = "timeout"
	CategoryOutputMismatch       Category = "output_mismatch"
	CategoryAmbiguousInstruction Category = "ambiguous_instruction"
	CategoryMissingImage         Category = "missing_image"
	CategoryCommandFailure       Category = "command_failure"
	// CategoryEnvironment is what the container lacked, not the tutorial: no
	// network, a daemon or device missing, a tool the tutorial lists as a
	// prerequisite. Never critical.
	CategoryEnvironment Category = "environment"
)

// Categories are every gap category, in the order reports list them. The
// model-backed providers' prompts, answer schemas and answer recovery all
// take their list from here.
var Categories = []Category{
	CategoryMissingDependency, CategoryPermissionDenied, CategoryMissingFile, CategoryUndefinedVariable,
	CategoryTimeout, CategoryOutputMismatch, CategoryAmbiguousInstruction, CategoryMissingImage,
	CategoryCommandFailure, CategoryEnvironment,
}

// CategoryNames are Categories as strings.
func CategoryNames() []string {
	out := make([]string, len(Categories))
	for i, c := range Categories {
		out[i] = string(c)
	}
	return out
}

// Finding is a problem the Student met at a tutorial line. Asked says whether
// the Student stopped to ask the Mentor about it (its trigger was on).
type Finding struct {
	Category     Category `json:"category"`
	Line         int      `json:"line"`
	Quote        string   `json:"quote"`
	Problem      string   `json:"problem"`
	Command      string   `json:"command,omitempty"`
	Output       string   `json:"output,omitempty"`
	ExitCode     int      `json:"exitCode,omitempty"`
	Attempts     int      `json:"attempts,omitempty"`
	Asked        bool     `json:"asked,omitempty"`
	SuggestedFix string   `json:"suggestedFix,omitempty"`
	// Lines are further tutorial lines where the same problem was seen (the
	// same mismatch repeated is one finding that lists its lines).
	Lines []int `json:"lines,omitempty"`
	// CauseLine points back at a block the Student skipped whose absence is
	// the likely cause (a file that block would have created); CauseQuote
	// quotes the prose around it.
	CauseLine  int    `json:"causeLine,omitempty"`
	CauseQuote string `json:"causeQuote,omitempty"`
	// Tolerant says the output was only "something like" what the tutorial
	// shows: never critical, never a reason to stop.
	Tolerant bool `json:"tolerant,omitempty"`
	// Optional is the line of the prose that makes the failed step optional
	// ("if you want a PDF, also install ..."): a minor note, never a reason
	// to stop. 0 for a step on the path.
	Optional int `json:"optional,omitempty"`
	// AfterWorkaround is the iteration of the Mentor's workaround that ran
	// just before the failing step: a failure after it is a gap of its own,
	// never merged into the one the workaround answered. 0 when none ran.
	AfterWorkaround int `json:"afterWorkaround,omitempty"`
}

// SkippedBlock is a block the Student did not follow, with the reason
// (another platform, an alternative, a syntax template, a block it could not
// place). Skipped blocks are listed in the report, never reported as gaps.
type SkippedBlock struct {
	Line    int    `json:"line"`
	EndLine int    `json:"endLine,omitempty"`
	Reason  string `json:"reason"`
	Quote   string `json:"quote,omitempty"`
	// FailedLine, for a block not reached, is the line of the failed step
	// it depends on (the Student went on with the steps that did not).
	FailedLine int `json:"failedLine,omitempty"`
}

// Severity ranks a gap.
type Severity string

// Gap severities, from the seed.
const (
	SeverityCritical Severity = "critical" // blocks progress completely
	SeverityMajor    Severity = "major"    // significant confusion or delay
	SeverityMinor    Severity = "minor"    // minor clarification needed
)

// Rank orders severities: critical 3, major 2, minor 1, anything else 0.
func (s Severity) Rank() int {
	switch s {
	case SeverityCritical:
		return 3
	case SeverityMajor:
		return 2
	case SeverityMinor:
		return 1
	}
	return 0
}

// Gap is one thing the tutorial forgot, at its exact line.
type Gap struct {
	ID           int         `json:"id"`
	Title        string      `json:"title"`
	Category     Category    `json:"category"`
	Severity     Severity    `json:"severity"`
	Location     GapLocation `json:"location"`
	Problem      string      `json:"problem"`
	SuggestedFix string      `json:"suggestedFix"`
	Iteration    int         `json:"iteration"`
	// Command is what failed, when a command did.
	Command string `json:"command,omitempty"`
	// Lines are further tutorial lines where the same problem was seen.
	Lines []int `json:"lines,omitempty"`
	// CauseLine is a block the Student skipped whose absence likely caused
	// the gap; CauseQuote quotes the prose around it.
	CauseLine  int    `json:"causeLine,omitempty"`
	CauseQuote string `json:"causeQuote,omitempty"`
	// Tolerant: the tutorial shows the output only as an example ("something
	// like"); such a gap is never critical.
	Tolerant bool `json:"tolerant,omitempty"`
	// Optional is the line of the prose that makes the failed step optional;
	// such a gap is minor. 0 for a step on the path.
	Optional int `json:"optional,omitempty"`
	// WorkaroundResult says how the Mentor's workaround for this line ended
	// when it failed or ran out of time (from the audit); empty otherwise.
	WorkaroundResult string `json:"workaroundResult,omitempty"`
}

// GapLocation points at the tutorial line of a gap.
type GapLocation struct {
	LineNumber int    `json:"lineNumber"`
	Quote      string `json:"quote"`
}

// ReportRef says where the run's report files are.
type ReportRef struct {
	Markdown  string    `json:"markdown"`
	JSON      string    `json:"json"`
	AuditLog  string    `json:"auditLog"`
	WrittenAt time.Time `json:"writtenAt"`
}

// NewRun returns a fresh object for a run about to start.
func NewRun(name, uid, manifest string, now time.Time) *Run {
	return &Run{
		APIVersion: spec.APIVersion,
		Kind:       spec.Kind,
		Metadata:   Metadata{Name: name, UID: uid, CreationTimestamp: now, Manifest: manifest},
	}
}
