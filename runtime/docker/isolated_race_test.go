package docker

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/docker/docker/api/types/network"
	"github.com/smile-loop/smile/runtime"
)

// Controllers that start at once agree on one isolated network, and a name
// two networks already share (left by such a race on an engine that checks
// names only on a best-effort basis) does not stop containers from starting.
// Each test uses a network name of its own, never the one real runs share.
func TestIsolatedNetworkRace(t *testing.T) {
	base := newRuntime(t)
	ctx := context.Background()
	run := testRun(t, base)
	name := "smile-test-net-" + run
	t.Cleanup(func() { removeNetworks(t, base, name) })

	t.Run("controllers starting at once", func(t *testing.T) {
		ids := make([]string, 4)
		var wg sync.WaitGroup
		for i := range ids {
			r := newRuntime(t)
			r.netName = name
			wg.Add(1)
			go func() {
				defer wg.Done()
				id, err := r.isolatedNetwork(ctx)
				if err != nil {
					t.Error(err)
				}
				ids[i] = id
			}()
		}
		wg.Wait()
		for _, id := range ids[1:] {
			if id != ids[0] || id == "" {
				t.Fatalf("controllers chose networks %q, want one", ids)
			}
		}
		if nets, err := base.networksNamed(ctx, name); err != nil || len(nets) != 1 || nets[0].ID != ids[0] {
			t.Fatalf("networks named %s: %d (%v), want only %s", name, len(nets), err, ids[0])
		}
	})

	t.Run("a name two networks share", func(t *testing.T) {
		removeNetworks(t, base, name)
		first := createUnchecked(t, base, name)
		second := createUnchecked(t, base, name)
		if second == "" {
			t.Skip("this engine refuses a second network of the same name: no duplicate can arise")
		}
		r := newRuntime(t)
		r.netName = name
		_, err := r.Start(ctx, testSpec(run, "dup"))
		if err == nil || !strings.Contains(err.Error(), "is ambiguous: 2 networks share the name") || !strings.Contains(err.Error(), "docker network rm") {
			t.Fatalf("starting on a name two networks share: %v; want a clear error that says how to fix it", err)
		}
		if nets, _ := base.networksNamed(ctx, name); len(nets) != 2 || nets[0].ID != first && nets[1].ID != first {
			t.Errorf("%d networks named %s are left, want both: SMILE removes only what it made itself", len(nets), name)
		}
	})
}

// createUnchecked makes a SMILE-labelled isolated network as an engine of API
// 1.41 allows when its caller does not ask for a name check: the duplicate a
// race leaves. It returns "" when the engine refuses the name.
func createUnchecked(t *testing.T, r *Runtime, name string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"Name": name, "CheckDuplicate": false, "Driver": "bridge",
		"Options": map[string]string{iccOption: "false"}, "Labels": map[string]string{runtime.LabelOwner: runtime.OwnerValue}})
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost,
		fmt.Sprintf("http://docker/v%s/networks/create", r.cli.ClientVersion()), bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := r.cli.HTTPClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusConflict {
		return ""
	}
	var created struct{ ID string }
	if err := json.NewDecoder(resp.Body).Decode(&created); err != nil || resp.StatusCode != http.StatusCreated || created.ID == "" {
		t.Fatalf("create network %s: %s, %v", name, resp.Status, err)
	}
	return created.ID
}

// removeNetworks removes the test's networks (their containers first).
func removeNetworks(t *testing.T, r *Runtime, name string) {
	ctx := context.Background()
	nets, err := r.networksNamed(ctx, name)
	if err != nil {
		t.Error(err)
		return
	}
	for _, n := range nets {
		full, err := r.cli.NetworkInspect(ctx, n.ID, network.InspectOptions{})
		if err == nil {
			for id := range full.Containers {
				_ = r.remove(ctx, id)
			}
		}
		if err := r.cli.NetworkRemove(ctx, n.ID); err != nil {
			t.Errorf("remove network %s: %v", n.ID, err)
		}
	}
}
