// Package runtime is the small container interface the reconciler uses.
// runtime/docker implements it against a Docker Engine; runtime/fake
// implements it in memory for unit tests. Nothing outside runtime/docker
// imports a Docker client, so a Pod runtime can take its place later.
package runtime

import (
	"context"
	"errors"
	"io"
	"time"
)

// Labels every container SMILE creates carries.
const (
	LabelOwner     = "smile.dev/owner" // always "smile"
	LabelRun       = "smile.dev/run"
	LabelRole      = "smile.dev/role"
	LabelIteration = "smile.dev/iteration"
	LabelInstance  = "smile.dev/instance"
	LabelInputs    = "smile.dev/inputs" // digest of the run's inputs
	// LabelStateKey scopes a run's containers to its state file, so two
	// folders with a run of the same name do not touch each other's.
	LabelStateKey = "smile.dev/state"
	OwnerValue    = "smile"
	// LabelKind marks what a labelled object is when it is not a container:
	// KindSnapshot for a snapshot image.
	LabelKind = "smile.dev/kind"
	// LabelImage is the image a snapshot's container was started from: a
	// snapshot is never used for another image.
	LabelImage = "smile.dev/image"
	// LabelKey is a snapshot's cache key: a digest of the image and of the
	// exact steps (content and workarounds) that led to it.
	LabelKey     = "smile.dev/key"
	KindSnapshot = "snapshot"
	// LabelStateFile is the absolute path of the state file of a
	// snapshot's run, LabelUID the uid of the controller that took it and
	// LabelHost its host name: what a sweep needs to tell that the run's
	// folder is gone (reconcile/checkpoints.Sweep). Snapshots taken before
	// them have none, and no sweep touches them.
	LabelStateFile = "smile.dev/state-file"
	LabelUID       = "smile.dev/uid"
	LabelHost      = "smile.dev/host"
)

// ErrUnavailable means the container engine cannot be reached (seed E08).
// Its message is the seed's, capital letter included: users match on it.
//
//lint:ignore ST1005 the seed's exact message
var ErrUnavailable = errors.New("Docker is required but not available")

// ErrImageNotFound means the image is not present locally (seed E09).
var ErrImageNotFound = errors.New("image not found")

// ErrNotFound means the container (or snapshot) does not exist.
var ErrNotFound = errors.New("container not found")

// Mount binds a host folder or file into a container.
type Mount struct {
	Source   string // absolute host path; must exist
	Target   string // path inside the container
	ReadOnly bool
}

// ContainerSpec is everything needed to create one container.
type ContainerSpec struct {
	Name   string
	Image  string
	Cmd    []string
	Env    []string
	Labels map[string]string
	Mounts []Mount
	// EmptyDirs are paths covered by an empty read-only tmpfs, e.g. a
	// state folder inside a mounted project that no container may read.
	EmptyDirs  []string
	WorkingDir string
	// Network is the network mode: "bridge" (default: egress, and no
	// route to any other container) or "none".
	Network string
	// HostGateway makes Info.HostName resolve to the host inside the container.
	HostGateway bool
	// Resources caps what the container may use; zero fields mean no cap.
	Resources Resources
	// Confinement takes from the container's processes what a tutorial
	// never needs and could turn against the host.
	Confinement Confinement
}

// Confinement is what a container's processes may not do, whatever user
// they run as.
type Confinement struct {
	// NoNewPrivileges: no exec gains privileges (setuid and setgid bits,
	// file capabilities are ignored), as Linux's no_new_privs.
	NoNewPrivileges bool
	// CapDrop are the capabilities taken away, by name without "CAP_".
	CapDrop []string
	// NoTrace: no process may trace another or reach into its memory
	// (ptrace, process_vm_readv, process_vm_writev are refused with EPERM),
	// whatever its user and capabilities. Docker applies it as its default
	// seccomp profile less those calls; Kubernetes does not (a Pod's custom
	// profile must be a file on the node).
	NoTrace bool
}

// Resources are a container's limits. A learner runs untrusted tutorial
// commands: without them a fork bomb or a runaway allocation takes the host.
type Resources struct {
	PidsLimit   int64 // most processes and threads at once
	MemoryBytes int64 // memory and swap together
	NanoCPUs    int64 // CPUs in billionths (1.5 CPUs = 1_500_000_000)
}

// ExecRequest is a command to run in a container (Runtime.ExecIO).
type ExecRequest struct {
	Cmd []string
	// Env is added to the container's environment for this command only.
	Env        []string
	WorkingDir string
	Stdin      []byte
	// Timeout bounds the whole exec; zero or less means ctx only.
	Timeout time.Duration
}

// ExecResult is what an ExecIO gave.
type ExecResult struct {
	ExitCode int
	Stdout   []byte
	Stderr   []byte
}

// State is a container's lifecycle state.
type State string

// Container states.
const (
	StateCreated State = "created"
	StateRunning State = "running"
	StateExited  State = "exited"
	StateGone    State = "gone"
)

// Container is an observed container.
type Container struct {
	ID         string
	Name       string
	Image      string
	Labels     map[string]string
	State      State
	ExitCode   int
	StartedAt  time.Time
	FinishedAt time.Time
}

// Event says a container changed state (started, died, removed).
type Event struct {
	Container string // name
	Labels    map[string]string
	Action    string
}

// Info describes the engine.
type Info struct {
	ServerVersion string
	APIVersion    string
	// GatewayIP is the address containers reach the host on (the default
	// bridge's gateway); the callback listener binds it.
	GatewayIP string
	// HostName is the name a container started with HostGateway resolves to
	// GatewayIP (Docker's host.docker.internal): the callback URL and any
	// endpoint on the host are written with it.
	HostName string
}

// Runtime runs containers. Every method is safe for concurrent use.
type Runtime interface {
	// Info reports the engine's version and the host gateway address. It
	// fails with ErrUnavailable when the engine cannot be reached.
	Info(ctx context.Context) (Info, error)
	// EnsureImage checks the image is present (ErrImageNotFound otherwise).
	EnsureImage(ctx context.Context, image string) error
	// Start creates and starts a container. A leftover container with the
	// same name is replaced.
	Start(ctx context.Context, spec ContainerSpec) (Container, error)
	// List returns the containers (running or not) whose labels include all
	// of the selector's. Only an exited container's ExitCode, StartedAt and
	// FinishedAt are filled (Inspect gives them for any): listing must not
	// wait on a container being started.
	List(ctx context.Context, selector map[string]string) ([]Container, error)
	// Inspect returns one container by name or ID (ErrNotFound if gone).
	Inspect(ctx context.Context, nameOrID string) (Container, error)
	// Exec runs a command in a running container and returns its exit code and
	// combined output. A timeout kills the wait, not necessarily the command.
	Exec(ctx context.Context, nameOrID string, cmd []string, timeout time.Duration) (int, string, error)
	// ExecIO runs a command in a running container with the request's
	// environment, working folder and stdin, and returns its exit code and
	// its stdout and stderr apart. As with Exec, a timeout ends the wait: a
	// command that must die with it kills itself (smile-wrapper hands-exec).
	ExecIO(ctx context.Context, nameOrID string, req ExecRequest) (ExecResult, error)
	// ExecStream starts a command in a running container and leaves it
	// running: what is written to the connection is its stdin, what is read
	// is its stdout (its stderr is kept apart, see ExecConn). req.Stdin and
	// req.Timeout are ignored; the command lives until the connection is
	// closed or ctx ends. A runtime that cannot stream returns
	// ErrUnsupported, and the caller falls back to ExecIO.
	ExecStream(ctx context.Context, nameOrID string, req ExecRequest) (ExecConn, error)
	// Stop stops a container, killing it after the grace period.
	Stop(ctx context.Context, nameOrID string, grace time.Duration) error
	// Remove force-removes a container; a missing container is not an error.
	Remove(ctx context.Context, nameOrID string) error
	// Logs returns what the container printed (stdout and stderr).
	Logs(ctx context.Context, nameOrID string) (string, error)
	// Watch streams state changes of containers matching the selector until
	// ctx ends. Implementations may drop events; callers also poll.
	Watch(ctx context.Context, selector map[string]string) (<-chan Event, error)

	// Snapshot keeps a container's filesystem (not its mounts) as an image
	// named spec.Ref with spec.Labels, which later containers can start from
	// (ContainerSpec.Image). It returns only once the snapshot is complete:
	// a snapshot an interrupted call leaves behind carries the labels, so it
	// can be listed and removed, but the caller never recorded it.
	Snapshot(ctx context.Context, spec SnapshotSpec) (Snapshot, error)
	// ListSnapshots returns the snapshots whose labels include all of the
	// selector's.
	ListSnapshots(ctx context.Context, selector map[string]string) ([]Snapshot, error)
	// RemoveSnapshot removes a snapshot; a missing one is not an error, and
	// one a container still uses is left (ErrInUse).
	RemoveSnapshot(ctx context.Context, ref string) error
}

// ErrUnsupported means the runtime does not offer the operation.
var ErrUnsupported = errors.New("not supported by this runtime")

// ExecConn is a running command's stdin (Write) and stdout (Read). Read
// returns io.EOF once the command has closed its stdout or ended.
type ExecConn interface {
	io.ReadWriteCloser
	// Stderr is the end of what the command printed on stderr so far, to
	// explain a connection that broke.
	Stderr() string
}

// ErrInUse means a snapshot cannot be removed: a container was started
// from it and still exists.
var ErrInUse = errors.New("snapshot in use")

// SnapshotSpec says what to keep of which container.
type SnapshotSpec struct {
	// Container is the container's name or ID.
	Container string
	// Ref is the snapshot's name (an image reference: repository:tag).
	Ref    string
	Labels map[string]string
}

// Snapshot is a kept container filesystem.
type Snapshot struct {
	Ref    string
	ID     string
	Labels map[string]string
	// SizeBytes is what the snapshot adds on disk to the image it was made
	// from (its own layer).
	SizeBytes int64
	CreatedAt time.Time
}

// CleanupScript is the optional script an image may ship; Reset runs it
// before recreating a container (the seed's reset algorithm).
const CleanupScript = "/usr/local/bin/smile-cleanup"

// CleanupTimeout is the seed's limit for the cleanup script.
const CleanupTimeout = 10 * time.Second

// Reset gives a run a clean container for its next attempt, by the seed's
// algorithm: retire the old container (Retire), remove it, create the new
// one from the image. A failed recreation is returned as an error.
func Reset(ctx context.Context, rt Runtime, old string, next ContainerSpec) (Container, error) {
	if old != "" {
		if err := Retire(ctx, rt, old); err != nil {
			return Container{}, err
		}
		if err := rt.Remove(ctx, old); err != nil {
			return Container{}, err
		}
	}
	return rt.Start(ctx, next)
}

// Retire ends a container's work before it is removed, by the seed's
// algorithm: run the cleanup script in it if it is running (10 s at most);
// if that fails or times out, stop it. A container that is gone is no
// error.
func Retire(ctx context.Context, rt Runtime, old string) error {
	c, err := rt.Inspect(ctx, old)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return err
	case c.State == StateRunning:
		code, _, err := rt.Exec(ctx, old, []string{"/bin/sh", "-c", "[ ! -x " + CleanupScript + " ] || exec " + CleanupScript}, CleanupTimeout)
		if err != nil || code != 0 {
			_ = rt.Stop(ctx, old, 0)
		}
	}
	return nil
}
