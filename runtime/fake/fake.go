// Package fake is an in-memory runtime.Runtime for fast unit tests of the
// reconciler. Containers live in a map keyed by name; tests steer them with
// Exit, Vanish, FailNextStart, FailNextExec, SetExec and SetUnavailable, and
// read back what the reconciler asked for with Spec and Execs.
//
// It behaves like runtime/docker where the reconciler can tell: Start replaces
// a leftover container of the same name, needs the image and existing mount
// sources, and emits "create" and "start"; Exit emits "die"; Stop emits "die"
// for a running container; Remove and Vanish emit "destroy", after "die" when
// the container was running.
package fake

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// DefaultGateway is the GatewayIP Info reports unless SetInfo changes it.
const DefaultGateway = "172.17.0.1"

// DefaultHostName is the HostName Info reports unless SetInfo changes it:
// Docker's, so tests read like the real thing.
const DefaultHostName = "host.docker.internal"

// Runtime is an in-memory runtime.Runtime. The zero value is not usable; call
// New. It is safe for concurrent use.
type Runtime struct {
	mu          sync.Mutex
	info        runtime.Info
	images      map[string]bool
	containers  map[string]*entry                // by name
	started     []string                         // every container started, by name, oldest first
	startedWith map[string]runtime.ContainerSpec // the spec each was last started with, removed ones too
	nextID      int
	failStart   error
	failExec    error
	exec        ExecFunc
	execIO      ExecIOFunc
	execStream  ExecStreamFunc // execstream.go
	unavailable bool
	watchers    map[*watcher]bool
	snapshots   map[string]runtime.Snapshot // by ref (snapshot.go)
	snapSize    int64
	failSnap    error
}

// ExecFunc answers an Exec: exit code, combined output, error.
type ExecFunc func(name string, cmd []string) (int, string, error)

// ExecIOFunc answers an ExecIO.
type ExecIOFunc func(ctx context.Context, name string, req runtime.ExecRequest) (runtime.ExecResult, error)

type entry struct {
	c     runtime.Container
	spec  runtime.ContainerSpec
	execs [][]string
	logs  string
}

type watcher struct {
	selector map[string]string
	ch       chan runtime.Event
}

var _ runtime.Runtime = (*Runtime)(nil)

// New returns a runtime with the given images present.
func New(images ...string) *Runtime {
	r := &Runtime{
		info:       runtime.Info{ServerVersion: "fake", APIVersion: "1.41", GatewayIP: DefaultGateway, HostName: DefaultHostName},
		images:     map[string]bool{},
		containers: map[string]*entry{},
		watchers:   map[*watcher]bool{},
	}
	for _, im := range images {
		r.images[im] = true
	}
	return r
}

// AddImage makes images present.
func (r *Runtime) AddImage(images ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, im := range images {
		r.images[im] = true
	}
}

// RemoveImage makes an image absent.
func (r *Runtime) RemoveImage(image string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.images, image)
}

// SetInfo sets what Info returns.
func (r *Runtime) SetInfo(info runtime.Info) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.info = info
}

// SetUnavailable makes every call fail with runtime.ErrUnavailable (seed E08)
// until it is called with false.
func (r *Runtime) SetUnavailable(down bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.unavailable = down
}

// FailNextStart makes the next Start return err without creating anything.
func (r *Runtime) FailNextStart(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failStart = err
}

// FailNextExec makes the next Exec return err.
func (r *Runtime) FailNextExec(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failExec = err
}

// SetExec sets how Exec answers; by default every command exits 0 with no
// output. f runs without the runtime's lock held, so it may call the runtime.
func (r *Runtime) SetExec(f ExecFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.exec = f
}

// SetLogs sets what Logs returns for a container.
func (r *Runtime) SetLogs(name, logs string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.containers[name]; ok {
		e.logs = logs
	}
}

// Spec returns the spec the container was started with.
func (r *Runtime) Spec(name string) (runtime.ContainerSpec, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.containers[name]
	if !ok {
		return runtime.ContainerSpec{}, false
	}
	return e.spec, true
}

// StartedWith returns the spec a container was last started with, even after
// it was removed: what a test checks once a run is over.
func (r *Runtime) StartedWith(name string) (runtime.ContainerSpec, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	spec, ok := r.startedWith[name]
	return spec, ok
}

// Started returns the name of every container started, removed ones too,
// oldest first.
func (r *Runtime) Started() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.started)
}

// Execs returns the commands run in the container, oldest first.
func (r *Runtime) Execs(name string) [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.containers[name]; ok {
		return slices.Clone(e.execs)
	}
	return nil
}

// Exit makes a running container exit with code, as if its command ended.
func (r *Runtime) Exit(name string, code int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if e, ok := r.containers[name]; ok && e.c.State == runtime.StateRunning {
		r.exitLocked(e, code)
	}
}

// Vanish removes a container behind the reconciler's back (a user's docker
// rm -f, a daemon restart).
func (r *Runtime) Vanish(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.removeLocked(name)
}

// Info is part of the runtime.Runtime interface.
func (r *Runtime) Info(context.Context) (runtime.Info, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return runtime.Info{}, err
	}
	return r.info, nil
}

// EnsureImage is part of the runtime.Runtime interface.
func (r *Runtime) EnsureImage(_ context.Context, image string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return err
	}
	if !r.images[image] {
		return fmt.Errorf("%w: %s: pull it first (docker pull %s)", runtime.ErrImageNotFound, image, image)
	}
	return nil
}

// Start is part of the runtime.Runtime interface.
func (r *Runtime) Start(_ context.Context, spec runtime.ContainerSpec) (runtime.Container, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return runtime.Container{}, err
	}
	if err := r.failStart; err != nil {
		r.failStart = nil
		return runtime.Container{}, err
	}
	if !r.images[spec.Image] {
		return runtime.Container{}, fmt.Errorf("create container %s: %w: %s", spec.Name, runtime.ErrImageNotFound, spec.Image)
	}
	for _, m := range spec.Mounts {
		// Docker refuses a bind mount whose source is missing; so does the fake,
		// so a reconciler that forgets to create a folder fails here too.
		if _, err := os.Stat(m.Source); err != nil {
			return runtime.Container{}, fmt.Errorf("create container %s: bind source path does not exist: %s", spec.Name, m.Source)
		}
	}
	r.removeLocked(spec.Name)
	r.nextID++
	spec.Cmd = slices.Clone(spec.Cmd)
	spec.Env = slices.Clone(spec.Env)
	spec.Labels = maps.Clone(spec.Labels)
	spec.Mounts = slices.Clone(spec.Mounts)
	e := &entry{spec: spec, c: runtime.Container{
		ID:        fmt.Sprintf("fake%04d", r.nextID),
		Name:      spec.Name,
		Image:     spec.Image,
		Labels:    spec.Labels,
		State:     runtime.StateRunning,
		StartedAt: time.Now(),
	}}
	r.containers[spec.Name] = e
	r.started = append(r.started, spec.Name)
	if r.startedWith == nil {
		r.startedWith = map[string]runtime.ContainerSpec{}
	}
	r.startedWith[spec.Name] = spec
	r.emitLocked(e, "create")
	r.emitLocked(e, "start")
	return copyOf(e.c), nil
}

// List is part of the runtime.Runtime interface. Containers come sorted by
// name, so tests can compare lists.
func (r *Runtime) List(_ context.Context, selector map[string]string) ([]runtime.Container, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return nil, err
	}
	var out []runtime.Container
	for _, name := range slices.Sorted(maps.Keys(r.containers)) {
		if e := r.containers[name]; matches(e.c.Labels, selector) {
			out = append(out, copyOf(e.c))
		}
	}
	return out, nil
}

// Inspect is part of the runtime.Runtime interface.
func (r *Runtime) Inspect(_ context.Context, nameOrID string) (runtime.Container, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, err := r.findLocked(nameOrID)
	if err != nil {
		return runtime.Container{}, err
	}
	return copyOf(e.c), nil
}

// Exec is part of the runtime.Runtime interface. It records the command even
// when it fails, so tests can check it was attempted.
func (r *Runtime) Exec(_ context.Context, nameOrID string, cmd []string, _ time.Duration) (int, string, error) {
	name, running, fail, err := r.execStart(nameOrID, cmd)
	if err != nil {
		return 0, "", err
	}
	r.mu.Lock()
	f := r.exec
	r.mu.Unlock()

	switch {
	case fail != nil:
		return -1, "", fail
	case !running:
		return -1, "", fmt.Errorf("exec in container %s: container is not running", name)
	case f != nil:
		return f(name, cmd)
	default:
		return 0, "", nil
	}
}

// Stop is part of the runtime.Runtime interface. A running container exits
// with 143, as a process ended by SIGTERM does.
func (r *Runtime) Stop(_ context.Context, nameOrID string, _ time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, err := r.findLocked(nameOrID)
	if err != nil {
		return err
	}
	if e.c.State == runtime.StateRunning {
		r.exitLocked(e, 143)
	}
	return nil
}

// Remove is part of the runtime.Runtime interface.
func (r *Runtime) Remove(_ context.Context, nameOrID string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, err := r.findLocked(nameOrID)
	if errors.Is(err, runtime.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	r.removeLocked(e.c.Name)
	return nil
}

// Logs is part of the runtime.Runtime interface.
func (r *Runtime) Logs(_ context.Context, nameOrID string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, err := r.findLocked(nameOrID)
	if err != nil {
		return "", err
	}
	return e.logs, nil
}

// Watch is part of the runtime.Runtime interface. Events beyond a buffer of
// 64 unread ones are dropped, as the interface allows.
func (r *Runtime) Watch(ctx context.Context, selector map[string]string) (<-chan runtime.Event, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.downLocked(); err != nil {
		return nil, err
	}
	w := &watcher{selector: maps.Clone(selector), ch: make(chan runtime.Event, 64)}
	r.watchers[w] = true
	go func() {
		<-ctx.Done()
		r.mu.Lock()
		defer r.mu.Unlock()
		delete(r.watchers, w)
		close(w.ch)
	}()
	return w.ch, nil
}

func (r *Runtime) downLocked() error {
	if r.unavailable {
		return fmt.Errorf("%w: cannot connect to the fake engine", runtime.ErrUnavailable)
	}
	return nil
}

func (r *Runtime) findLocked(nameOrID string) (*entry, error) {
	if err := r.downLocked(); err != nil {
		return nil, err
	}
	if e, ok := r.containers[nameOrID]; ok {
		return e, nil
	}
	for _, e := range r.containers {
		if e.c.ID == nameOrID {
			return e, nil
		}
	}
	return nil, fmt.Errorf("container %s: %w", nameOrID, runtime.ErrNotFound)
}

func (r *Runtime) exitLocked(e *entry, code int) {
	e.c.State = runtime.StateExited
	e.c.ExitCode = code
	e.c.FinishedAt = time.Now()
	r.emitLocked(e, "die")
}

func (r *Runtime) removeLocked(name string) {
	e, ok := r.containers[name]
	if !ok {
		return
	}
	if e.c.State == runtime.StateRunning {
		r.emitLocked(e, "die") // as a forced removal does on Docker
	}
	delete(r.containers, name)
	r.emitLocked(e, "destroy")
}

func (r *Runtime) emitLocked(e *entry, action string) {
	for w := range r.watchers {
		if !matches(e.c.Labels, w.selector) {
			continue
		}
		select {
		case w.ch <- runtime.Event{Container: e.c.Name, Labels: maps.Clone(e.c.Labels), Action: action}:
		default:
		}
	}
}

func matches(labels, selector map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// copyOf keeps callers from changing the stored labels through the map.
func copyOf(c runtime.Container) runtime.Container {
	c.Labels = maps.Clone(c.Labels)
	return c
}

// execStart records an exec's command in the container (see Execs, even
// when it then fails) and returns the container's name, whether it runs, and
// the failure FailNextExec set (used up here).
func (r *Runtime) execStart(nameOrID string, cmd []string) (name string, running bool, fail, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, err := r.findLocked(nameOrID)
	if err != nil {
		return "", false, nil, err
	}
	e.execs = append(e.execs, slices.Clone(cmd))
	fail, r.failExec = r.failExec, nil
	return e.c.Name, e.c.State == runtime.StateRunning, fail, nil
}
