package reconcile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/smile-loop/smile/reconcile/brains"
	"github.com/smile-loop/smile/reconcile/debounce"
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/inbox"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/reconcile/queue"
	"github.com/smile-loop/smile/reconcile/relay"
	"github.com/smile-loop/smile/reconcile/server"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Options configure a Manager.
type Options struct {
	Runtime runtime.Runtime
	// WrapperPath is the smile-wrapper binary on the host.
	WrapperPath string
	// Instance identifies this controller (default: a random ID).
	Instance string
	Log      logr.Logger
	// APIAddr is the loopback address of the API for the CLI and observers
	// (default 127.0.0.1:0, an ephemeral port).
	APIAddr string
	// CallbackHost overrides the address the container callback listener binds
	// (default: the Docker bridge gateway). It may never be unspecified.
	CallbackHost string
	// CallbackURL overrides the URL containers are told to call (default
	// http://HOST:PORT, HOST the runtime's name for the host).
	CallbackURL string
	// StepGrace is added to timeoutSeconds before a quiet attempt is given up
	// (default 15 s).
	StepGrace time.Duration
	// Workers is the number of reconcile workers (default 2).
	Workers int
	Clock   func() time.Time
	// ReportFallback receives a report that cannot be written (default stdout).
	ReportFallback io.Writer
	// ControlToken authenticates the CLI's control calls (apply, delete);
	// default: a random one.
	ControlToken string
	// Version is SMILE's version, written into reports.
	Version string
	// Parallel is how many runs may be active at once; runs beyond it wait
	// in phase Queued (default: DefaultParallel, from the machine's CPUs and
	// memory). An apply may change it (ApplyRequest.Parallel).
	Parallel int
	// LookupEnv reads the environment the providers' API keys come from
	// (default: this process's).
	LookupEnv func(string) (string, bool)
}

// Manager runs the controller: reconcile workers fed by a work queue, the
// event sources that fill it (container events, posted results, timers), and
// the HTTP API.
type Manager struct {
	opts  Options
	rec   *Reconciler
	queue *queue.Queue
	hub   *events.Hub
	log   logr.Logger

	// mu guards runs and nothing else: the API's handlers and the workers
	// take it on every call, so it is never held across disk or engine I/O.
	mu   sync.Mutex
	runs map[string]*entry
	// changing serializes Apply and Delete, which do I/O (state locks,
	// orphan removal, the registry); no handler waits on it.
	changing sync.Mutex
	// wrapperChecked is whether the wrapper starts in each image applied
	// (guarded by changing).
	wrapperChecked map[string]error

	srv *server.Server // the HTTP side: callbacks, the loopback API, the dashboard

	listeners    *server.Listeners
	wg           sync.WaitGroup
	watchRefresh chan struct{}
	quiet        debounce.Debouncer // the input files' events, by run (watch.go)
}

// entry is an applied run and the lock on its state file.
type entry struct {
	applied   *Applied
	stateFile string
	lay       layout
	lock      *store.Lock
	// settling: its first Apply is still removing the containers another
	// instance left (E19); no reconcile may start an attempt meanwhile (a
	// container event would wake one).
	settling bool
}

// Outcome is what apply did, in kubectl's words.
type Outcome string

// Apply outcomes.
const (
	Created    Outcome = "created"
	Configured Outcome = "configured"
	Unchanged  Outcome = "unchanged"
)

// NewManager builds a Manager; Start runs it.
func NewManager(opts Options) *Manager {
	if opts.Instance == "" {
		opts.Instance = newID()[:12]
	}
	if opts.StepGrace == 0 {
		opts.StepGrace = 15 * time.Second
	}
	if opts.Workers <= 0 {
		opts.Workers = 2
	}
	if opts.APIAddr == "" {
		opts.APIAddr = "127.0.0.1:0"
	}
	if opts.ReportFallback == nil {
		opts.ReportFallback = os.Stdout
	}
	if opts.ControlToken == "" {
		opts.ControlToken = newID()
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	m := &Manager{opts: opts, queue: queue.NewQueue(), hub: &events.Hub{}, log: opts.Log, runs: map[string]*entry{},
		watchRefresh: make(chan struct{}, 1)}
	m.srv = server.New(backend{m}, opts.ControlToken)
	m.rec = &Reconciler{
		Runtime:        opts.Runtime,
		Runs:           m,
		WrapperPath:    opts.WrapperPath,
		Instance:       opts.Instance,
		StepGrace:      opts.StepGrace,
		Clock:          opts.Clock,
		Events:         m.hub,
		ReportFallback: opts.ReportFallback,
		Version:        opts.Version,
		Relays:         relay.NewSet(opts.Runtime, 0),
		LookupEnv:      opts.LookupEnv,
	}
	m.rec.Slots = queue.NewSlots(opts.Parallel, m.enqueueAll)
	return m
}

// Start checks the engine, opens the listeners, and starts the watch and the
// workers. It returns once everything runs; ctx ends them.
func (m *Manager) Start(ctx context.Context) error {
	info, err := m.opts.Runtime.Info(ctx)
	if err != nil {
		return err
	}
	host := m.opts.CallbackHost
	if host == "" {
		host = info.GatewayIP
	}
	if m.listeners, err = server.Listen(host, m.opts.APIAddr); err != nil {
		return err
	}
	port := m.listeners.Callback.Addr().(*net.TCPAddr).Port
	m.rec.CallbackAddr = m.CallbackAddr()
	m.rec.CallbackURL = m.opts.CallbackURL
	if m.rec.CallbackURL == "" {
		m.rec.CallbackURL = "http://" + net.JoinHostPort(info.HostName, strconv.Itoa(port))
	}
	m.srv.Serve(ctx, m.listeners, &m.wg, func(err error) { m.log.Error(err, "API server stopped") })
	m.log.Info("Listening", "api", m.APIAddr(), "callback", m.CallbackAddr(),
		"dockerAPI", info.APIVersion, "instance", m.opts.Instance)

	// Learners of in-process providers run here, until ctx ends.
	m.rec.Brains, m.rec.Wake = brains.New(ctx), m.Enqueue
	m.rec.pool = pool.New(ctx, m.opts.Runtime, m.log)
	m.wg.Add(2)
	go func() {
		defer m.wg.Done()
		m.watchContainers(ctx)
	}()
	go func() {
		defer m.wg.Done()
		m.watchInputs(ctx)
	}()
	for i := 0; i < m.opts.Workers; i++ {
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			for m.processNext(ctx) {
			}
		}()
	}
	go func() {
		<-ctx.Done()
		m.queue.ShutDown()
	}()
	return nil
}

// Wait blocks until everything Start began has stopped (after ctx ends).
func (m *Manager) Wait() {
	m.wg.Wait()
	m.rec.Relays.Close()
	if m.rec.Brains != nil {
		m.rec.Brains.Wait()
	}
	m.rec.containers().Close() // the removals under way end first
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, e := range m.runs {
		e.lock.Release()
	}
}

// APIAddr is the loopback address the API listens on.
func (m *Manager) APIAddr() string { return m.listeners.API.Addr().String() }

// Instance identifies this controller.
func (m *Manager) Instance() string { return m.opts.Instance }

// ControlToken is the token the control API requires.
func (m *Manager) ControlToken() string { return m.opts.ControlToken }

// ApplyRecorded applies every run recorded in a workspace's registry: what a
// controller does when it starts, and how a crashed one resumes (E19).
// Runs that cannot be applied are logged and skipped.
func (m *Manager) ApplyRecorded(dir string) error {
	recs, err := store.Registry{Dir: dir}.List()
	if err != nil {
		return err
	}
	for _, rec := range recs {
		res, err := m.ApplyDoc(rec.Manifest, rec.Name)
		if err != nil {
			m.log.Error(err, "Could not resume run", "run", rec.Name, "manifest", rec.Manifest)
			continue
		}
		m.log.Info("Resumed run", "run", res.Name, "outcome", string(res.Outcome))
	}
	return nil
}

// CallbackAddr is the address containers call back to.
func (m *Manager) CallbackAddr() string { return m.listeners.Callback.Addr().String() }

// SetParallel changes how many runs may be active at once (n < 1 leaves it).
func (m *Manager) SetParallel(n int) { m.rec.Slots.SetLimit(n) }

// Parallel is how many runs may be active at once.
func (m *Manager) Parallel() int { return m.rec.Slots.Limit() }

// enqueueAll looks at every run again: a slot freed up.
func (m *Manager) enqueueAll() {
	for _, n := range m.Names() {
		m.queue.Add(n)
	}
}

// Hub is where transitions are published.
func (m *Manager) Hub() *events.Hub { return m.hub }

// DashboardLogin returns a new one-time login token for the dashboard URL.
func (m *Manager) DashboardLogin() string { return m.srv.DashboardLogin() }

// Applied is part of the Source interface.
func (m *Manager) Applied(name string) (*Applied, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.runs[name]
	if !ok || e.settling {
		return nil, false
	}
	return e.applied, true
}

// Names lists the applied runs.
func (m *Manager) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	names := make([]string, 0, len(m.runs))
	for n := range m.runs {
		names = append(names, n)
	}
	return names
}

// ApplyResult says what Apply did.
type ApplyResult struct {
	Name    string  `json:"name"`
	Outcome Outcome `json:"outcome"`
	// Digest is the digest of the inputs applied: the run is finished for
	// this apply once its status reflects it.
	Digest string `json:"digest"`
}

// Apply validates a manifest and everything it points at, takes the lock on
// its state file (one loop per state file: E14/E18), and hands the run to the
// workers. It reports whether the run is new, changed or unchanged.
func (m *Manager) Apply(path string) (ApplyResult, error) { return m.ApplyDoc(path, "") }

// ApplyDoc applies the SmileRun called name of a file holding several (as
// Apply when name is empty).
func (m *Manager) ApplyDoc(path, name string) (ApplyResult, error) {
	return m.applyDoc(path, name, false)
}

// ApplyAgain applies as ApplyDoc, and runs an unchanged run that has ended
// again, as a new generation (`apply --force`); a run still going is refused.
func (m *Manager) ApplyAgain(path, name string) (ApplyResult, error) {
	return m.applyDoc(path, name, true)
}

// applyDoc applies a SmileRun; force makes an unchanged, ended run run
// again (the dashboard's rerun).
func (m *Manager) applyDoc(path, name string, force bool) (ApplyResult, error) {
	manifest, err := runfile.LoadNamed(path, name)
	if err != nil {
		return ApplyResult{}, err
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return ApplyResult{}, err
	}
	abs, _ := filepath.Abs(path)
	d, err := spec.Resolve(manifest, dir)
	if err != nil {
		return ApplyResult{Name: manifest.Metadata.Name}, err
	}
	name = d.Name
	res := ApplyResult{Name: name, Digest: d.Digest}
	if err := store.CheckOwned(layoutFor(d).root); err != nil {
		return res, err // refused now, not retried by every reconcile
	}

	m.changing.Lock()
	defer m.changing.Unlock()
	if err := store.CheckWorkspace(d, abs); err != nil {
		return res, err
	}
	if err := m.checkWrapper(d.Config.ContainerImage); err != nil {
		return res, err
	}
	e, known, err := m.applicable(name, abs, d.Paths.StateFile)
	if err != nil {
		return res, err
	}
	if !known || e.stateFile != d.Paths.StateFile {
		lock, err := store.Acquire(d.Paths.StateFile)
		if err != nil {
			return res, err
		}
		if known {
			e.lock.Release()
		}
		e = &entry{stateFile: d.Paths.StateFile, lay: layoutFor(d), lock: lock, applied: &Applied{Manifest: manifest, Dir: dir, Path: abs}, settling: true}
		m.mu.Lock()
		m.runs[name] = e
		m.mu.Unlock()
		// Holding the lock proves no live process runs this loop: containers
		// another instance left are orphans (E19).
		if err := m.removeOrphans(e.lay); err != nil {
			m.log.Info("Could not remove orphaned containers", "run", name, "error", err.Error())
		}
	}
	m.mu.Lock()
	e.applied, e.settling = &Applied{Manifest: manifest, Dir: dir, Path: abs}, false
	m.mu.Unlock()

	res.Outcome = Created
	if prev, err := store.Load(d.Paths.StateFile); err == nil && prev.Metadata.Name == name {
		res.Outcome = Configured
		if prev.Metadata.InputDigest == d.Digest {
			res.Outcome = Unchanged
		}
		if err := rerun(&res, prev, d.Paths.StateFile, force); err != nil {
			return res, err
		}
		if res.Outcome == Configured && prev.Metadata.InputDigest == "" {
			// Readers (apply --wait, the dashboard) see the run made to run
			// again, not the verdict it replaces, until it is reconciled.
			m.rec.keep(prev)
		}
	}
	rec := store.Record{Name: name, Manifest: abs, StateFile: d.Paths.StateFile, OutputDir: d.Paths.OutputDir, AppliedAt: time.Now().UTC()}
	if err := (store.Registry{Dir: d.Workspace}).Put(rec); err != nil {
		return res, fmt.Errorf("record run %s: %w", name, err)
	}
	m.queue.Add(name)
	m.refreshWatches()
	return res, nil
}

// rerun makes an unchanged apply a new generation, as an edit does, for a
// stopped run (it has no verdict for these inputs) or when forced; a forced
// rerun of a run that has not finished is refused (the state file is its
// loop's until then).
func rerun(res *ApplyResult, prev *status.Run, stateFile string, force bool) error {
	if force && !Finished(prev, "") {
		return fmt.Errorf("%w: run %s is %s and has not finished; stop it before running it again", store.ErrLoopRunning, res.Name, prev.Status.Phase)
	}
	if res.Outcome != Unchanged || (!force && prev.Status.Phase != status.PhaseStopped) {
		return nil
	}
	prev.Metadata.InputDigest = ""
	if err := store.Save(stateFile, prev); err != nil {
		return fmt.Errorf("rerun run %s: %w", res.Name, err)
	}
	res.Outcome = Configured
	return nil
}

// applicable checks that a run may be applied from path with stateFile: not
// applied from elsewhere, and no other run's state file. It returns the run's
// entry if it is applied already.
func (m *Manager) applicable(name, path, stateFile string) (*entry, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, known := m.runs[name]
	if known && e.applied.Path != path {
		return nil, false, fmt.Errorf("run %s is already applied from %s", name, e.applied.Path)
	}
	for other, oe := range m.runs {
		if other != name && oe.stateFile == stateFile {
			return nil, false, fmt.Errorf("%w: run %s uses the same state file %s", store.ErrLoopRunning, other, stateFile)
		}
	}
	return e, known, nil
}

// removeOrphans removes the run's containers that another controller
// instance started.
func (m *Manager) removeOrphans(lay layout) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := m.opts.Runtime.List(ctx, lay.selector())
	if err != nil {
		return err
	}
	var orphans []string
	for _, c := range cs {
		if c.Labels[runtime.LabelInstance] != m.opts.Instance {
			orphans = append(orphans, c.Name)
			m.log.Info("Removing orphaned container", "run", lay.name, "container", c.Name, "instance", c.Labels[runtime.LabelInstance])
		}
	}
	// All of them, side by side: one that fails does not keep the others.
	err = m.rec.containers().RemoveNow(ctx, orphans...)
	return errors.Join(err, removeOrphanSnapshots(ctx, m.opts.Runtime, lay, m.opts.Instance))
}

// Desired resolves an applied run's inputs now.
func (m *Manager) Desired(name string) (*spec.Desired, error) {
	app, ok := m.Applied(name)
	if !ok {
		return nil, status.UnknownRun(name)
	}
	return spec.Resolve(app.Manifest, app.Dir)
}

// Run returns the run's status as last written.
func (m *Manager) Run(name string) (*status.Run, error) {
	if run, ok := m.rec.Observed(name); ok {
		return run, nil
	}
	m.mu.Lock()
	e, ok := m.runs[name]
	m.mu.Unlock()
	if !ok {
		return nil, status.UnknownRun(name)
	}
	return store.Load(e.stateFile)
}

// LastError is the error of a run's last reconcile, if it failed.
func (m *Manager) LastError(name string) error { return m.rec.LastError(name) }

// WaitFinished blocks until the run has ended for the inputs of digest (""
// for its current inputs; newer inputs, when the tutorial was edited or the
// run applied again since) and its report is written, and returns its final
// status; it fails at once when the run is deleted.
func (m *Manager) WaitFinished(ctx context.Context, name, digest string) (*status.Run, error) {
	sub := m.hub.Subscribe()
	defer sub.Close()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		// An edit of the tutorial (or another apply) since supersedes the
		// inputs waited for: the run now ends for the new ones.
		if d, err := m.Desired(name); err == nil && digest != "" && d.Digest != digest {
			digest = d.Digest
		}
		run, err := m.Run(name)
		if errors.Is(err, status.ErrUnknownRun) {
			return nil, fmt.Errorf("run %s was deleted while it was followed: %w", name, err)
		}
		if err == nil && Finished(run, digest) {
			if digest != "" {
				return run, nil
			}
			if d, err := m.Desired(name); err != nil || d.Digest == run.Metadata.InputDigest {
				return run, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-sub.C:
		case <-tick.C:
		}
	}
}

// Finished reports whether a run has ended (status.Run.Finished).
func Finished(run *status.Run, digest string) bool { return run.Finished(digest) }

// RequestStop asks a run's loop to end (POST /api/stop does the same).
func (m *Manager) RequestStop(name, reason string) error {
	box, err := m.inbox(name)
	if err != nil {
		return err
	}
	if err := box.PutStop(&planner.StopRequest{Reason: reason, At: time.Now().UTC()}); err != nil {
		return err
	}
	m.queue.Add(name)
	return nil
}

// inbox is where the API keeps what is posted for a run.
func (m *Manager) inbox(name string) (inbox.Inbox, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.runs[name]
	if !ok {
		return "", status.UnknownRun(name)
	}
	return inbox.Inbox(e.lay.inbox()), nil
}

// expectedAttempt is the container a run accepts callbacks from: the attempt
// it waits on, or, while it is starting one, the attempt it is starting. A
// fast container can call back before the status recording its start is
// written; names are fixed by generation, iteration and role, so this is
// exactly that container (and the per-generation token rules out others).
func (m *Manager) expectedAttempt(run *status.Run) (string, status.Role) {
	st := run.Status
	if st.Attempt != nil {
		return st.Attempt.Container, st.Attempt.Role
	}
	role := status.RoleStudent
	switch st.Phase {
	case status.PhaseRunningStudent:
	case status.PhaseRunningMentor:
		role = status.RoleMentor
	default:
		return "", ""
	}
	m.mu.Lock()
	e, ok := m.runs[run.Metadata.Name]
	m.mu.Unlock()
	if !ok {
		return "", ""
	}
	return e.lay.container(run.Metadata.Generation, st.Iteration, role), role
}

// Enqueue asks for a reconcile of a run (an event happened).
func (m *Manager) Enqueue(name string) { m.queue.Add(name) }

// processNext runs one reconcile from the queue; a panic becomes an error.
func (m *Manager) processNext(ctx context.Context) bool {
	name, ok := m.queue.Get()
	if !ok {
		return false
	}
	defer m.queue.Done(name)
	log := m.log.WithValues("controller", "smilerun", "run", name, "reconcileID", newID()[:8])
	res, err := m.reconcileSafely(logr.NewContext(ctx, log), name)
	switch {
	case err != nil && ctx.Err() != nil:
		// The controller is stopping: the run resumes where it was when a
		// controller serves it again; nothing failed.
		log.V(1).Info("Reconcile ended by shutdown", "error", err.Error())
	case err != nil:
		log.Error(err, "Reconcile failed")
		m.queue.AddRateLimited(name)
	case res.Requeue:
		m.queue.Forget(name)
		m.queue.Add(name)
	case res.RequeueAfter > 0:
		m.queue.Forget(name)
		m.queue.AddAfter(name, res.RequeueAfter)
	default:
		m.queue.Forget(name)
	}
	return true
}

func (m *Manager) reconcileSafely(ctx context.Context, name string) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("reconcile panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return m.rec.Reconcile(ctx, Request{Name: name})
}

// watchContainers turns container events into reconciles of their run. It
// reconnects after errors; between events the reconciler's own deadlines
// still bring every run back.
func (m *Manager) watchContainers(ctx context.Context) {
	for ctx.Err() == nil {
		events, err := m.opts.Runtime.Watch(ctx, map[string]string{runtime.LabelOwner: runtime.OwnerValue})
		if err != nil {
			m.log.V(1).Info("Container watch failed", "error", err.Error())
		} else {
			for ev := range events {
				if name := ev.Labels[runtime.LabelRun]; name != "" {
					if _, ok := m.Applied(name); ok {
						m.queue.Add(name)
					}
				}
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}
