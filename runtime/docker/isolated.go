package docker

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/docker/docker/api/types/filters"
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

// isolatedNetwork makes sure the isolated network exists and returns the ID
// containers join it by, once per Runtime. It is SMILE's own (labelled so),
// made on first use and left for the next run: removing it while another
// controller's container starts would fail that start.
//
// Two controllers that start at once may both find no network and both make
// one: Docker 20.10 checks names only on a best-effort basis, and a name two
// networks share is "ambiguous" to every container that joins it. So the
// controllers of one host take a lock to look and make it, and one that
// still finds a duplicate it made itself (another host's controller raced
// it) removes its own, which nothing has joined. A duplicate it did not make
// is reported, not removed.
func (r *Runtime) isolatedNetwork(ctx context.Context) (string, error) {
	r.netMu.Lock()
	defer r.netMu.Unlock()
	if r.netID != "" {
		return r.netID, nil
	}
	name := r.networkName()
	unlock, err := lockHost("network-" + name)
	if err != nil {
		return "", err
	}
	defer unlock()
	nets, err := r.networksNamed(ctx, name)
	if err != nil {
		return "", err
	}
	made := ""
	if len(nets) == 0 {
		created, err := r.cli.NetworkCreate(ctx, name, network.CreateOptions{
			Driver:  "bridge",
			Options: map[string]string{iccOption: "false"},
			Labels:  map[string]string{runtime.LabelOwner: runtime.OwnerValue},
		})
		// Another host's controller may have made it between the look and now.
		if err != nil && !cerrdefs.IsConflict(err) {
			return "", r.fail("create network "+name, err)
		}
		made = created.ID
		if nets, err = r.networksNamed(ctx, name); err != nil {
			return "", err
		}
	}
	keep, err := oldestIsolated(name, nets)
	if err != nil {
		return "", err
	}
	if made != "" && made != keep {
		if err := r.cli.NetworkRemove(ctx, made); err != nil && !cerrdefs.IsNotFound(err) {
			return "", r.fail("remove the duplicate network "+name+" this controller made", err)
		}
		nets = slices.DeleteFunc(nets, func(n network.Summary) bool { return n.ID == made })
	}
	if len(nets) > 1 {
		ids := make([]string, 0, len(nets))
		for _, n := range nets {
			ids = append(ids, n.ID[:min(12, len(n.ID))])
		}
		return "", fmt.Errorf("network %s is ambiguous: %d networks share the name (%s), and no container can join it: remove all but one with `docker network rm ID`",
			name, len(nets), strings.Join(ids, ", "))
	}
	r.netID = keep
	return keep, nil
}

// lockHost takes a lock that SMILE's controllers on this host share (a file
// in the temporary folder, locked with flock), until unlock.
func lockHost(what string) (unlock func(), err error) {
	path := filepath.Join(os.TempDir(), "smile-"+what+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// networkName is the isolated network's name (a test's own, else
// IsolatedNetwork).
func (r *Runtime) networkName() string {
	if r.netName != "" {
		return r.netName
	}
	return IsolatedNetwork
}

// networksNamed lists the networks called exactly name.
func (r *Runtime) networksNamed(ctx context.Context, name string) ([]network.Summary, error) {
	// The engine's name filter matches parts of names too.
	all, err := r.cli.NetworkList(ctx, network.ListOptions{Filters: filters.NewArgs(filters.Arg("name", name))})
	if err != nil {
		return nil, r.fail("list networks named "+name, err)
	}
	var nets []network.Summary
	for _, n := range all {
		if n.Name == name {
			nets = append(nets, n)
		}
	}
	return nets, nil
}

// oldestIsolated picks, among the networks called name, the one every
// controller agrees on: the oldest (then the smallest ID). Each must be
// SMILE's isolated network: another network of that name is refused.
func oldestIsolated(name string, nets []network.Summary) (string, error) {
	if len(nets) == 0 {
		return "", fmt.Errorf("network %s was made but is not listed", name)
	}
	for _, n := range nets {
		if n.Options[iccOption] != "false" || n.Labels[runtime.LabelOwner] != runtime.OwnerValue {
			return "", fmt.Errorf("network %s exists but is not SMILE's isolated network (inter-container traffic %q, owner %q): remove it with `docker network rm %s`",
				name, n.Options[iccOption], n.Labels[runtime.LabelOwner], n.ID)
		}
	}
	oldest := slices.MinFunc(nets, func(a, b network.Summary) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	return oldest.ID, nil
}
