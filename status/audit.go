package status

import (
	"strings"
	"time"
)

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
