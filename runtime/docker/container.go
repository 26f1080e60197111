package docker

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/api/types/mount"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/smile-loop/smile/runtime"
)

// HostName is the name Docker gives the host inside a container started with
// a host-gateway entry.
const HostName = "host.docker.internal"

// hostGateway makes HostName resolve to the default bridge's gateway, where
// the controller's callback listener binds.
const hostGateway = HostName + ":host-gateway"

// Start is part of the runtime.Runtime interface.
func (r *Runtime) Start(ctx context.Context, spec runtime.ContainerSpec) (runtime.Container, error) {
	if err := r.connect(ctx); err != nil {
		return runtime.Container{}, err
	}
	isolated := ""
	if spec.Network == "" || spec.Network == "bridge" {
		id, err := r.isolatedNetwork(ctx)
		if err != nil {
			return runtime.Container{}, err
		}
		isolated = id
	}
	cfg, host, err := containerConfig(spec, isolated)
	if err != nil {
		return runtime.Container{}, err
	}
	created, err := r.cli.ContainerCreate(ctx, cfg, host, nil, nil, spec.Name)
	if cerrdefs.IsConflict(err) && spec.Name != "" {
		// A leftover from a crashed controller or an earlier attempt holds the
		// name; the interface promises to replace it.
		if err := r.Remove(ctx, spec.Name); err != nil {
			return runtime.Container{}, err
		}
		created, err = r.cli.ContainerCreate(ctx, cfg, host, nil, nil, spec.Name)
	}
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return runtime.Container{}, fmt.Errorf("create container %s: %w", spec.Name, imageNotFound(spec.Image))
		}
		return runtime.Container{}, r.fail("create container "+spec.Name, err)
	}
	if err := r.cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		// A created but never started container would be mistaken for a
		// pending one by the next observer.
		_ = r.remove(context.WithoutCancel(ctx), created.ID)
		return runtime.Container{}, r.fail("start container "+spec.Name, err)
	}
	return r.Inspect(ctx, created.ID)
}

// containerConfig is how the engine makes spec's container; isolated is the
// ID of the network it joins when spec names none of its own.
func containerConfig(spec runtime.ContainerSpec, isolated string) (*container.Config, *container.HostConfig, error) {
	withInit := true
	cfg := &container.Config{
		Image:      spec.Image,
		Cmd:        spec.Cmd,
		Env:        spec.Env,
		Labels:     spec.Labels,
		WorkingDir: spec.WorkingDir,
	}
	network := spec.Network
	if network == "" || network == "bridge" {
		network = isolated
	}
	host := &container.HostConfig{
		// Without an init, a shell or sleep as PID 1 ignores SIGTERM and every
		// stop waits out its whole grace period.
		Init:        &withInit,
		NetworkMode: container.NetworkMode(network),
	}
	for _, m := range spec.Mounts {
		// Mounts, not Binds: Binds would silently create a missing source
		// folder, hiding a wrong path until the learner finds it empty.
		host.Mounts = append(host.Mounts, mount.Mount{
			Type:     mount.TypeBind,
			Source:   m.Source,
			Target:   m.Target,
			ReadOnly: m.ReadOnly,
		})
	}
	for _, d := range spec.EmptyDirs {
		// Empty, read-only and tiny: it only hides what lies beneath.
		host.Mounts = append(host.Mounts, mount.Mount{
			Type: mount.TypeTmpfs, Target: d, ReadOnly: true,
			TmpfsOptions: &mount.TmpfsOptions{SizeBytes: 4096, Mode: 0o500},
		})
	}
	if spec.HostGateway {
		host.ExtraHosts = []string{hostGateway}
	}
	host.Resources = resources(spec.Resources)
	if spec.Confinement.NoNewPrivileges {
		host.SecurityOpt = append(host.SecurityOpt, "no-new-privileges")
	}
	host.CapDrop = append(host.CapDrop, spec.Confinement.CapDrop...)
	if spec.Confinement.NoTrace {
		profile, err := noTraceProfile()
		if err != nil {
			return nil, nil, err
		}
		host.SecurityOpt = append(host.SecurityOpt, "seccomp="+profile)
	}
	return cfg, host, nil
}

// resources maps the limits onto Docker's. Swap is set to the memory limit
// so the cap is not doubled by swap; a zero field leaves Docker's default.
func resources(r runtime.Resources) container.Resources {
	var out container.Resources
	if r.PidsLimit > 0 {
		pids := r.PidsLimit
		out.PidsLimit = &pids
	}
	if r.MemoryBytes > 0 {
		out.Memory = r.MemoryBytes
		out.MemorySwap = r.MemoryBytes
	}
	out.NanoCPUs = r.NanoCPUs
	return out
}

// List is part of the runtime.Runtime interface.
func (r *Runtime) List(ctx context.Context, selector map[string]string) ([]runtime.Container, error) {
	if err := r.connect(ctx); err != nil {
		return nil, err
	}
	summaries, err := r.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: labelFilter(selector)})
	if err != nil {
		return nil, r.fail("list containers", err)
	}
	out := make([]runtime.Container, 0, len(summaries))
	for _, s := range summaries {
		c := fromSummary(s)
		if c.State == runtime.StateGone {
			continue // being removed
		}
		if c.State == runtime.StateExited {
			// The list lacks exit codes and times. Only a container that
			// ended is inspected: an inspect waits for the container's lock,
			// which a container being created or started holds for its whole
			// start, and the loop would wait on a prepared container.
			ic, err := r.Inspect(ctx, s.ID)
			if errors.Is(err, runtime.ErrNotFound) || err == nil && ic.State == runtime.StateGone {
				continue // removed between the list and the inspect
			}
			if err != nil {
				return nil, err
			}
			c = ic
		}
		out = append(out, c)
	}
	return out, nil
}

// fromSummary is a listed container as the list tells it: no exit code and
// no times.
func fromSummary(s container.Summary) runtime.Container {
	c := runtime.Container{ID: s.ID, Image: s.Image, Labels: s.Labels, State: state(s.State)}
	if len(s.Names) > 0 {
		c.Name = strings.TrimPrefix(s.Names[0], "/")
	}
	return c
}

func labelFilter(selector map[string]string) filters.Args {
	args := filters.NewArgs()
	for k, v := range selector {
		args.Add("label", k+"="+v)
	}
	return args
}

// Inspect is part of the runtime.Runtime interface.
func (r *Runtime) Inspect(ctx context.Context, nameOrID string) (runtime.Container, error) {
	if err := r.connect(ctx); err != nil {
		return runtime.Container{}, err
	}
	resp, err := r.cli.ContainerInspect(ctx, nameOrID)
	if err != nil {
		if cerrdefs.IsNotFound(err) {
			return runtime.Container{}, fmt.Errorf("inspect container %s: %w", nameOrID, runtime.ErrNotFound)
		}
		return runtime.Container{}, r.fail("inspect container "+nameOrID, err)
	}
	return fromInspect(resp), nil
}

func fromInspect(resp container.InspectResponse) runtime.Container {
	c := runtime.Container{}
	if resp.ContainerJSONBase != nil {
		c.ID = resp.ID
		c.Name = strings.TrimPrefix(resp.Name, "/")
		c.Image = resp.Image
		if s := resp.State; s != nil {
			c.State = state(s.Status)
			c.ExitCode = s.ExitCode
			c.StartedAt = parseTime(s.StartedAt)
			c.FinishedAt = parseTime(s.FinishedAt)
		}
	}
	if resp.Config != nil {
		// The name the container was created from, not the image ID.
		c.Image = resp.Config.Image
		c.Labels = resp.Config.Labels
	}
	return c
}

// state maps Docker's seven states onto the four the reconciler acts on: a
// paused or restarting container still holds its processes.
func state(s container.ContainerState) runtime.State {
	switch s {
	case container.StateCreated:
		return runtime.StateCreated
	case container.StateRunning, container.StatePaused, container.StateRestarting:
		return runtime.StateRunning
	case container.StateRemoving:
		return runtime.StateGone
	default:
		return runtime.StateExited
	}
}

// parseTime reads Docker's RFC 3339 times; its "0001-01-01T00:00:00Z" for
// "never" becomes the zero time.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || t.Year() <= 1 {
		return time.Time{}
	}
	return t
}

// Stop is part of the runtime.Runtime interface.
func (r *Runtime) Stop(ctx context.Context, nameOrID string, grace time.Duration) error {
	if err := r.connect(ctx); err != nil {
		return err
	}
	// The API counts whole seconds; round up so a short grace is not zero.
	seconds := int(math.Ceil(max(grace, 0).Seconds()))
	err := r.cli.ContainerStop(ctx, nameOrID, container.StopOptions{Timeout: &seconds})
	if cerrdefs.IsNotFound(err) {
		return fmt.Errorf("stop container %s: %w", nameOrID, runtime.ErrNotFound)
	}
	if err != nil {
		return r.fail("stop container "+nameOrID, err)
	}
	return nil
}

// Remove is part of the runtime.Runtime interface.
func (r *Runtime) Remove(ctx context.Context, nameOrID string) error {
	if err := r.connect(ctx); err != nil {
		return err
	}
	return r.remove(ctx, nameOrID)
}

func (r *Runtime) remove(ctx context.Context, nameOrID string) error {
	// RemoveVolumes: anonymous volumes an image declares would otherwise
	// pile up, one per attempt.
	err := r.cli.ContainerRemove(ctx, nameOrID, container.RemoveOptions{Force: true, RemoveVolumes: true})
	if err == nil || cerrdefs.IsNotFound(err) {
		return nil
	}
	if cerrdefs.IsConflict(err) && strings.Contains(err.Error(), "already in progress") {
		// Another client (a controller killed mid-removal, another
		// process) is removing it: gone is what this caller wants.
		return r.awaitGone(ctx, nameOrID, err)
	}
	return r.fail("remove container "+nameOrID, err)
}

// awaitGone waits until a container someone else is removing is gone, for
// a minute at most; cause is returned if it is still there.
func (r *Runtime) awaitGone(ctx context.Context, nameOrID string, cause error) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if _, err := r.cli.ContainerInspect(ctx, nameOrID); cerrdefs.IsNotFound(err) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return r.fail("remove container "+nameOrID, cause)
}

// Logs is part of the runtime.Runtime interface.
func (r *Runtime) Logs(ctx context.Context, nameOrID string) (string, error) {
	if err := r.connect(ctx); err != nil {
		return "", err
	}
	rc, err := r.cli.ContainerLogs(ctx, nameOrID, container.LogsOptions{ShowStdout: true, ShowStderr: true})
	if cerrdefs.IsNotFound(err) {
		return "", fmt.Errorf("read logs of container %s: %w", nameOrID, runtime.ErrNotFound)
	}
	if err != nil {
		return "", r.fail("read logs of container "+nameOrID, err)
	}
	defer rc.Close()
	var out bytes.Buffer
	// Containers are created without a TTY, so the stream is multiplexed.
	if _, err := stdcopy.StdCopy(&out, &out, rc); err != nil {
		return out.String(), r.fail("read logs of container "+nameOrID, err)
	}
	return out.String(), nil
}
