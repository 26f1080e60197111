package kube

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/smile-loop/smile/runtime"
)

func TestNormalizeImage(t *testing.T) {
	for in, want := range map[string]string{
		"smile-base":                          "docker.io/library/smile-base:latest",
		"smile-base:latest":                   "docker.io/library/smile-base:latest",
		"team/img:1":                          "docker.io/team/img:1",
		"localhost:5000/img":                  "localhost:5000/img:latest",
		"localhost/img:v1":                    "localhost/img:v1",
		"docker.io/library/smile-base:latest": "docker.io/library/smile-base:latest",
		"img@sha256:abc":                      "img@sha256:abc",
	} {
		if got := normalizeImage(in); got != want {
			t.Errorf("normalizeImage(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPodName(t *testing.T) {
	for in, want := range map[string]string{
		"smile-quickstart-student-1": "smile-quickstart-student-1",
		"Smile_Run.1":                "smile-run.1",
		"-x-":                        "x",
		strings.Repeat("a", 300):     strings.Repeat("a", 253),
	} {
		if got := podName(in); got != want {
			t.Errorf("podName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExecCommandCarriesEnvAndDir(t *testing.T) {
	tests := []struct {
		req  runtime.ExecRequest
		want []string
	}{
		{runtime.ExecRequest{Cmd: []string{"ls"}}, []string{"ls"}},
		{runtime.ExecRequest{Cmd: []string{"ls"}, Env: []string{"A=1"}}, []string{"env", "--", "A=1", "ls"}},
		{runtime.ExecRequest{Cmd: []string{"ls", "-l"}, WorkingDir: "/w d"},
			[]string{"/bin/sh", "-c", `cd -- "$0" && exec "$@"`, "/w d", "ls", "-l"}},
		{runtime.ExecRequest{Cmd: []string{"ls"}, Env: []string{"A=1"}, WorkingDir: "/w"},
			[]string{"/bin/sh", "-c", `cd -- "$0" && exec "$@"`, "/w", "env", "--", "A=1", "ls"}},
	}
	for _, tt := range tests {
		if got := execCommand(tt.req); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("execCommand(%+v) = %q, want %q", tt.req, got, tt.want)
		}
	}
}

// A read-only folder becomes a ConfigMap of its regular files at their
// paths, executables keep their bit, hidden folders and links stay out; a
// writable one an emptyDir.
func TestVolumesForMounts(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, content string, mode os.FileMode) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("tut/README.md", "# hello\n", 0o644)
	write("tut/sub/run.sh", "#!/bin/sh\necho hi\n", 0o755)
	write("tut/.smile/token", "secret", 0o600)
	write("tut/bin.dat", "\xff\xfe", 0o644)
	write("wrapper", "binary", 0o755)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "tut", "link")); err != nil {
		t.Fatal(err)
	}
	spec := runtime.ContainerSpec{
		Mounts: []runtime.Mount{
			{Source: filepath.Join(dir, "tut"), Target: "/workspace/tutorial", ReadOnly: true},
			{Source: filepath.Join(dir, "work"), Target: "/workspace/work"},
			{Source: filepath.Join(dir, "wrapper"), Target: "/opt/smile/smile-wrapper", ReadOnly: true},
		},
		EmptyDirs: []string{"/workspace/tutorial/.smile", "/elsewhere"},
	}
	v, err := volumesFor("p", spec)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.configMaps) != 2 || len(v.volumes) != 4 || len(v.mounts) != 4 {
		t.Fatalf("%d configmaps, %d volumes, %d mounts: %+v", len(v.configMaps), len(v.volumes), len(v.mounts), v)
	}
	tut := v.configMaps[0]
	paths := map[string]int32{}
	for _, it := range v.volumes[0].ConfigMap.Items {
		paths[it.Path] = *it.Mode
	}
	if want := map[string]int32{"README.md": 0o644, "sub/run.sh": 0o755, "bin.dat": 0o644}; !reflect.DeepEqual(paths, want) {
		t.Errorf("tutorial items %v, want %v", paths, want)
	}
	if len(tut.Data) != 2 || len(tut.BinaryData) != 1 || tut.Labels[labelPod] != "p" {
		t.Errorf("tutorial configmap %+v", tut)
	}
	if v.volumes[1].EmptyDir == nil || v.mounts[1].ReadOnly {
		t.Errorf("work volume %+v, mount %+v", v.volumes[1], v.mounts[1])
	}
	if m := v.mounts[2]; m.SubPath != "wrapper" || !m.ReadOnly || m.MountPath != "/opt/smile/smile-wrapper" {
		t.Errorf("file mount %+v", m)
	}
	if m := v.mounts[3]; m.MountPath != "/elsewhere" || !m.ReadOnly || v.volumes[3].EmptyDir.Medium != corev1.StorageMediumMemory {
		t.Errorf("hidden folder mount %+v", m)
	}
}

func TestVolumesForRefusesWhatAConfigMapCannotHold(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "big"), make([]byte, maxConfigMapBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := volumesFor("p", runtime.ContainerSpec{Mounts: []runtime.Mount{{Source: dir, Target: "/t", ReadOnly: true}}})
	if err == nil || !strings.Contains(err.Error(), "put it in the image") {
		t.Fatalf("err = %v", err)
	}
}

func TestPodForSpec(t *testing.T) {
	r := &Runtime{opts: Options{Namespace: "ns", GatewayIP: "10.244.0.1", HostName: "smile-host"}}
	spec := runtime.ContainerSpec{
		Name: "Run_1", Image: "smile-base", Cmd: []string{"sleep", "1"}, Env: []string{"A=b=c"},
		Labels: map[string]string{runtime.LabelRun: "r"}, WorkingDir: "/w", HostGateway: true,
		Resources:   runtime.Resources{MemoryBytes: 512 << 20, NanoCPUs: 1_500_000_000, PidsLimit: 100},
		Confinement: runtime.Confinement{NoNewPrivileges: true, CapDrop: []string{"NET_RAW"}},
	}
	pod := r.podFor(spec, volumes{})
	c := pod.Spec.Containers[0]
	switch {
	case pod.Name != "run-1" || pod.Annotations[AnnotationName] != "Run_1" || pod.Namespace != "ns":
		t.Errorf("meta %+v", pod.ObjectMeta)
	case c.ImagePullPolicy != corev1.PullNever || c.Image != "smile-base" || c.WorkingDir != "/w":
		t.Errorf("container %+v", c)
	case len(c.Env) != 1 || c.Env[0].Name != "A" || c.Env[0].Value != "b=c":
		t.Errorf("env %+v", c.Env)
	case c.Resources.Limits.Memory().Value() != 512<<20 || c.Resources.Limits.Cpu().MilliValue() != 1500:
		t.Errorf("limits %+v", c.Resources.Limits)
	case *c.SecurityContext.AllowPrivilegeEscalation || c.SecurityContext.Capabilities.Drop[0] != "NET_RAW":
		t.Errorf("security %+v", c.SecurityContext)
	case *pod.Spec.AutomountServiceAccountToken || pod.Spec.RestartPolicy != corev1.RestartPolicyNever:
		t.Errorf("pod spec %+v", pod.Spec)
	case len(pod.Spec.HostAliases) != 1 || pod.Spec.HostAliases[0].Hostnames[0] != "smile-host":
		t.Errorf("host aliases %+v", pod.Spec.HostAliases)
	}
}

func TestEventOfSaysStateChangesOnce(t *testing.T) {
	pod := &corev1.Pod{}
	pod.Name = "p"
	pod.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: containerName, State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}}
	last := map[string]runtime.State{}
	if e, ok := eventOf(watch.Modified, pod, last); !ok || e.Action != "start" {
		t.Errorf("first running: %+v %v", e, ok)
	}
	if _, ok := eventOf(watch.Modified, pod, last); ok {
		t.Error("the same state twice gave two events")
	}
	pod.Status.ContainerStatuses[0].State = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 3}}
	if e, ok := eventOf(watch.Modified, pod, last); !ok || e.Action != "die" {
		t.Errorf("terminated: %+v %v", e, ok)
	}
	if e, ok := eventOf(watch.Deleted, pod, last); !ok || e.Action != "destroy" {
		t.Errorf("deleted: %+v %v", e, ok)
	}
}

// A mount at a path the images have already (smile-wrapper) is left out.
func TestWithoutInImage(t *testing.T) {
	r := &Runtime{opts: Options{InImage: []string{"/opt/smile/bin/smile-wrapper"}}}
	got := r.withoutInImage(runtime.ContainerSpec{Mounts: []runtime.Mount{
		{Source: "/t", Target: "/workspace/tutorial", ReadOnly: true},
		{Source: "/w", Target: "/opt/smile/bin/smile-wrapper", ReadOnly: true},
	}})
	if len(got.Mounts) != 1 || got.Mounts[0].Target != "/workspace/tutorial" {
		t.Errorf("mounts %+v", got.Mounts)
	}
}
