package mentor

import (
	"context"
	"time"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status/wire"
)

// Provider stands in for literal.Provider in this package's tests: its
// Mentor answers as literal.Provider.Mentor does.
type Provider struct {
	LookPath func(file string) (string, error)
	Probe    func(ctx context.Context, script string, timeout time.Duration) (output string, exit int, err error)
}

func (p Provider) Mentor(ctx context.Context, task *wire.Task, env provider.Env) (*wire.MentorResultRequest, error) {
	if env.Progress == nil {
		env.Progress = provider.NoProgress
	}
	return Answer(ctx, task, env, p.LookPath, p.Probe), nil
}
