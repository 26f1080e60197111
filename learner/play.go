package learner

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// Play runs the task's role. It always returns a body to post: when the
// provider cannot run, the body says so (cannot_complete for the Student,
// unresolvable for the Mentor) and the error is returned too. A provider may
// return its own body with the error (what it did before it failed).
func Play(ctx context.Context, task *wire.Task, p provider.Provider, env provider.Env) (string, any, error) {
	now := time.Now().UTC()
	switch task.Role {
	case status.RoleMentor:
		res, err := p.Mentor(ctx, task, env)
		if err != nil && res == nil {
			return wire.PathMentorResult, &wire.MentorResultRequest{
				MentorOutput: fmt.Sprintf("The Mentor could not run: %v", err),
				Timestamp:    now,
				Advice:       &wire.MentorAdvice{Resolution: status.ResolutionUnresolvable},
			}, err
		}
		return wire.PathMentorResult, res, err
	default:
		res, err := p.Student(ctx, task, env)
		if err != nil && res == nil {
			reason := err.Error()
			return wire.PathStudentResult, &wire.StudentResultRequest{
				StudentOutput: status.StudentOutput{
					Status:           status.StudentCannotComplete,
					CurrentStep:      "start of the tutorial",
					AttemptedActions: []string{},
					Problem:          reason,
					Reason:           reason,
					Summary:          "The Student could not start: " + reason,
					FilesCreated:     []string{},
					CommandsRun:      []string{},
				},
				Timestamp: now,
			}, err
		}
		return wire.PathStudentResult, res, err
	}
}

// ErrPanicked marks a result built after a provider panicked.
var ErrPanicked = errors.New("the wrapper failed")

// SafePlay is Play with a panic in a provider (a parser meeting input it
// did not expect, say) turned into an ordinary failure: the body says the
// wrapper failed (cannot_complete for the Student, unresolvable for the
// Mentor) and is posted like any result, so the loop records an error
// instead of waiting out a container that died silently.
func SafePlay(ctx context.Context, task *wire.Task, p provider.Provider, env provider.Env) (path string, body any, err error) {
	defer func() {
		if r := recover(); r != nil {
			env.Log.Error(fmt.Errorf("panic: %v", r), "Provider panicked", "stack", string(debug.Stack()))
			path, body, err = Play(ctx, task, Failed(fmt.Errorf("%w: panic: %v", ErrPanicked, r)), env)
		}
	}()
	return Play(ctx, task, p, env)
}

// Failed is a provider that only fails, with err: Play turns it into the
// body that says the role could not run.
func Failed(err error) provider.Provider { return failed{err} }

// failed is a provider that only fails, with err.
type failed struct{ err error }

// Student is part of the provider.Provider interface.
func (f failed) Student(context.Context, *wire.Task, provider.Env) (*wire.StudentResultRequest, error) {
	return nil, f.err
}

// Mentor is part of the provider.Provider interface.
func (f failed) Mentor(context.Context, *wire.Task, provider.Env) (*wire.MentorResultRequest, error) {
	return nil, f.err
}
