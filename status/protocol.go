package status

import (
	"strings"
	"time"

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
	Role      Role                 `json:"role"`
	Provider  spec.Provider        `json:"provider"`
	Iteration int                  `json:"iteration"`
	Attempt   string               `json:"attempt"`
	Tutorial  string               `json:"tutorial"` // path inside the container
	Behavior  spec.StudentBehavior `json:"behavior"`
	// MentorNotes are all the Mentor's notes so far, oldest first.
	MentorNotes []MentorNote `json:"mentorNotes"`
	// Mentor only: what the Student asked, and what it had tried.
	Question      string         `json:"question,omitempty"`
	StudentOutput *StudentOutput `json:"studentOutput,omitempty"`
	// LLM is what a model-backed provider needs (claude, codex, gemini,
	// openai); nil for literal.
	LLM *TaskLLM `json:"llm,omitempty"`
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
	StudentOutput StudentOutput `json:"studentOutput"`
	Timestamp     time.Time     `json:"timestamp"`
	Audit         *Audit        `json:"audit,omitempty"`
}

// MentorResultRequest is the body of POST /api/mentor/result. Advice is the
// structured form of the notes, when the provider can give one.
type MentorResultRequest struct {
	MentorOutput string        `json:"mentorOutput"`
	Timestamp    time.Time     `json:"timestamp"`
	Advice       *MentorAdvice `json:"advice,omitempty"`
	Audit        *Audit        `json:"audit,omitempty"`
}

// MentorAdvice is the Mentor's answer in a form the loop can act on.
type MentorAdvice struct {
	Line         int        `json:"line,omitempty"`
	Category     string     `json:"category,omitempty"`
	Resolution   Resolution `json:"resolution"`
	Workaround   string     `json:"workaround,omitempty"`
	SuggestedFix string     `json:"suggestedFix,omitempty"`
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
	Stopped    bool      `json:"stopped"`
	FinalState LoopState `json:"finalState"`
}

// LoopState is the seed's view of a run (GET /api/status).
type LoopState struct {
	Status      string            `json:"status"`
	Iteration   int               `json:"iteration"`
	MentorNotes []MentorNote      `json:"mentorNotes"`
	History     []IterationRecord `json:"history"`
	StartedAt   time.Time         `json:"startedAt"`
	UpdatedAt   time.Time         `json:"updatedAt"`
}

// LoopState returns the seed's view of the status.
func (s *Status) LoopState() LoopState {
	return LoopState{
		Status:      s.Phase.LoopStatus(),
		Iteration:   s.Iteration,
		MentorNotes: nonNil(s.MentorNotes),
		History:     nonNil(s.History),
		StartedAt:   s.StartedAt,
		UpdatedAt:   s.UpdatedAt,
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// Audit is what a container did: every command with its exit code, duration
// and an excerpt of its output, every file it wrote, every model call.
type Audit struct {
	Commands []AuditCommand `json:"commands"`
	Files    []AuditFile    `json:"files"`
	LLMCalls []LLMCall      `json:"llmCalls"`
}

// AuditCommand is one command run in the container.
type AuditCommand struct {
	Iteration  int       `json:"iteration"`
	Role       Role      `json:"role"`
	Line       int       `json:"line,omitempty"`
	Command    string    `json:"command"`
	ExitCode   int       `json:"exitCode"`
	DurationMs int64     `json:"durationMs"`
	Output     string    `json:"output"`
	StartedAt  time.Time `json:"startedAt"`
	// Workaround marks a command the Mentor suggested, not the tutorial.
	Workaround bool `json:"workaround,omitempty"`
	Attempt    int  `json:"attempt,omitempty"`
	TimedOut   bool `json:"timedOut,omitempty"`
}

// AuditFile is one file written in the container's work folder.
type AuditFile struct {
	Iteration int       `json:"iteration"`
	Line      int       `json:"line,omitempty"`
	Path      string    `json:"path"`
	Action    string    `json:"action"` // create | append
	Bytes     int       `json:"bytes"`
	WrittenAt time.Time `json:"writtenAt"`
}

// LLMCall is one model invocation, with its cost when known.
type LLMCall struct {
	Iteration    int       `json:"iteration"`
	Role         Role      `json:"role"`
	Provider     string    `json:"provider"`
	Model        string    `json:"model,omitempty"`
	InputTokens  int64     `json:"inputTokens"`
	OutputTokens int64     `json:"outputTokens"`
	CostUSD      float64   `json:"costUsd"`
	Estimated    bool      `json:"estimated,omitempty"`
	DurationMs   int64     `json:"durationMs"`
	StartedAt    time.Time `json:"startedAt"`
	Error        string    `json:"error,omitempty"`
	// NoPrice marks a call whose model has no entry in the price table: its
	// cost is unknown, not zero.
	NoPrice bool `json:"noPrice,omitempty"`
	// RawOutput keeps what the model answered when it could not be read as
	// the expected JSON (E12, E20), shortened like command output.
	RawOutput string `json:"rawOutput,omitempty"`
}

// MaxOutputExcerpt bounds the output kept per command in the audit trail.
const MaxOutputExcerpt = 2000

// Excerpt shortens command output for the audit trail, keeping its start and
// its end (where errors usually are).
func Excerpt(s string) string {
	if len(s) <= MaxOutputExcerpt {
		return s
	}
	head := s[:MaxOutputExcerpt/2]
	tail := s[len(s)-MaxOutputExcerpt/2:]
	return strings.ToValidUTF8(head, "") + "\n[... output shortened ...]\n" + strings.ToValidUTF8(tail, "")
}
