package wrappers

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/wrappers/provider"
)

// ErrWrapperPanicked marks a result the wrapper built after a panic.
var ErrWrapperPanicked = errors.New("the wrapper failed")

// SafePlay is Play with a panic in a provider (a parser meeting input it
// did not expect, say) turned into an ordinary failure: the body says the
// wrapper failed (cannot_complete for the Student, unresolvable for the
// Mentor) and is posted like any result, so the loop records an error
// instead of waiting out a container that died silently.
func SafePlay(ctx context.Context, task *wire.Task, p provider.Provider, env provider.Env) (path string, body any, err error) {
	defer func() {
		if r := recover(); r != nil {
			env.Log.Error(fmt.Errorf("panic: %v", r), "Provider panicked", "stack", string(debug.Stack()))
			path, body, err = Play(ctx, task, Failed(fmt.Errorf("%w: panic: %v", ErrWrapperPanicked, r)), env)
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
