package kube

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/smile-loop/smile/runtime"
)

// testImage is an image on the cluster's node with sh, env, cat and sleep.
func testImage() string {
	if img := os.Getenv("SMILE_KUBE_IMAGE"); img != "" {
		return img
	}
	return "smile-base:latest"
}

// clusterRuntime is a runtime on the test cluster, or the test is skipped
// (failed under CI=true: CI must run them).
func clusterRuntime(t *testing.T) *Runtime {
	t.Helper()
	path := os.Getenv(EnvKubeconfig)
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the Pod runtime's tests on a cluster (hack/k8s-up.sh)", EnvKubeconfig)
		}
		t.Skipf("no cluster: set %s to a kubeconfig (hack/k8s-up.sh prints one) to run the Pod runtime on it", EnvKubeconfig)
	}
	if testing.Short() {
		t.Skip("cluster test skipped under -short")
	}
	r, err := FromKubeconfig(path, Options{Namespace: os.Getenv("SMILE_KUBE_NAMESPACE")})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// uniqueName is a Pod name no other test run uses.
func uniqueName(prefix string) string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

// startSleeper starts a Pod that sleeps, removed when the test ends.
func startSleeper(t *testing.T, r *Runtime, spec runtime.ContainerSpec) runtime.Container {
	t.Helper()
	if spec.Name == "" {
		spec.Name = uniqueName("smile-test")
	}
	if spec.Image == "" {
		spec.Image = testImage()
	}
	if spec.Cmd == nil {
		spec.Cmd = []string{"sleep", "infinity"}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := r.Start(ctx, spec)
	t.Cleanup(func() { _ = r.Remove(context.Background(), spec.Name) })
	if err != nil {
		t.Fatalf("start %s: %v", spec.Name, err)
	}
	return c
}

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
