package reconcile

import (
	// Pages carry their own settings in front matter (`smile:`).
	_ "github.com/smile-loop/smile/spec/frontmatter"

	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/smile-loop/smile/reconcile/brains"
	"github.com/smile-loop/smile/reconcile/inbox"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/reconcile/queue"
	"github.com/smile-loop/smile/reconcile/relay"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/reconcile/unwritable"

	"github.com/smile-loop/smile/status/store"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Request names the run to reconcile.
type Request struct {
	Name string
}

// Result says when to reconcile the run again. The zero Result means "only
// when something happens".
type Result struct {
	// Requeue asks for another reconcile right away (the loop has more
	// transitions to make).
	Requeue bool
	// RequeueAfter asks for another reconcile after this long.
	RequeueAfter time.Duration
}

// Applied is a manifest the user applied, as the reconciler finds it.
type Applied struct {
	Manifest *spec.SmileRun
	// Dir is the manifest's folder; Path its file (for messages).
	Dir  string
	Path string
	// Err is set when the manifest changed on disk and no longer loads; the
	// run keeps its last good Manifest and reports Err.
	Err error
}

func errRenamed(old, now string) error {
	return fmt.Errorf("metadata.name changed from %q to %q: delete %s and apply the manifest as a new run", old, now, old)
}

// Source gives the reconciler the runs the user applied.
type Source interface {
	// Applied returns the applied manifest of a run, if it still exists.
	Applied(name string) (*Applied, bool)
}

// Reconciler drives one SmileRun through the loop, one transition per call.
type Reconciler struct {
	Runtime runtime.Runtime
	Runs    Source
	// WrapperPath is the smile-wrapper binary on the host; it is mounted
	// read-only into every container.
	WrapperPath string
	// CallbackURL is the address containers post to.
	CallbackURL string
	// CallbackAddr is where the callback listener really listens (host:port),
	// for the relay of containers without a network.
	CallbackAddr string
	// Instance identifies this controller process (a label on its containers).
	Instance string
	// StepGrace is added to timeoutSeconds before a quiet attempt is given up.
	StepGrace time.Duration
	// Clock returns the time; tests set it.
	Clock func() time.Time
	// Events receives every transition (may be nil).
	Events *events.Hub
	// ReportFallback receives the report when it cannot be written (E16).
	ReportFallback io.Writer
	// Version is SMILE's version, written into reports.
	Version string
	// Brains run the learners of in-process providers (brain.go); nil runs
	// every provider's learner in its container, as the vendor CLIs' are.
	Brains *brains.Set
	// Slots bound the runs active at once (reconcile/queue); nil: no bound.
	Slots *queue.Slots
	// Wake asks for a reconcile of a run (a brain kept a result).
	Wake func(name string)
	// Relays carry the traffic of containers without a network; the
	// manager owns and closes them. Nil refuses studentNetwork none.
	Relays *relay.Set
	// LookupEnv reads the controller's environment, where the providers' API
	// keys are; nil means an empty environment.
	LookupEnv func(string) (string, bool)

	mu       sync.Mutex
	observed map[string]*status.Run // the last status written, by run name
	// brainRuns are the runs whose learners this reconciler runs itself:
	// the callback API takes no result for them (brain.go).
	brainRuns map[string]bool
	// tokens are the callback tokens of in-container attempts (tokens.go).
	tokens server.Tokens
	errs   map[string]error // the last reconcile error, by run name
	// unwritable are the runs whose files could not be written (giveUp).
	unwritable unwritable.Runs
	// pool starts containers ahead of their attempts and removes finished
	// ones in the background (containers()).
	pool *pool.Pool
}

// containers returns the reconciler's pool, made on first use (tests make
// reconcilers without a Manager).
func (r *Reconciler) containers() *pool.Pool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pool == nil {
		r.pool = pool.New(context.Background(), r.Runtime, logr.Discard())
	}
	return r.pool
}

func (r *Reconciler) now() time.Time {
	if r.Clock != nil {
		return r.Clock().UTC()
	}
	return time.Now().UTC()
}

// Reconcile performs exactly one transition of the run's loop: it reads the
// desired state, the status and the observed containers and inbox, asks the
// planner for the next action, performs it, and writes the status.
//
// A non-nil error means "retry with backoff"; Result says when to look again
// otherwise. Reconcile is safe to call again after a crash at any point.
func (r *Reconciler) Reconcile(ctx context.Context, req Request) (res Result, err error) {
	log := logr.FromContextOrDiscard(ctx).WithValues("run", req.Name)
	ctx = logr.NewContext(ctx, log)
	defer func() { r.setErr(req.Name, err) }()

	app, ok := r.Runs.Applied(req.Name)
	if !ok {
		return Result{}, nil
	}
	if app.Err != nil {
		return r.invalid(ctx, app, app.Err)
	}
	d, err := spec.Resolve(app.Manifest, app.Dir)
	if err != nil {
		return r.invalid(ctx, app, err)
	}
	if r.unwritable.Ended(d.Name, d.Digest) {
		return Result{}, nil // until new inputs: nothing of it can be written
	}
	run, err := store.Load(d.Paths.StateFile)
	switch {
	case errors.Is(err, store.ErrNotFound):
		run = nil
	case err != nil:
		return Result{}, err
	}
	if run != nil && run.Metadata.Name != d.Name {
		run = nil // the state file belonged to another run: start afresh
	}
	if run != nil {
		r.remember(run) // readers get it from memory from now on
	}
	lay := layoutFor(d)
	r.markBrainRun(d.Name, r.inProcess(d.Config.LLMProvider))
	obs, err := r.observe(ctx, lay, run, d.Config)
	if err != nil {
		return Result{}, err
	}
	plan := planner.Decide(planner.Input{Now: r.now(), Desired: d, Run: run, Observed: obs, StepGrace: r.StepGrace, Instance: r.Instance})
	plan = r.admit(d.Name, run, plan)
	if plan.Action != planner.ActWait && plan.Action != planner.ActNone {
		log.V(1).Info("Planned transition", "action", string(plan.Action), "phase", string(plan.Phase))
	}
	t := &transition{r: r, d: d, app: app, lay: lay, run: run, obs: obs, plan: plan, now: r.now()}
	if lost := r.unwritable.Lost(d.Name); lost != nil {
		return t.giveUp(ctx, lost)
	}
	res, err = t.perform(ctx)
	if r.unwritable.Failed(d.Name, err) {
		return t.giveUp(ctx, err)
	}
	return res, err
}

// observe reads the run's containers first and the inbox second: a wrapper
// posts its result before its container exits, so a container seen exited
// with no result in the inbox really died without one.
func (r *Reconciler) observe(ctx context.Context, lay layout, run *status.Run, cfg spec.Config) (planner.Observed, error) {
	var obs planner.Observed
	provider := cfg.LLMProvider
	if run != nil && run.Status.Phase == status.PhaseStarting {
		// What every attempt needs, looked at once, before the loop begins.
		err := r.Runtime.EnsureImage(ctx, cfg.ContainerImage)
		switch {
		case errors.Is(err, runtime.ErrImageNotFound):
			obs.ImageMissing = err.Error()
		case err != nil:
			return obs, fmt.Errorf("look for image %s: %w", cfg.ContainerImage, err)
		}
	}
	cs, err := r.Runtime.List(ctx, lay.selector())
	if err != nil {
		return obs, fmt.Errorf("list containers of %s: %w", lay.name, err)
	}
	obs.Containers = cs
	box := inbox.Inbox(lay.inbox())
	if run != nil && run.Status.Attempt != nil {
		name := run.Status.Attempt.Container
		// Looked at before the inbox: a brain keeps its result, then ends.
		brainGone := r.inProcess(provider) && !r.Brains.Running(name)
		if obs.Result, err = box.Result(name); err != nil {
			return obs, err
		}
		if obs.Progress, err = box.Progress(name); err != nil {
			return obs, err
		}
		obs.BrainGone = brainGone && obs.Result == nil
	}
	if obs.Stop, err = box.Stop(); err != nil {
		return obs, err
	}
	return obs, nil
}

// invalid records a desired state that cannot be resolved (a missing tutorial,
// a broken smile.json): the loop stops and the error is in the status until
// the inputs are fixed.
func (r *Reconciler) invalid(ctx context.Context, app *Applied, cause error) (Result, error) {
	logr.FromContextOrDiscard(ctx).Info("Invalid inputs", "error", cause.Error())
	cfg, err := app.Manifest.Resolve(app.Dir)
	if err != nil {
		cfg = spec.DefaultConfig()
	}
	stateFile := spec.StateFilePath(spec.ProjectRoot(app.Dir), app.Dir, app.Manifest.Metadata.Name, cfg)
	run, err := store.Load(stateFile)
	if err != nil || run.Metadata.Name != app.Manifest.Metadata.Name {
		run = status.NewRun(app.Manifest.Metadata.Name, newID(), app.Path, r.now())
	}
	st := &run.Status
	if st.Reason == status.ReasonInvalidSpec && st.Message == cause.Error() {
		return Result{}, nil
	}
	if st.Attempt != nil {
		_ = r.Runtime.Stop(ctx, st.Attempt.Container, 2*time.Second)
		st.Attempt = nil
	}
	if !st.Phase.Terminal() || st.Report == nil {
		st.Phase = status.PhaseError
	}
	st.Reason, st.Message = status.ReasonInvalidSpec, cause.Error()
	st.Timeline = append(st.Timeline, status.TimelineEntry{Timestamp: r.now(), Iteration: st.Iteration, Event: string(planner.EvInvalidSpec), Details: cause.Error()})
	return Result{}, r.save(stateFile, run, planner.EvInvalidSpec)
}

// save writes the status atomically and shares it with readers.
func (r *Reconciler) save(path string, run *status.Run, action planner.Action) error {
	now := r.now()
	run.Status.UpdatedAt = now
	run.SetConditions(now)
	if err := store.Save(path, run); err != nil {
		return err
	}
	snap := run.Copy()
	r.mu.Lock()
	if r.observed == nil {
		r.observed = map[string]*status.Run{}
	}
	r.observed[run.Metadata.Name] = snap
	r.mu.Unlock()
	r.Events.Publish(events.Event{Run: snap, Action: string(action), At: now})
	return nil
}

// remember keeps a status read from disk for readers, unless one this
// reconciler wrote is already kept (this process holds the run's lock, so
// nobody else writes it).
func (r *Reconciler) remember(run *status.Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.observed == nil {
		r.observed = map[string]*status.Run{}
	}
	if _, ok := r.observed[run.Metadata.Name]; !ok {
		r.observed[run.Metadata.Name] = run.Copy()
	}
}

// keep replaces the status kept for readers by one just written to disk
// outside a reconcile (a run made to run again).
func (r *Reconciler) keep(run *status.Run) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.observed == nil {
		r.observed = map[string]*status.Run{}
	}
	r.observed[run.Metadata.Name] = run.Copy()
}

// Observed returns the last status the reconciler wrote for a run.
func (r *Reconciler) Observed(name string) (*status.Run, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	run, ok := r.observed[name]
	return run, ok
}

// LastError returns the error of the run's last reconcile, if it failed.
func (r *Reconciler) LastError(name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errs[name]
}

func (r *Reconciler) setErr(name string, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.errs == nil {
		r.errs = map[string]error{}
	}
	if err == nil {
		delete(r.errs, name)
		return
	}
	r.errs[name] = err
}

// forget drops what the reconciler remembers of a run (after delete).
func (r *Reconciler) forget(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.observed, name)
	delete(r.errs, name)
	r.unwritable.Forget(name)
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
