package docker

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/network"

	"github.com/smile-loop/smile/runtime"
)

// listener serves "hi" on port 7777 for ever (perl is in the base image).
var listener = []string{"perl", "-MIO::Socket::INET", "-e",
	`$s=IO::Socket::INET->new(LocalPort=>7777,Listen=>5,ReuseAddr=>1) or die; while($c=$s->accept){print $c "hi\n"; close $c}`}

// A tutorial's container reaches no other container: neither another of
// SMILE's (another run's, or its own run's Mentor) nor one on the engine's
// default bridge, where other users' containers live. Connections are
// tried from inside with bash's /dev/tcp, as a tutorial would.
func TestIsolatedNetwork(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	run := testRun(t, r)

	mine := testSpec(run, "server")
	mine.Cmd = listener
	server := start(t, r, mine)
	prober := start(t, r, testSpec(run, "prober"))

	// Someone else's container on the default bridge, as `docker run` makes it.
	name := "smile-test-" + run + "-bystander"
	created, err := r.cli.ContainerCreate(ctx, &container.Config{Image: BaseImage, Cmd: listener,
		Labels: map[string]string{runtime.LabelOwner: testOwner, runtime.LabelRun: run}},
		&container.HostConfig{NetworkMode: network.NetworkBridge}, nil, nil, name)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cli.ContainerStart(ctx, created.ID, container.StartOptions{}); err != nil {
		t.Fatal(err)
	}
	addr := func(id string) string {
		info, err := r.cli.ContainerInspect(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range info.NetworkSettings.Networks {
			if n.IPAddress != "" {
				return n.IPAddress
			}
		}
		t.Fatalf("container %s has no address", id)
		return ""
	}
	connect := func(from, ip string) string {
		// A few tries: a listener may still be starting.
		cmd := fmt.Sprintf("for i in 1 2 3; do timeout 2 bash -c 'cat </dev/tcp/%s/7777' 2>/dev/null && exit 0; sleep 0.5; done; echo unreachable", ip)
		_, out, err := r.Exec(ctx, from, []string{"bash", "-c", cmd}, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	// The listeners do answer, each on its own loopback.
	for _, c := range []string{server.Name, name} {
		if got := connect(c, "127.0.0.1"); got != "hi" {
			t.Fatalf("%s does not answer on its own loopback: %q", c, got)
		}
	}
	for what, id := range map[string]string{"another SMILE container": server.ID, "a container on the default bridge": created.ID} {
		if got := connect(prober.Name, addr(id)); got != "unreachable" {
			t.Errorf("a tutorial's container reached %s (%s): %q", what, addr(id), got)
		}
	}
}
