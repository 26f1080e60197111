package provider

import (
	"context"
	"os"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/session"
)

// Provider plays the Student and the Mentor inside the container.
//
// Student follows the task's tutorial and returns the body to post to
// /api/student/result; Mentor answers the Student's question and returns the
// body to post to /api/mentor/result. Problems the tutorial causes are part of
// the result (findings, cannot_complete, an unresolvable advice), never
// errors: an error means the provider itself could not run (a missing CLI, an
// unsupported provider), and the wrapper turns it into a result that says so.
type Provider interface {
	Student(ctx context.Context, task *wire.Task, env Env) (*wire.StudentResultRequest, error)
	Mentor(ctx context.Context, task *wire.Task, env Env) (*wire.MentorResultRequest, error)
}

// Env is the container a provider runs in: where things are mounted, how to
// report progress and where to log.
type Env struct {
	// WorkDir is the Student's working folder (read-only for the Mentor).
	WorkDir string
	// TutorialDir holds the tutorial and its images (read-only).
	TutorialDir string
	// LogsDir is where the task is read from and result.json is written.
	LogsDir string
	// Progress tells the controller what the role is doing; it is also the
	// heartbeat the step timeout is measured from. Never nil.
	Progress func(ctx context.Context, step string, line int)
	// Log writes to stderr, which is the container log.
	Log logr.Logger
	// Hands is where the role's commands run and its files are read and
	// written: nil means this process (the wrapper inside the container);
	// the controller gives a container's hands to a learner it runs itself.
	Hands session.Hands
	// Environ is the environment commands start with; nil means this
	// process's own (os.Environ).
	Environ []string
	// Checkpoint, when set, keeps a snapshot of the learner's world now,
	// just before the step at line, with the shell's state, the cache key
	// of the steps that led there and what the learner learned from them;
	// it returns once the snapshot is complete. Nil: this run does not keep
	// checkpoints.
	Checkpoint func(ctx context.Context, line int, key string, shell status.ShellState, learned *status.Learned) error
}

// HandsOrLocal returns the hands to use: Hands, or this process's own.
func (e Env) HandsOrLocal() session.Hands {
	if e.Hands == nil {
		return session.Local{}
	}
	return e.Hands
}

// CommandEnv returns the environment commands start with: Environ; this
// process's own for local hands; nil for other hands, whose session then
// starts from their system's own environment (the container's), never from
// this process's (the controller's, which holds keys).
func (e Env) CommandEnv() []string {
	switch {
	case e.Environ != nil:
		return e.Environ
	case e.Hands == nil:
		return os.Environ()
	}
	return nil
}

// NoProgress is a Progress that reports nothing.
func NoProgress(context.Context, string, int) {}
