package operator

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/testr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/docker"
	"github.com/smile-loop/smile/runtime/kube"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// quickstart is examples/quickstart resolved, on the given image.
func quickstart(t *testing.T, image string) *spec.Desired {
	t.Helper()
	path, err := filepath.Abs("../examples/quickstart/run.yaml")
	if err != nil {
		t.Fatal(err)
	}
	run, err := runfile.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := spec.Resolve(run, filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	d.Config.ContainerImage = image
	return d
}

// wrapper builds the static smile-wrapper for the Docker container's mount.
func wrapper(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "smile-wrapper")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/smile-wrapper")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build smile-wrapper: %v\n%s", err, out)
	}
	return bin
}

// outcome is what must agree between runtimes: where the Student stopped
// and what it found, line by line.
type outcome struct {
	Status   status.StudentStatus
	Line     int
	Findings []string
}

func outcomeOf(res *wire.StudentResultRequest) outcome {
	o := outcome{Status: res.StudentOutput.Status, Line: res.StudentOutput.Line}
	for _, f := range res.StudentOutput.Findings {
		o.Findings = append(o.Findings, string(f.Category)+"@"+strconv.Itoa(f.Line))
	}
	return o
}

// The literal Student of examples/quickstart, played from this process
// against a Pod through runtime/kube, stops where it stops against a Docker
// container (line 35: the page forgets a chmod +x) and finds the same.
func TestStudentOnAPodAsOnDocker(t *testing.T) {
	kubeconfig := os.Getenv(kube.EnvKubeconfig)
	if kubeconfig == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must play the Student on a Pod", kube.EnvKubeconfig)
		}
		t.Skipf("no cluster: set %s (hack/k8s-up.sh prints one) to play the Student on a Pod", kube.EnvKubeconfig)
	}
	if testing.Short() {
		t.Skip("containers under -short")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ctx = logr.NewContext(ctx, testr.New(t)) // a hands stream that breaks says so
	kr, err := kube.FromKubeconfig(kubeconfig, kube.Options{InImage: []string{wire.ContainerWrapperPath}})
	if err != nil {
		t.Fatal(err)
	}
	dr, err := docker.New()
	if err != nil {
		t.Fatal(err)
	}
	bin := wrapper(t)
	play := func(rt runtime.Runtime, image, name string) outcome {
		start := time.Now()
		res, err := PlayStudent(ctx, Student{Runtime: rt, Desired: quickstart(t, image), Name: name,
			Work: t.TempDir(), WrapperPath: bin, Instance: "test", StateKey: "test"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("%s: %s at line %d in %s", name, res.StudentOutput.Status, res.StudentOutput.Line, time.Since(start).Round(time.Millisecond))
		return outcomeOf(res)
	}
	onPod := play(kr, "smile-k8s-base:latest", "smile-op-test-pod")
	onDocker := play(dr, "smile-base:latest", "smile-op-test-docker")
	if !reflect.DeepEqual(onPod, onDocker) {
		t.Errorf("on a Pod %+v, on Docker %+v", onPod, onDocker)
	}
	if onPod.Line != 35 {
		t.Errorf("the Student stopped at line %d, want 35 (the chmod +x the page forgets)", onPod.Line)
	}
}
