package reconcile

import (
	"context"
	"os"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// labelPrepared marks a container started, idle, ahead of its attempt:
// while the Student works, the Mentor's container of the same iteration;
// while the Mentor works, the next Student's when it starts from the top (a
// checkpoint's image is known once the Mentor has answered). A fresh
// container then costs nothing on the loop's critical path.
const labelPrepared = "smile.dev/prepared"

// prepareWait bounds the wait for a container still being prepared when
// its attempt starts.
const prepareWait = 30 * time.Second

// prepareNext starts the container of the role that comes after the attempt
// that just started, in the background. Only an in-process learner's
// containers can be prepared: they hold no token and no task.
func (t *transition) prepareNext(ctx context.Context, started attemptInput) {
	if !started.InProcess {
		return
	}
	next := started
	next.From, next.Checkpoints = nil, false
	switch started.Role {
	case status.RoleStudent:
		next.Role, next.ReadOnlyWork = status.RoleMentor, true
	case status.RoleMentor:
		// From the top: always with fromStart, and with checkpoints while
		// none is kept (the Student asked before any slow stretch).
		fromTop := t.d.Config.ResumeMode() == spec.ResumeFromStart || len(t.run.Status.Checkpoints) == 0
		if !fromTop || started.Iteration >= t.d.Config.MaxIterations {
			return
		}
		next.Role, next.ReadOnlyWork, next.Iteration = status.RoleStudent, false, started.Iteration+1
		next.Work = t.lay.workDir(t.run.Metadata.Generation, next.Iteration)
	}
	next.Name = t.lay.container(t.run.Metadata.Generation, next.Iteration, next.Role)
	_, cs := attemptSpec(next, wire.Task{})
	cs.Labels[labelPrepared] = "true"
	done := make(chan struct{})
	r := t.r
	r.mu.Lock()
	if r.preparing == nil {
		r.preparing = map[string]chan struct{}{}
	}
	if _, busy := r.preparing[cs.Name]; busy {
		r.mu.Unlock()
		return
	}
	r.preparing[cs.Name] = done
	r.mu.Unlock()
	log := logr.FromContextOrDiscard(ctx)
	ctx = context.WithoutCancel(ctx)
	go func() {
		defer func() {
			r.mu.Lock()
			delete(r.preparing, cs.Name)
			r.mu.Unlock()
			close(done)
		}()
		if err := prepareDirs(cs); err != nil {
			log.Info("Could not prepare a container", "container", cs.Name, "error", err.Error())
			return
		}
		if _, err := r.Runtime.Start(ctx, cs); err != nil {
			log.Info("Could not prepare a container", "container", cs.Name, "error", err.Error())
		}
	}()
}

// adopt returns the container prepared for the attempt, when there is one
// made from the same image and running; a restarted attempt never adopts
// (its container ran the first try).
func (t *transition) adopt(ctx context.Context, cs runtime.ContainerSpec) (runtime.Container, bool) {
	st := &t.run.Status
	if st.Phase != status.PhaseRunningStudent && st.Phase != status.PhaseRunningMentor {
		return runtime.Container{}, false
	}
	t.r.mu.Lock()
	done := t.r.preparing[cs.Name]
	t.r.mu.Unlock()
	if done != nil {
		select {
		case <-done:
		case <-time.After(prepareWait):
			return runtime.Container{}, false
		case <-ctx.Done():
			return runtime.Container{}, false
		}
	}
	c, err := t.r.Runtime.Inspect(ctx, cs.Name)
	if err != nil || c.State != runtime.StateRunning || c.Labels[labelPrepared] != "true" || c.Image != cs.Image {
		return runtime.Container{}, false
	}
	return c, true
}

// prepared reports whether the attempt's container was prepared (being, or
// done): its work folder is already mounted and must stay.
func (t *transition) prepared(ctx context.Context, name string) bool {
	image := t.d.Config.ContainerImage
	if t.plan.From != nil {
		image = t.plan.From.Ref
	}
	_, ok := t.adopt(ctx, runtime.ContainerSpec{Name: name, Image: image})
	return ok
}

// prepareDirs makes the folders a prepared container mounts that an
// attempt would make: its work folder.
func prepareDirs(cs runtime.ContainerSpec) error {
	for _, m := range cs.Mounts {
		if m.Target == wire.ContainerWorkDir {
			if err := os.MkdirAll(m.Source, 0o777); err != nil {
				return err
			}
		}
	}
	return nil
}
