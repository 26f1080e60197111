package docker

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strings"
	"sync"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/client"

	"github.com/smile-loop/smile/runtime"
)

// BaseImage is the offline image hack/build-image.sh builds.
const BaseImage = "smile-base:latest"

// bridgeNameOption names the host interface of a bridge network.
const bridgeNameOption = "com.docker.network.bridge.name"

// Runtime runs containers on a Docker Engine. It is safe for concurrent use.
type Runtime struct {
	cli *client.Client

	mu        sync.Mutex
	connected bool

	netMu sync.Mutex
	netID string // the isolated network's ID, once known to exist
	// netName names the isolated network ("": IsolatedNetwork); a test
	// that makes duplicates of it gives its own.
	netName string
}

var _ runtime.Runtime = (*Runtime)(nil)

// New returns a Runtime configured from the environment (DOCKER_HOST and
// friends). It does not contact the daemon: the first call does, so a missing
// daemon surfaces as runtime.ErrUnavailable from the call that needed it.
func New() (*Runtime, error) {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return nil, &unavailableError{cause: "invalid Docker client configuration: " + err.Error(), err: err}
	}
	return &Runtime{cli: cli}, nil
}

// Close releases the client's connections.
func (r *Runtime) Close() error {
	return r.cli.Close()
}

// connect pings the daemon once and settles the API version. It retries on
// the next call after a failure, so a daemon started late is picked up.
func (r *Runtime) connect(ctx context.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.connected {
		return nil
	}
	// NegotiateAPIVersion would hide a failed ping; pinging ourselves and
	// handing the answer to NegotiateAPIVersionPing negotiates the same way
	// with one round trip and keeps the cause for the E08 message.
	ping, err := r.cli.Ping(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return r.unavailable(err)
	}
	r.cli.NegotiateAPIVersionPing(ping)
	r.connected = true
	return nil
}

// unavailableError is runtime.ErrUnavailable with a cause a user can act on;
// it also unwraps to the client's error so errors.Is(err, os.ErrPermission)
// still works.
type unavailableError struct {
	cause string
	err   error
}

func (e *unavailableError) Error() string {
	return runtime.ErrUnavailable.Error() + ": " + e.cause
}

func (e *unavailableError) Unwrap() []error {
	return []error{runtime.ErrUnavailable, e.err}
}

// unavailable turns a failure to reach the daemon into runtime.ErrUnavailable.
func (r *Runtime) unavailable(err error) error {
	host := r.cli.DaemonHost()
	switch {
	case errors.Is(err, os.ErrPermission):
		return &unavailableError{
			cause: fmt.Sprintf("permission denied on %s: run as root or add your user to the docker group", strings.TrimPrefix(host, "unix://")),
			err:   err,
		}
	case client.IsErrConnectionFailed(err):
		return &unavailableError{
			cause: fmt.Sprintf("cannot connect to %s: is the Docker daemon running?", host),
			err:   err,
		}
	default:
		return &unavailableError{cause: fmt.Sprintf("cannot talk to %s: %v", host, err), err: err}
	}
}

// fail wraps err with what was being done, except when the daemon has gone
// away: then the seed's E08 message comes first, because what we were doing
// no longer matters to the user.
func (r *Runtime) fail(what string, err error) error {
	if client.IsErrConnectionFailed(err) {
		return r.unavailable(err)
	}
	return fmt.Errorf("%s: %w", what, err)
}

// Info is part of the runtime.Runtime interface.
func (r *Runtime) Info(ctx context.Context) (runtime.Info, error) {
	if err := r.connect(ctx); err != nil {
		return runtime.Info{}, err
	}
	v, err := r.cli.ServerVersion(ctx)
	if err != nil {
		return runtime.Info{}, r.fail("read Docker version", err)
	}
	bridge, err := r.cli.NetworkInspect(ctx, network.NetworkBridge, network.InspectOptions{})
	if err != nil {
		return runtime.Info{}, r.fail("inspect the default bridge network", err)
	}
	gw, err := gatewayIP(bridge)
	if err != nil {
		return runtime.Info{}, err
	}
	return runtime.Info{ServerVersion: v.Version, APIVersion: r.cli.ClientVersion(), GatewayIP: gw, HostName: HostName}, nil
}

// gatewayIP finds the address containers on the default bridge reach the host
// on. Some engines leave IPAM.Config's Gateway empty (20.10 does here), so it
// falls back to the bridge interface's own IPv4 address, then to the first
// address of the subnet, which is where Docker puts the gateway by default.
func gatewayIP(bridge network.Inspect) (string, error) {
	var subnet netip.Prefix
	for _, c := range bridge.IPAM.Config {
		if gw, err := netip.ParseAddr(c.Gateway); err == nil && gw.Is4() {
			return gw.String(), nil
		}
		if p, err := netip.ParsePrefix(c.Subnet); err == nil && p.Addr().Is4() && !subnet.IsValid() {
			subnet = p.Masked()
		}
	}
	if name := bridge.Options[bridgeNameOption]; name != "" {
		if ip := interfaceIPv4(name, subnet); ip != "" {
			return ip, nil
		}
	}
	if subnet.IsValid() {
		return subnet.Addr().Next().String(), nil
	}
	return "", fmt.Errorf("find the Docker bridge gateway: network %q has no IPv4 gateway, interface or subnet", bridge.Name)
}

// interfaceIPv4 returns the interface's IPv4 address, preferring one inside
// subnet; "" when the interface is not on this host (a remote daemon).
func interfaceIPv4(name string, subnet netip.Prefix) string {
	iface, err := net.InterfaceByName(name)
	if err != nil {
		return ""
	}
	addrs, err := iface.Addrs()
	if err != nil {
		return ""
	}
	first := ""
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip, ok := netip.AddrFromSlice(ipnet.IP)
		if !ok || !ip.Unmap().Is4() {
			continue
		}
		ip = ip.Unmap()
		if subnet.IsValid() && subnet.Contains(ip) {
			return ip.String()
		}
		if first == "" {
			first = ip.String()
		}
	}
	return first
}

// EnsureImage is part of the runtime.Runtime interface.
func (r *Runtime) EnsureImage(ctx context.Context, name string) error {
	if err := r.connect(ctx); err != nil {
		return err
	}
	_, err := r.cli.ImageInspect(ctx, name)
	switch {
	case err == nil:
		return nil
	case cerrdefs.IsNotFound(err):
		return imageNotFound(name)
	default:
		return r.fail("inspect image "+name, err)
	}
}

// imageNotFound is the seed's E09: say how to get the image. There is no
// registry on some machines, so the offline base image is always offered.
func imageNotFound(name string) error {
	if name == BaseImage {
		return fmt.Errorf("%w: %s: build it with hack/build-image.sh (no registry needed)", runtime.ErrImageNotFound, name)
	}
	if strings.HasPrefix(name, "smile-base:") {
		return fmt.Errorf("%w: %s: build it with SMILE_BASE_IMAGE=%s hack/build-image.sh (no registry needed)", runtime.ErrImageNotFound, name, name)
	}
	return fmt.Errorf("%w: %s: pull it first (docker pull %s), or build the offline base image %s with hack/build-image.sh and use that",
		runtime.ErrImageNotFound, name, name, BaseImage)
}
