package reconcile

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/reconcile/checkpoints"
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/hands"
	"github.com/smile-loop/smile/reconcile/inbox"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

// InProcess reports whether a provider's learner (its "brain") runs in the
// controller, driving its container's "hands" through the runtime: the
// container then holds no token, no task and no key, so nothing a
// tutorial's commands can read lets them post a result, and an openai key
// never enters it. The vendor CLIs run their own tools beside themselves and
// keep the in-container wrapper.
func InProcess(p spec.Provider) bool { return p.Info().InProcess }

// inProcess reports whether this reconciler runs the provider's learner
// itself.
func (r *Reconciler) inProcess(p spec.Provider) bool { return r.Brains != nil && InProcess(p) }

// brainAttempt is what a brain needs to play one attempt.
type brainAttempt struct {
	run       string
	container string
	task      wire.Task
	box       inbox.Inbox
	logsDir   string
	// target names the checkpoints the Student keeps (nil: none).
	target *checkpointTarget
	brainOpts
}

// brainOpts are what some attempts' learners do besides playing.
type brainOpts struct {
	// demand: the attempt's container starts when the learner first needs
	// it (nil: it runs already).
	demand *onDemand
	// later: the next Student's container, prepared once the learner is past
	// a line (prepare.go: knownGround).
	later *laterPrep
}

// onDemand is what an attempt needs to start its container itself.
type onDemand struct {
	item pool.Item // the container, as the pool starts it
	work string    // the work folder it mounts, on the host
}

// startBrain runs the attempt's learner in this process.
func (t *transition) startBrain(ctx context.Context, task wire.Task, name, logs string, opts brainOpts) {
	// The brain reads the tutorial from the host: the same folder the
	// container sees read-only.
	task.Tutorial = t.d.Paths.Tutorial
	if task.LLM != nil {
		task.LLM.BaseURL = runtime.FromHost(ctx, t.r.Runtime, task.LLM.BaseURL)
	}
	a := brainAttempt{run: t.d.Name, container: name, task: task, box: inbox.Inbox(t.lay.inbox()), logsDir: logs, brainOpts: opts}
	if task.Checkpoints {
		tgt := t.checkpointTarget()
		a.target = &tgt
	}
	log := logr.FromContextOrDiscard(ctx).WithValues("attempt", name)
	t.r.Brains.Start(name, func(ctx context.Context) { t.r.playBrain(logr.NewContext(ctx, log), a) })
}

// playBrain plays the attempt and keeps its result in the inbox, as the API
// keeps a posted one, then wakes the run's reconciler.
func (r *Reconciler) playBrain(ctx context.Context, a brainAttempt) {
	log := logr.FromContextOrDiscard(ctx)
	var h session.Hands
	var ready func(ctx context.Context) error
	if a.demand != nil {
		dh := hands.NewOnDemand(ctx, r.Runtime, r.containers(), a.demand.item)
		defer dh.Close()
		// What the learner reads of the work folder, it reads here.
		h = session.View{Target: wire.ContainerWorkDir, Source: a.demand.work, Next: dh}
		ready = func(context.Context) error { return nil } // the container's start waits for it
	} else {
		ch := hands.Container(ctx, r.Runtime, r.containers(), a.container)
		defer ch.Close()
		h = ch
		ready = func(ctx context.Context) error { return hands.WaitReady(ctx, ch, hands.ReadyTimeout) }
	}
	env := provider.Env{
		WorkDir:     wire.ContainerWorkDir,
		TutorialDir: wire.ContainerTutorialDir, // where the model's tools find it
		LogsDir:     a.logsDir,
		Progress:    func(_ context.Context, step string, line int) { r.brainProgress(a, step, line) },
		Log:         log,
		Hands:       h,
		Environ:     nil, // the container's own, read by the hands
	}
	kept := &checkpoints.Kept{}
	if a.target != nil {
		env.Checkpoint = r.checkpointFunc(a.container, *a.target, kept)
	}
	env.Progress(ctx, "starting", 0)
	var path string
	var body any
	var err error
	if err = ready(ctx); err == nil {
		// A panic in the learner becomes a result saying so, never a dead controller.
		path, body, err = learner.SafePlay(ctx, &a.task, learner.For(a.task.Provider), env)
	} else {
		path, body, _ = learner.Play(ctx, &a.task, learner.Failed(err), env)
	}
	if ctx.Err() != nil {
		return // stopped: the attempt is over, whatever it found
	}
	if err != nil {
		log.Error(err, "Learner could not run")
	}
	p := &planner.Posted{Attempt: a.container, ReceivedAt: time.Now().UTC()}
	switch b := body.(type) {
	case *wire.StudentResultRequest:
		b.Checkpoints = kept.All()
		p.Role, p.Student = status.RoleStudent, b
	case *wire.MentorResultRequest:
		p.Role, p.Mentor = status.RoleMentor, b
	default:
		log.Error(fmt.Errorf("unexpected %T at %s", body, path), "Learner gave no result")
		return
	}
	// The user's copy; the inbox keeps the result the planner reads, durably.
	// Both without the credentials a tutorial printed.
	status.RedactAll(body)
	if err := inbox.ReplaceJSON(filepath.Join(a.logsDir, wrappers.ResultFileName), body); err != nil {
		log.Error(err, "Cannot write result file")
	}
	if err := a.box.PutResult(p); err != nil {
		log.Error(err, "Cannot keep result", "attempt", a.container)
		r.unwritable.Lose(a.run, err) // the run ends at its next reconcile (giveUp)
	}
	if r.Wake != nil {
		r.Wake(a.run)
	}
}

// brainProgress records what the learner does, the heartbeat the step
// timeout is measured from, and shows it to observers.
func (r *Reconciler) brainProgress(a brainAttempt, step string, line int) {
	a.later.past(r.containers(), line)
	p := &planner.Progress{Step: step, Line: line, At: r.now()}
	if err := a.box.PutProgress(a.container, p); err != nil {
		return
	}
	if run, ok := r.Observed(a.run); ok {
		r.Events.Publish(events.Event{Run: run, Action: events.ActProgress, At: p.At, Progress: p})
	}
}

func (r *Reconciler) markBrainRun(name string, in bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.brainRuns == nil {
		r.brainRuns = map[string]bool{}
	}
	r.brainRuns[name] = in
}

// BrainRun reports whether the run's learner runs in this controller: no
// container may then post its results or progress.
func (r *Reconciler) BrainRun(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.brainRuns[name]
}
