package kube

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/smile-loop/smile/runtime"
)

// A Pod runs with its labels, limits, confinement and mounts (the tutorial
// read-only from a ConfigMap with its hidden folder left out, the work
// folder writable), is listed by its labels, logs, and goes with its
// ConfigMaps when removed.
func TestPodLifecycle(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	tut := t.TempDir()
	for rel, content := range map[string]string{"README.md": "# page\n", "sub/step.sh": "#!/bin/sh\necho step-ran\n", ".smile/token": "secret"} {
		p := filepath.Join(tut, rel)
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	name := uniqueName("smile-life")
	labels := map[string]string{runtime.LabelOwner: runtime.OwnerValue, runtime.LabelRun: name}
	c := startSleeper(t, r, runtime.ContainerSpec{
		Name:   name,
		Cmd:    []string{"sh", "-c", "echo hello-log; echo to-stderr >&2; exec sleep infinity"},
		Env:    []string{"GREETING=hi there"},
		Labels: labels,
		Mounts: []runtime.Mount{
			{Source: tut, Target: "/workspace/tutorial", ReadOnly: true},
			{Source: t.TempDir(), Target: "/workspace/work"},
		},
		EmptyDirs:   []string{"/workspace/tutorial/.smile"},
		WorkingDir:  "/workspace/work",
		Resources:   runtime.Resources{MemoryBytes: 256 << 20, NanoCPUs: 500_000_000},
		Confinement: runtime.Confinement{NoNewPrivileges: true, CapDrop: []string{"NET_RAW"}},
	})
	if c.State != runtime.StateRunning || c.Name != name || c.Labels[runtime.LabelRun] != name {
		t.Fatalf("started %+v", c)
	}
	checks := map[string]string{
		"cat /workspace/tutorial/README.md":                                                            "# page",
		"/workspace/tutorial/sub/step.sh":                                                              "step-ran",
		"test -e /workspace/tutorial/.smile/token || echo hidden":                                      "hidden",
		"touch /workspace/tutorial/x 2>/dev/null || echo readonly":                                     "readonly",
		"echo w > f && cat /workspace/work/f && pwd":                                                   "w\n/workspace/work",
		`echo "$GREETING"`:                                                                             "hi there",
		"cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max": "268435456",
		"grep NoNewPrivs /proc/self/status":                                                            "NoNewPrivs:\t1",
		"test -e /var/run/secrets/kubernetes.io || echo no-token":                                      "no-token",
	}
	for cmd, want := range checks {
		code, out, err := r.Exec(ctx, name, []string{"sh", "-c", cmd}, 0)
		if err != nil || code != 0 || strings.TrimSpace(out) != want {
			t.Errorf("%s: code %d, out %q, err %v; want %q", cmd, code, out, err, want)
		}
	}

	listed, err := r.List(ctx, labels)
	if err != nil || len(listed) != 1 || listed[0].Name != name || listed[0].State != runtime.StateRunning {
		t.Errorf("List(%v) = %+v, %v", labels, listed, err)
	}
	logs, err := r.Logs(ctx, name)
	if err != nil || !strings.Contains(logs, "hello-log") || !strings.Contains(logs, "to-stderr") {
		t.Errorf("Logs = %q, %v", logs, err)
	}

	if err := r.Remove(ctx, name); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Inspect(ctx, name); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("Inspect after Remove: %v, want ErrNotFound", err)
	}
	if listed, err := r.List(ctx, labels); err != nil || len(listed) != 0 {
		t.Errorf("List after Remove = %+v, %v", listed, err)
	}
	cms, err := r.cs.CoreV1().ConfigMaps(r.Namespace()).List(ctx, metav1.ListOptions{LabelSelector: labelPod + "=" + podLabel(name)})
	if err != nil || len(cms.Items) != 0 {
		t.Errorf("ConfigMaps left after Remove: %d, %v", len(cms.Items), err)
	}
}

// An image that is on no node is ErrImageNotFound, from EnsureImage and
// from Start, whose Pod is not left behind.
func TestMissingImage(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	if err := r.EnsureImage(ctx, testImage()); err != nil {
		t.Errorf("EnsureImage(%s): %v", testImage(), err)
	}
	missing := "smile-no-such-image:" + uniqueName("v")
	if err := r.EnsureImage(ctx, missing); !errors.Is(err, runtime.ErrImageNotFound) {
		t.Errorf("EnsureImage(%s) = %v, want ErrImageNotFound", missing, err)
	}
	name := uniqueName("smile-noimage")
	_, err := r.Start(ctx, runtime.ContainerSpec{Name: name, Image: missing, Cmd: []string{"sleep", "1"}})
	t.Cleanup(func() { _ = r.Remove(ctx, name) })
	if !errors.Is(err, runtime.ErrImageNotFound) {
		t.Errorf("Start with a missing image: %v, want ErrImageNotFound", err)
	}
}

// A Pod that is not there is ErrNotFound to Inspect and the execs, and no
// error to Remove and Stop.
func TestMissingPod(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	name := uniqueName("smile-absent")
	if _, err := r.Inspect(ctx, name); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("Inspect: %v", err)
	}
	if _, _, err := r.Exec(ctx, name, []string{"true"}, 0); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("Exec: %v", err)
	}
	if _, err := r.ExecIO(ctx, name, runtime.ExecRequest{Cmd: []string{"true"}}); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("ExecIO: %v", err)
	}
	if _, err := r.ExecStream(ctx, name, runtime.ExecRequest{Cmd: []string{"cat"}}); !errors.Is(err, runtime.ErrNotFound) {
		t.Errorf("ExecStream: %v", err)
	}
	if err := r.Remove(ctx, name); err != nil {
		t.Errorf("Remove: %v", err)
	}
	if err := r.Stop(ctx, name, 0); err != nil {
		t.Errorf("Stop: %v", err)
	}
}

// Watch reports a Pod's start and its removal.
func TestWatchSeesStartAndRemoval(t *testing.T) {
	r := clusterRuntime(t)
	ctx := testContext(t)
	name := uniqueName("smile-watch")
	sel := map[string]string{runtime.LabelRun: name}
	events, err := r.Watch(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	startSleeper(t, r, runtime.ContainerSpec{Name: name, Labels: sel})
	if err := r.Remove(ctx, name); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for ev := range events {
		if ev.Container != name {
			t.Errorf("event of %s", ev.Container)
		}
		seen = append(seen, ev.Action)
		if ev.Action == "destroy" {
			break
		}
	}
	if !strings.Contains(strings.Join(seen, " "), "start") || seen[len(seen)-1] != "destroy" {
		t.Errorf("events %v, want a start and a destroy", seen)
	}
}
