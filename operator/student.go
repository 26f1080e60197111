package operator

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/reconcile/attempt"
	"github.com/smile-loop/smile/reconcile/hands"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// Student is one Student attempt to play.
type Student struct {
	Runtime runtime.Runtime
	Desired *spec.Desired
	// Name is the container's.
	Name string
	// Work is the host folder mounted as the work folder (a Pod gets an
	// empty one instead); WrapperPath the host's smile-wrapper, mounted
	// where the image does not have it already.
	Work, WrapperPath string
	// Instance and StateKey label the container as the controller's do.
	Instance, StateKey string
}

// ErrNoResult means the learner ended without a Student's result.
var ErrNoResult = errors.New("the learner gave no Student result")

// PlayStudent starts the attempt's container (as reconcile does for an
// in-process learner: a hands-only container), plays the run's learner
// against it from this process through the runtime's exec, removes the
// container and returns the Student's result.
func PlayStudent(ctx context.Context, s Student) (*wire.StudentResultRequest, error) {
	log := logr.FromContextOrDiscard(ctx).WithValues("attempt", s.Name)
	d := s.Desired
	if !d.Config.LLMProvider.Info().InProcess {
		return nil, fmt.Errorf("play %s: provider %s runs in its container, not here", s.Name, d.Config.LLMProvider)
	}
	now := time.Now().UTC()
	task, cs := attempt.Spec(attempt.Input{
		Desired: d, Role: status.RoleStudent, Iteration: 1, RunStarted: now, Now: now,
		Name: s.Name, Work: s.Work, WrapperPath: s.WrapperPath, Instance: s.Instance, StateKey: s.StateKey,
		InProcess: true, HiddenDirs: attempt.HiddenDirs(d),
	}, wire.Task{})
	if _, err := s.Runtime.Start(ctx, cs); err != nil {
		return nil, fmt.Errorf("play %s: %w", s.Name, err)
	}
	defer func() { _ = s.Runtime.Remove(context.WithoutCancel(ctx), s.Name) }()
	h := hands.Container(ctx, s.Runtime, nil, s.Name)
	defer h.Close()
	if err := hands.WaitReady(ctx, h, hands.ReadyTimeout); err != nil {
		return nil, fmt.Errorf("play %s: %w", s.Name, err)
	}
	logs, err := os.MkdirTemp("", "smile-student-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(logs)
	task.Tutorial = d.Paths.Tutorial // the learner reads the page here
	env := provider.Env{
		WorkDir:     wire.ContainerWorkDir,
		TutorialDir: wire.ContainerTutorialDir,
		LogsDir:     logs,
		Progress:    func(context.Context, string, int) {},
		Log:         log,
		Hands:       h,
	}
	_, body, err := learner.SafePlay(ctx, &task, learner.For(task.Provider), env)
	if err != nil {
		return nil, fmt.Errorf("play %s: %w", s.Name, err)
	}
	res, ok := body.(*wire.StudentResultRequest)
	if !ok {
		return nil, fmt.Errorf("play %s: %w (%T)", s.Name, ErrNoResult, body)
	}
	return res, nil
}
