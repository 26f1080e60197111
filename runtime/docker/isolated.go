package docker

import (
	"context"
	"fmt"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/network"

	"github.com/smile-loop/smile/runtime"
)

// IsolatedNetwork is the bridge network every SMILE container with a network
// joins: egress through the engine's NAT as on the default bridge, but no
// container on it reaches another (inter-container traffic off), and Docker
// keeps its bridges apart, so a tutorial reaches neither another run's
// containers nor anything else on the engine. The host's own addresses stay
// reachable as from the default bridge (the callback listener on its gateway).
const IsolatedNetwork = "smile-isolated"

// iccOption turns a bridge's inter-container traffic on or off.
const iccOption = "com.docker.network.bridge.enable_icc"

// isolatedNetwork makes sure IsolatedNetwork exists and says so once per
// Runtime. It is SMILE's own (labelled so), made on first use and left for
// the next run: removing it while another controller's container starts
// would fail that start.
func (r *Runtime) isolatedNetwork(ctx context.Context) error {
	r.netMu.Lock()
	defer r.netMu.Unlock()
	if r.netReady {
		return nil
	}
	n, err := r.cli.NetworkInspect(ctx, IsolatedNetwork, network.InspectOptions{})
	switch {
	case err == nil:
		if n.Options[iccOption] != "false" || n.Labels[runtime.LabelOwner] != runtime.OwnerValue {
			return fmt.Errorf("network %s exists but is not SMILE's isolated network (inter-container traffic %q, owner %q): remove it with `docker network rm %s`",
				IsolatedNetwork, n.Options[iccOption], n.Labels[runtime.LabelOwner], IsolatedNetwork)
		}
	case cerrdefs.IsNotFound(err):
		_, err := r.cli.NetworkCreate(ctx, IsolatedNetwork, network.CreateOptions{
			Driver:  "bridge",
			Options: map[string]string{iccOption: "false"},
			Labels:  map[string]string{runtime.LabelOwner: runtime.OwnerValue},
		})
		// Another controller may have made it between the look and now.
		if err != nil && !cerrdefs.IsConflict(err) {
			return r.fail("create network "+IsolatedNetwork, err)
		}
	default:
		return r.fail("inspect network "+IsolatedNetwork, err)
	}
	r.netReady = true
	return nil
}
