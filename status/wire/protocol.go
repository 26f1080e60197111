package wire

import (
	"time"

	"github.com/smile-loop/smile/status"

	"github.com/smile-loop/smile/spec"
)

// The container side of the protocol: where the wrapper finds things.
const (
	ContainerTutorialDir = "/workspace/tutorial"
	ContainerWorkDir     = "/workspace/work"
	ContainerLogsDir     = "/workspace/logs"
	// ContainerWrapperPath is where the wrapper binary is mounted (read-only).
	ContainerWrapperPath = "/opt/smile/bin/smile-wrapper"
	// TaskFileName is the task the controller writes into the logs folder.
	TaskFileName = "task.json"

	// EnvCallbackURL, EnvToken and EnvTask are the wrapper's environment.
	EnvCallbackURL = "SMILE_CALLBACK_URL"
	EnvToken       = "SMILE_TOKEN"
	EnvTask        = "SMILE_TASK"
	// EnvRelaySocket, when set, is the Unix socket of a container without a
	// network (studentNetwork none): the wrapper reaches the controller, and
	// its provider's API, only through it.
	EnvRelaySocket = "SMILE_RELAY_SOCKET"
	// ContainerRelayDir is where the relay's socket folder is mounted.
	ContainerRelayDir = "/opt/smile/relay"
	// RelaySocketName is the socket's file name in that folder.
	RelaySocketName = "smile.sock"

	// HeaderAttempt names the container a callback comes from.
	HeaderAttempt = "X-Smile-Attempt"
)

// The callback API of the seed, plus progress reports.
const (
	PathStudentResult = "/api/student/result"
	PathMentorResult  = "/api/mentor/result"
	PathProgress      = "/api/progress"
	PathStatus        = "/api/status"
	PathStop          = "/api/stop"
)

// Task is what one container is asked to do. The controller writes it to
// the attempt's logs folder; the wrapper reads it from ContainerLogsDir.
type Task struct {
	Run       string               `json:"run"`
	Role      status.Role          `json:"role"`
	Provider  spec.Provider        `json:"provider"`
	Iteration int                  `json:"iteration"`
	Attempt   string               `json:"attempt"`
	Tutorial  string               `json:"tutorial"` // path inside the container
	Behavior  spec.StudentBehavior `json:"behavior"`
	// Runners and Setup are smile.json's: the program each block language is
	// typed into when the page does not say, and the commands the page
	// assumes but does not show, run before its first step.
	Runners map[string]string `json:"runners,omitempty"`
	Setup   []string          `json:"setup,omitempty"`
	// User is container.user: the account the page's commands run as ("":
	// the hands' own, root).
	User string `json:"user,omitempty"`
	// Page is the page's own settings, from its front matter's `smile:`,
	// read by the controller (the wrapper reads no YAML): its runners win
	// over smile.json's, its setup runs after smile.json's.
	Page *spec.PageSteering `json:"page,omitempty"`
	// MentorNotes are all the Mentor's notes so far, oldest first.
	MentorNotes []status.MentorNote `json:"mentorNotes"`
	// Mentor only: what the Student asked, and what it had tried.
	Question      string                `json:"question,omitempty"`
	StudentOutput *status.StudentOutput `json:"studentOutput,omitempty"`
	// LLM is what a model-backed provider needs (claude, codex, gemini,
	// openai); nil for literal.
	LLM *TaskLLM `json:"llm,omitempty"`
	// Checkpoints asks the Student to keep checkpoints as it goes (resume:
	// checkpoint), where its provider can.
	Checkpoints bool `json:"checkpoints,omitempty"`
	// Resume, when set, says the container starts from a checkpoint: the
	// Student goes on at the step of that line, with that shell state.
	Resume *Resume `json:"resume,omitempty"`
}

// Resume is where a Student attempt starts when not from the top.
type Resume struct {
	Line  int               `json:"line"`
	Shell status.ShellState `json:"shell"`
	// Learned is what the Student knew at the checkpoint (nil: nothing
	// kept, the steps above are only skipped).
	Learned *status.Learned `json:"learned,omitempty"`
}

// TaskLLM is the part of the run's configuration a model-backed provider
// needs, resolved for the task's role. It never holds a credential: only the
// name of the environment variable that does.
type TaskLLM struct {
	// Model is the role's model ("" = the provider's default).
	Model string `json:"model,omitempty"`
	// MaxTurns bounds the agent's turns in this invocation.
	MaxTurns int `json:"maxTurns"`
	// TimeoutSeconds bounds the attempt's model calls together (answer,
	// repairs, retries): the role's invocationTimeoutSeconds, cut to what is
	// left of the run's timeout.
	TimeoutSeconds int `json:"timeoutSeconds"`
	// BaseURL and APIKeyEnv are the openai provider's endpoint.
	BaseURL   string `json:"baseUrl,omitempty"`
	APIKeyEnv string `json:"apiKeyEnv,omitempty"`
	// Prices estimates the cost of calls the provider reports only in tokens.
	Prices map[string]spec.Price `json:"prices,omitempty"`
	// Network is the container's network (bridge or none).
	Network spec.Network `json:"network,omitempty"`
}

// StudentResultRequest is the body of POST /api/student/result.
type StudentResultRequest struct {
	StudentOutput status.StudentOutput `json:"studentOutput"`
	Timestamp     time.Time            `json:"timestamp"`
	Audit         *status.Audit        `json:"audit,omitempty"`
	// Checkpoints are the complete snapshots the attempt took (an in-process
	// Student only: the controller takes them).
	Checkpoints []status.Checkpoint `json:"checkpoints,omitempty"`
}

// MentorResultRequest is the body of POST /api/mentor/result. Advice is the
// structured form of the notes, when the provider can give one.
type MentorResultRequest struct {
	MentorOutput string        `json:"mentorOutput"`
	Timestamp    time.Time     `json:"timestamp"`
	Advice       *MentorAdvice `json:"advice,omitempty"`
	Audit        *status.Audit `json:"audit,omitempty"`
}

// MentorAdvice is the Mentor's answer in a form the loop can act on.
type MentorAdvice struct {
	Line         int               `json:"line,omitempty"`
	Category     status.Category   `json:"category,omitempty"`
	Resolution   status.Resolution `json:"resolution"`
	Workaround   string            `json:"workaround,omitempty"`
	SuggestedFix string            `json:"suggestedFix,omitempty"`
}

// ResultResponse answers both result POSTs.
type ResultResponse struct {
	Acknowledged bool   `json:"acknowledged"`
	NextAction   string `json:"nextAction"` // continue | stop
}

// ProgressRequest is the body of POST /api/progress: the wrapper says what
// it is doing. It is also the heartbeat the step timeout is measured from.
type ProgressRequest struct {
	Step      string    `json:"step"`
	Line      int       `json:"line,omitempty"`
	Timestamp time.Time `json:"timestamp"`
}

// StopRequest is the body of POST /api/stop.
type StopRequest struct {
	Reason string `json:"reason"`
}

// StopResponse answers POST /api/stop.
type StopResponse struct {
	Stopped    bool             `json:"stopped"`
	FinalState status.LoopState `json:"finalState"`
}

// ErrorResponse is the body of every refused call. Reason, when set, lets the
// caller map the error back to a sentinel (status.ReasonNotFound is
// status.ErrUnknownRun) instead of matching its text.
type ErrorResponse struct {
	Error  string        `json:"error"`
	Reason status.Reason `json:"reason,omitempty"`
}

// LoadTutorial loads the task's tutorial with the page's own settings the
// controller read from its front matter (the wrapper reads no YAML).
func (t *Task) LoadTutorial() (*spec.Tutorial, error) {
	tut, err := spec.LoadTutorial(t.Tutorial)
	if err != nil {
		return nil, err
	}
	if t.Page != nil {
		tut.Steering = *t.Page
	}
	return tut, nil
}
