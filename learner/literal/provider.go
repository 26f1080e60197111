package literal

import (
	"context"
	"time"

	"github.com/smile-loop/smile/learner/literal/mentor"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/provider"
)

// Provider is the literal provider. The zero value is ready to use.
type Provider struct {
	// LookPath finds a program on PATH; nil means exec.LookPath. The Mentor
	// uses it to find the image's package manager.
	LookPath func(file string) (string, error)
	// Probe runs the Mentor's look-ups (which package provides a command)
	// with a time limit; nil runs them with sh -c where the Mentor runs.
	Probe func(ctx context.Context, script string, timeout time.Duration) (output string, exit int, err error)
}

var _ provider.Provider = Provider{}

// Student is part of the provider.Provider interface.
func (p Provider) Student(ctx context.Context, task *wire.Task, env provider.Env) (*wire.StudentResultRequest, error) {
	if env.Progress == nil {
		env.Progress = provider.NoProgress
	}
	return runStudent(ctx, task, env), nil
}

// Mentor is part of the provider.Provider interface.
func (p Provider) Mentor(ctx context.Context, task *wire.Task, env provider.Env) (*wire.MentorResultRequest, error) {
	if env.Progress == nil {
		env.Progress = provider.NoProgress
	}
	return mentor.Answer(ctx, task, env, p.LookPath, p.Probe), nil
}
