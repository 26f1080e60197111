package docker

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// testOwner marks the containers these tests create. It is not
// runtime.OwnerValue, so a controller sweeping orphans elsewhere on the
// machine leaves them alone.
const testOwner = "smile-docker-test"

var buildOnce struct {
	sync.Once
	err error
}

// newRuntime returns a Runtime on the real engine with BaseImage present,
// building it with hack/build-image.sh when missing (about 35 s); under -short
// it skips instead of building.
func newRuntime(tb testing.TB) *Runtime {
	tb.Helper()
	r, err := New()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = r.Close() })
	ctx := context.Background()
	err = r.EnsureImage(ctx, BaseImage)
	switch {
	case err == nil:
		return r
	case !errors.Is(err, runtime.ErrImageNotFound):
		tb.Fatal(err)
	case testing.Short():
		tb.Skipf("%s is missing and -short is set: run hack/build-image.sh", BaseImage)
	}
	buildOnce.Do(func() {
		script, err := filepath.Abs(filepath.Join("..", "..", "hack", "build-image.sh"))
		if err != nil {
			buildOnce.err = err
			return
		}
		cmd := exec.Command(script)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		buildOnce.err = cmd.Run()
	})
	if buildOnce.err != nil {
		tb.Fatalf("build %s with hack/build-image.sh: %v", BaseImage, buildOnce.err)
	}
	if err := r.EnsureImage(ctx, BaseImage); err != nil {
		tb.Fatal(err)
	}
	return r
}

// testRun returns a label value unique to this test and removes every
// container carrying it when the test ends.
func testRun(tb testing.TB, r *Runtime) string {
	tb.Helper()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	run := "t" + hex.EncodeToString(b)
	tb.Cleanup(func() {
		ctx := context.Background()
		cs, err := r.List(ctx, map[string]string{runtime.LabelOwner: testOwner, runtime.LabelRun: run})
		if err != nil {
			tb.Errorf("list containers to clean up: %v", err)
			return
		}
		for _, c := range cs {
			if err := r.Remove(ctx, c.ID); err != nil {
				tb.Errorf("clean up container %s: %v", c.Name, err)
			}
		}
	})
	return run
}

// testSpec is a long-running container labelled for cleanup by testRun.
func testSpec(run, name string) runtime.ContainerSpec {
	return runtime.ContainerSpec{
		Name:   "smile-test-" + run + "-" + name,
		Image:  BaseImage,
		Cmd:    []string{"sleep", "infinity"},
		Labels: map[string]string{runtime.LabelOwner: testOwner, runtime.LabelRun: run, runtime.LabelRole: name},
	}
}

func start(tb testing.TB, r *Runtime, spec runtime.ContainerSpec) runtime.Container {
	tb.Helper()
	c, err := r.Start(context.Background(), spec)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// waitExited polls until the container has exited; the reconciler does the
// same with its own timeouts.
func waitExited(tb testing.TB, r *Runtime, name string) runtime.Container {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := r.Inspect(context.Background(), name)
		if err != nil {
			tb.Fatal(err)
		}
		if c.State == runtime.StateExited {
			return c
		}
		if time.Now().After(deadline) {
			tb.Fatalf("container %s still %s after 10 s", name, c.State)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func mustExec(tb testing.TB, r *Runtime, name string, cmd ...string) (int, string) {
	tb.Helper()
	code, out, err := r.Exec(context.Background(), name, cmd, 10*time.Second)
	if err != nil {
		tb.Fatal(err)
	}
	return code, out
}
