package reconcile

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"github.com/smile-loop/smile/reconcile/attempt"
	"github.com/smile-loop/smile/reconcile/hands"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// labelPrepared marks a container started, idle, ahead of its attempt. When
// a Student starts, the Mentor's container of its iteration (a model's; the
// literal Mentor starts its own on demand, if ever) and, when the next
// Student will start from the top, the next Student's are prepared, in that
// order; a Mentor's start prepares the next Student's if that was not done.
// A fresh container then costs nothing on the loop's critical path.
const labelPrepared = "smile.dev/prepared"

// prepareWait bounds the wait for a container still being prepared when
// its attempt starts.
const prepareWait = 30 * time.Second

// prepareNext prepares the containers of the attempts that come after the
// one that just started, in the background. Only an in-process learner's
// containers can be prepared: they hold no token and no task. It returns
// the preparation the attempt's learner starts later, once past a line
// (nil: none).
func (t *transition) prepareNext(started attempt.Input) *laterPrep {
	if !started.InProcess {
		return nil
	}
	var items []pool.Item
	if started.Role == status.RoleStudent && t.d.Config.LLMProvider != spec.ProviderLiteral {
		// A model's Mentor works in its container from its first tool call;
		// the literal Mentor mostly reads the work folder and starts its
		// container on demand (startOnDemand), if ever.
		items = append(items, t.prepareItem(started, status.RoleMentor, started.Iteration))
	}
	// The next Student from the top: always with fromStart, and with
	// checkpoints while none is kept. One this Student's checkpoints make
	// useless goes when its result comes (dropPrepared).
	fromTop := t.d.Config.ResumeMode() == spec.ResumeFromStart || len(t.run.Status.Checkpoints) == 0
	var later *laterPrep
	if fromTop && started.Iteration < t.d.Config.MaxIterations {
		next := t.prepareItem(started, status.RoleStudent, started.Iteration+1)
		if line := t.knownGround(started); line > 0 {
			later = &laterPrep{line: line, item: next}
		} else {
			items = append(items, next)
		}
	}
	t.r.containers().Prepare(items...)
	return later
}

// knownGround is the line up to which a Student replays what the last one
// already got through: the line the last Student stopped at, when this one
// replays from the top with the Mentor's answer to it (0: none). A stop
// comes after it, if at all, so the next Student's container is prepared
// only once this one is past it: a replay that then completes (the usual
// last iteration) costs no container started for nothing and removed at
// the end.
func (t *transition) knownGround(started attempt.Input) int {
	st := &t.run.Status
	if started.Role != status.RoleStudent || started.From != nil || len(st.History) == 0 {
		return 0
	}
	return st.History[len(st.History)-1].StudentOutput.Line
}

// laterPrep is a container the learner has prepared once it is two steps
// past line: the step right after a stop is often the output the stopped
// command was to show, which runs nothing and rarely stops a Student.
type laterPrep struct {
	line int
	item pool.Item

	mu   sync.Mutex
	seen map[int]bool // lines past line the learner reported
	done bool
}

// past records that the learner is at line and prepares the container the
// first time it is two steps past the line.
func (l *laterPrep) past(p *pool.Pool, line int) {
	if l == nil || line <= l.line {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[int]bool{}
	}
	l.seen[line] = true
	if len(l.seen) >= 2 && !l.done {
		l.done = true
		p.Prepare(l.item)
	}
}

// prepareItem is the container of a role's attempt in an iteration, made
// like the started attempt's.
func (t *transition) prepareItem(started attempt.Input, role status.Role, iteration int) pool.Item {
	next := started
	next.From, next.Checkpoints = nil, false
	next.Role, next.Iteration, next.ReadOnlyWork = role, iteration, role == status.RoleMentor
	next.Work = t.lay.workDir(t.run.Metadata.Generation, iteration)
	next.Name = t.lay.container(t.run.Metadata.Generation, iteration, role)
	_, cs := attempt.Spec(next, wire.Task{})
	cs.Labels[labelPrepared] = "true"
	return t.r.containerItem(cs)
}

// containerItem is the pool's item for a container: its work folder is made
// first, its hands opened once it runs.
func (r *Reconciler) containerItem(cs runtime.ContainerSpec) pool.Item {
	return pool.Item{Spec: cs, Before: func() error { return prepareDirs(cs) },
		Open: func(ctx context.Context) (io.ReadWriteCloser, error) { return hands.Open(ctx, r.Runtime, cs.Name) }}
}

// startOnDemand starts an in-process Mentor without its container: the
// learner starts it when it first needs it (a command to run, a file it
// cannot read from the host), so a Mentor that only reads the Student's work
// folder costs no container at all (reconcile/hands: OnDemand).
func (t *transition) startOnDemand(ctx context.Context, in attempt.Input, task wire.Task, cs runtime.ContainerSpec) (Result, error) {
	res, err := t.attemptStarted(ctx, in.Role, in.Name, "", true)
	if err == nil {
		t.startBrain(ctx, task, in.Name, in.Logs, brainOpts{demand: &onDemand{item: t.r.containerItem(cs), work: in.Work}})
		t.prepareNext(in)
	}
	return res, err
}

// dropPrepared removes, in the background, the next Student's container
// prepared from the top when the Student that just reported kept
// checkpoints: the next one starts from a checkpoint's image instead.
func (t *transition) dropPrepared(res *planner.Posted) {
	st := &t.run.Status
	if res == nil || res.Student == nil || len(res.Student.Checkpoints) == 0 || t.plan.Verify || t.plan.Phase.Terminal() ||
		t.d.Config.ResumeMode() != spec.ResumeCheckpoint {
		return
	}
	t.r.containers().Remove(t.lay.container(t.run.Metadata.Generation, st.Iteration+1, status.RoleStudent), nil)
}

// adopt returns the container prepared for the attempt, when there is one
// made from the same image and running; a restarted attempt never adopts
// (its container ran the first try).
func (t *transition) adopt(ctx context.Context, cs runtime.ContainerSpec) (runtime.Container, bool) {
	st := &t.run.Status
	if st.Phase != status.PhaseRunningStudent && st.Phase != status.PhaseRunningMentor {
		return runtime.Container{}, false
	}
	if a := t.adopted; a != nil && a.name == cs.Name && a.image == cs.Image {
		return a.c, a.ok
	}
	a := &adoption{name: cs.Name, image: cs.Image}
	t.adopted = a
	if !t.r.containers().Await(ctx, cs.Name, prepareWait) {
		return runtime.Container{}, false
	}
	c, err := t.r.Runtime.Inspect(ctx, cs.Name)
	if err != nil || c.State != runtime.StateRunning || c.Labels[labelPrepared] != "true" || c.Image != cs.Image {
		return runtime.Container{}, false
	}
	a.c, a.ok = c, true
	return c, true
}

// adoption is what adopt found for a container name and image.
type adoption struct {
	name, image string
	c           runtime.Container
	ok          bool
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
