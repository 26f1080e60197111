package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/docker/docker/api"
	"github.com/docker/docker/api/types/network"
	"github.com/docker/docker/api/types/versions"

	"github.com/smile-loop/smile/runtime"
)

func TestUnavailable(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "docker.sock")
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx := context.Background()
	calls := map[string]func() error{
		"Info":        func() error { _, err := r.Info(ctx); return err },
		"EnsureImage": func() error { return r.EnsureImage(ctx, BaseImage) },
		"Start":       func() error { _, err := r.Start(ctx, testSpec("x", "x")); return err },
		"List":        func() error { _, err := r.List(ctx, nil); return err },
		"Watch":       func() error { _, err := r.Watch(ctx, nil); return err },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			err := call()
			if !errors.Is(err, runtime.ErrUnavailable) {
				t.Fatalf("error = %v, want ErrUnavailable", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "Docker is required but not available: ") || !strings.Contains(msg, sock) {
				t.Fatalf("message %q: want the seed's message, then the socket that failed", msg)
			}
		})
	}
}

func TestInfo(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	info, err := r.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	server, err := r.cli.ServerVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := api.DefaultVersion
	if versions.LessThan(server.APIVersion, want) {
		want = server.APIVersion
	}
	if info.APIVersion != want || info.ServerVersion != server.Version {
		t.Fatalf("Info = %+v; want API %s (negotiated with server API %s), server %s", info, want, server.APIVersion, server.Version)
	}
	gw, err := netip.ParseAddr(info.GatewayIP)
	if err != nil || !gw.Is4() || gw.IsUnspecified() || gw.IsLoopback() {
		t.Fatalf("GatewayIP = %q, want a routable IPv4 address", info.GatewayIP)
	}
}

// TestHostGateway checks what the callback needs: host.docker.internal
// resolves to Info's gateway inside the container, and a listener bound
// there is reachable from it.
func TestHostGateway(t *testing.T) {
	r := newRuntime(t)
	run := testRun(t, r)
	ctx := context.Background()
	info, err := r.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(info.GatewayIP, "0"))
	if err != nil {
		t.Fatalf("bind the gateway %s: %v", info.GatewayIP, err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		_ = conn.SetDeadline(time.Now().Add(5 * time.Second))
		b, _ := io.ReadAll(conn)
		got <- string(b)
	}()

	spec := testSpec(run, "gw")
	spec.HostGateway = true
	c := start(t, r, spec)
	code, out := mustExec(t, r, c.Name, "getent", "hosts", "host.docker.internal")
	if fields := strings.Fields(out); code != 0 || len(fields) == 0 || fields[0] != info.GatewayIP {
		t.Fatalf("getent hosts host.docker.internal = %d %q, want %s", code, out, info.GatewayIP)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	code, out = mustExec(t, r, c.Name, "bash", "-c", fmt.Sprintf("echo hello >/dev/tcp/host.docker.internal/%d", port))
	if code != 0 {
		t.Fatalf("connect to host.docker.internal:%d: exit %d: %s", port, code, out)
	}
	select {
	case msg := <-got:
		if msg != "hello\n" {
			t.Fatalf("listener got %q, want \"hello\\n\"", msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("nothing reached the listener on the gateway")
	}

	plain := start(t, r, testSpec(run, "nogw"))
	if code, _ := mustExec(t, r, plain.Name, "getent", "hosts", "host.docker.internal"); code == 0 {
		t.Fatal("host.docker.internal resolves without HostGateway")
	}
}

func TestEnsureImage(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	if err := r.EnsureImage(ctx, BaseImage); err != nil {
		t.Fatalf("EnsureImage(%s) = %v", BaseImage, err)
	}
	const missing = "smile-test-missing:never"
	err := r.EnsureImage(ctx, missing)
	if !errors.Is(err, runtime.ErrImageNotFound) {
		t.Fatalf("EnsureImage(missing) = %v, want ErrImageNotFound", err)
	}
	for _, hint := range []string{"docker pull " + missing, "hack/build-image.sh"} {
		if !strings.Contains(err.Error(), hint) {
			t.Errorf("message %q does not say %q", err, hint)
		}
	}
	run := testRun(t, r)
	spec := testSpec(run, "noimage")
	spec.Image = missing
	if _, err := r.Start(ctx, spec); !errors.Is(err, runtime.ErrImageNotFound) || !strings.Contains(err.Error(), "docker pull") {
		t.Fatalf("Start with a missing image = %v, want ErrImageNotFound saying how to get it", err)
	}
}

func TestStart(t *testing.T) {
	r := newRuntime(t)
	run := testRun(t, r)
	ctx := context.Background()
	tutorial, work := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(tutorial, "tutorial.md"), []byte("# Hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := testSpec(run, "student")
	spec.Mounts = []runtime.Mount{
		{Source: tutorial, Target: "/workspace/tutorial", ReadOnly: true},
		{Source: work, Target: "/workspace/work"},
	}
	spec.Env = []string{"SMILE_TEST=yes"}
	spec.WorkingDir = "/workspace/work"
	c := start(t, r, spec)
	if c.State != runtime.StateRunning || c.Name != spec.Name || c.Image != BaseImage || c.StartedAt.IsZero() {
		t.Fatalf("Start = %+v, want %s running from %s", c, spec.Name, BaseImage)
	}
	if c.Labels[runtime.LabelRun] != run || c.Labels[runtime.LabelRole] != "student" {
		t.Fatalf("labels = %v, want the spec's", c.Labels)
	}

	t.Run("read-only mount", func(t *testing.T) {
		if code, out := mustExec(t, r, c.Name, "cat", "/workspace/tutorial/tutorial.md"); code != 0 || out != "# Hello\n" {
			t.Fatalf("cat tutorial = %d %q", code, out)
		}
		code, out := mustExec(t, r, c.Name, "sh", "-c", "echo x >/workspace/tutorial/new")
		if code == 0 || !strings.Contains(out, "Read-only file system") {
			t.Fatalf("write to the read-only mount = %d %q, want a read-only error", code, out)
		}
		if _, err := os.Stat(filepath.Join(tutorial, "new")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the write reached the host: %v", err)
		}
	})
	t.Run("read-write mount, env, working dir", func(t *testing.T) {
		code, out := mustExec(t, r, c.Name, "sh", "-c", `echo "$SMILE_TEST $(pwd)" >out.txt`)
		if code != 0 {
			t.Fatalf("write to work = %d %q", code, out)
		}
		b, err := os.ReadFile(filepath.Join(work, "out.txt"))
		if err != nil || string(b) != "yes /workspace/work\n" {
			t.Fatalf("host work/out.txt = %q, %v; want \"yes /workspace/work\\n\"", b, err)
		}
	})
	t.Run("init", func(t *testing.T) {
		resp, err := r.cli.ContainerInspect(ctx, c.ID)
		if err != nil {
			t.Fatal(err)
		}
		if resp.HostConfig.Init == nil || !*resp.HostConfig.Init {
			t.Fatalf("HostConfig.Init = %v, want true", resp.HostConfig.Init)
		}
		// The container joins the isolated network by its ID.
		n, err := r.cli.NetworkInspect(ctx, string(resp.HostConfig.NetworkMode), network.InspectOptions{})
		if err != nil || n.Name != IsolatedNetwork {
			t.Fatalf("NetworkMode = %q, the network %q (%v); want %s", resp.HostConfig.NetworkMode, n.Name, err, IsolatedNetwork)
		}
	})
	t.Run("missing mount source", func(t *testing.T) {
		gone := filepath.Join(t.TempDir(), "gone")
		bad := testSpec(run, "badmount")
		bad.Mounts = []runtime.Mount{{Source: gone, Target: "/workspace/work"}}
		_, err := r.Start(ctx, bad)
		if err == nil || !strings.Contains(err.Error(), "create container "+bad.Name) || !strings.Contains(err.Error(), gone) {
			t.Fatalf("Start = %v, want a create error naming %s", err, gone)
		}
		if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("the missing source was created: %v", err)
		}
	})
	t.Run("replaces a leftover", func(t *testing.T) {
		again := start(t, r, spec)
		if again.ID == c.ID || again.State != runtime.StateRunning {
			t.Fatalf("second Start = %+v, want a new running container", again)
		}
		if _, err := r.Inspect(ctx, c.ID); !errors.Is(err, runtime.ErrNotFound) {
			t.Fatalf("Inspect(leftover) = %v, want ErrNotFound", err)
		}
	})
}

func TestNetworkNone(t *testing.T) {
	r := newRuntime(t)
	spec := testSpec(testRun(t, r), "offline")
	spec.Network = "none"
	c := start(t, r, spec)
	code, out := mustExec(t, r, c.Name, "sh", "-c", "cat /proc/net/dev | grep -c :")
	if code != 0 || strings.TrimSpace(out) != "1" {
		t.Fatalf("interfaces with network none = %d %q, want only lo", code, out)
	}
}

func TestExec(t *testing.T) {
	r := newRuntime(t)
	c := start(t, r, testSpec(testRun(t, r), "exec"))
	ctx := context.Background()

	code, out := mustExec(t, r, c.Name, "sh", "-c", "echo out; sleep 0.1; echo err >&2; exit 3")
	if code != 3 || out != "out\nerr\n" {
		t.Fatalf("Exec = %d %q, want 3 \"out\\nerr\\n\"", code, out)
	}

	began := time.Now()
	_, _, err := r.Exec(ctx, c.Name, []string{"sleep", "30"}, 300*time.Millisecond)
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timed out after 300ms") {
		t.Fatalf("Exec past its timeout = %v, want a timeout error", err)
	}
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("Exec with a 300ms timeout returned after %s", d)
	}

	if _, _, err := r.Exec(ctx, "smile-test-no-such-container", []string{"true"}, time.Second); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Exec in a missing container = %v, want ErrNotFound", err)
	}
}

func TestStopRemoveLogs(t *testing.T) {
	r := newRuntime(t)
	run := testRun(t, r)
	ctx := context.Background()
	c := start(t, r, testSpec(run, "stop"))
	// The init forwards SIGTERM only once it has started the command; a stop
	// in the first milliseconds would wait out the grace period.
	if code, out := mustExec(t, r, c.Name, "sh", "-c",
		"for i in $(seq 100); do grep -qx sleep /proc/[0-9]*/comm && exit 0; sleep 0.1; done; exit 1"); code != 0 {
		t.Fatalf("sleep never started: %q", out)
	}

	began := time.Now()
	if err := r.Stop(ctx, c.Name, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	// With an init, sleep as the command ends on SIGTERM instead of waiting
	// out the grace period.
	if d := time.Since(began); d > 5*time.Second {
		t.Fatalf("Stop took %s, want well under the 10 s grace", d)
	}
	if got, _ := r.Inspect(ctx, c.Name); got.State != runtime.StateExited || got.FinishedAt.IsZero() {
		t.Fatalf("after Stop: %+v, want exited", got)
	}
	if err := r.Remove(ctx, c.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Inspect(ctx, c.Name); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Inspect after Remove = %v, want ErrNotFound", err)
	}
	if err := r.Remove(ctx, c.Name); err != nil {
		t.Fatalf("Remove of a missing container = %v, want nil", err)
	}
	if err := r.Stop(ctx, c.Name, time.Second); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("Stop of a missing container = %v, want ErrNotFound", err)
	}

	spec := testSpec(run, "logs")
	spec.Cmd = []string{"sh", "-c", "echo to-stdout; echo to-stderr >&2; exit 4"}
	start(t, r, spec)
	if got := waitExited(t, r, spec.Name); got.ExitCode != 4 {
		t.Fatalf("exit code %d, want 4", got.ExitCode)
	}
	logs, err := r.Logs(ctx, spec.Name)
	if err != nil || !strings.Contains(logs, "to-stdout\n") || !strings.Contains(logs, "to-stderr\n") {
		t.Fatalf("Logs = %q, %v; want both streams", logs, err)
	}
}

func TestList(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	run, other := testRun(t, r), testRun(t, r)
	a := start(t, r, testSpec(run, "a"))
	b := start(t, r, testSpec(run, "b"))
	start(t, r, testSpec(other, "c"))
	if err := r.Stop(ctx, b.Name, 0); err != nil {
		t.Fatal(err)
	}

	cs, err := r.List(ctx, map[string]string{runtime.LabelOwner: testOwner, runtime.LabelRun: run})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]runtime.State{}
	for _, c := range cs {
		got[c.Name] = c.State
		// A running container comes from the list alone, an exited one is
		// inspected for its exit code and times.
		if c.ID == "" || c.Image != BaseImage || c.Labels[runtime.LabelRun] != run {
			t.Errorf("listed %+v, want its ID, image %s and labels", c, BaseImage)
		}
		if c.State == runtime.StateExited && (c.ExitCode == 0 || c.FinishedAt.IsZero()) {
			t.Errorf("listed exited %+v, want its exit code and finish time", c)
		}
	}
	want := map[string]runtime.State{a.Name: runtime.StateRunning, b.Name: runtime.StateExited}
	if len(got) != len(want) || got[a.Name] != want[a.Name] || got[b.Name] != want[b.Name] {
		t.Fatalf("List = %v, want %v (stopped ones too, nothing from another run)", got, want)
	}
	cs, err = r.List(ctx, map[string]string{runtime.LabelRun: run, runtime.LabelRole: "a"})
	if err != nil || len(cs) != 1 || cs[0].ID != a.ID {
		t.Fatalf("List(run, role=a) = %v, %v; want only %s", cs, err, a.Name)
	}
}

func TestWatch(t *testing.T) {
	r := newRuntime(t)
	run := testRun(t, r)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := r.Watch(ctx, map[string]string{runtime.LabelRun: run})
	if err != nil {
		t.Fatal(err)
	}
	start(t, r, testSpec(testRun(t, r), "unwatched"))
	spec := testSpec(run, "dies")
	spec.Cmd = []string{"sh", "-c", "exit 3"}
	start(t, r, spec)

	var seen []string
	timeout := time.After(10 * time.Second)
	for !slices.Contains(seen, "die") {
		select {
		case e := <-events:
			if e.Container != spec.Name {
				t.Fatalf("event for %s (%s), want only %s", e.Container, e.Action, spec.Name)
			}
			if e.Labels[runtime.LabelRun] != run {
				t.Fatalf("event labels %v, want the container's", e.Labels)
			}
			seen = append(seen, e.Action)
		case <-timeout:
			t.Fatalf("saw %v in 10 s, want a die event", seen)
		}
	}
	if !slices.Contains(seen, "start") {
		t.Fatalf("events %v, want start before die", seen)
	}
	cancel()
	for {
		select {
		case _, open := <-events:
			if !open {
				return
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Watch channel still open 5 s after ctx ended")
		}
	}
}

// TestReset runs the seed's reset through runtime.Reset: the cleanup script
// in the image ends the old attempt's processes gracefully (they get SIGTERM
// and time to write their files), and a fresh container takes the name.
func TestReset(t *testing.T) {
	r := newRuntime(t)
	ctx := context.Background()
	logs := t.TempDir()
	spec := testSpec(testRun(t, r), "reset")
	spec.Mounts = []runtime.Mount{{Source: logs, Target: "/workspace/logs"}}
	old := start(t, r, spec)
	// A server left behind by the attempt, saying goodbye on SIGTERM.
	code, out := mustExec(t, r, old.Name, "sh", "-c",
		`(trap 'echo graceful >/workspace/logs/goodbye; exit 0' TERM; while :; do sleep 0.1; done) >/dev/null 2>&1 &`)
	if code != 0 {
		t.Fatalf("start the background process: %d %q", code, out)
	}

	// The seed's 3 s target for a reset is measured by BenchmarkReset.
	next, err := runtime.Reset(ctx, r, old.Name, spec)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(logs, "goodbye")); err != nil || string(b) != "graceful\n" {
		t.Fatalf("goodbye file = %q, %v: the cleanup script did not end the process gracefully", b, err)
	}
	if next.ID == old.ID || next.State != runtime.StateRunning || next.Name != old.Name {
		t.Fatalf("Reset = %+v, want a new running %s", next, old.Name)
	}
	if _, err := r.Inspect(ctx, old.ID); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("old container: %v, want it removed", err)
	}
	if code, out := mustExec(t, r, next.Name, "true"); code != 0 {
		t.Fatalf("new container does not run commands: %d %q", code, out)
	}
}

// TestCleanupScript checks the image's script on its own: it exits 0 and the
// container stays up, so Reset takes the graceful path rather than a stop.
func TestCleanupScript(t *testing.T) {
	r := newRuntime(t)
	c := start(t, r, testSpec(testRun(t, r), "cleanup"))
	mustExec(t, r, c.Name, "sh", "-c", "sleep 300 >/dev/null 2>&1 &")
	code, out := mustExec(t, r, c.Name, runtime.CleanupScript)
	if code != 0 {
		t.Fatalf("%s = %d %q, want 0", runtime.CleanupScript, code, out)
	}
	_, out = mustExec(t, r, c.Name, "sh", "-c", "for s in /proc/[0-9]*/cmdline; do tr '\\0' ' ' <$s; echo; done")
	if strings.Contains(out, "sleep 300") {
		t.Fatalf("the background sleep survived the cleanup:\n%s", out)
	}
	if got, _ := r.Inspect(context.Background(), c.Name); got.State != runtime.StateRunning {
		t.Fatalf("container %s after the cleanup, want running", got.State)
	}
}
