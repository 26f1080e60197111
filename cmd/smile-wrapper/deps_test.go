package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The wrapper runs inside every container and only speaks the protocol: it
// must not grow the controller's dependencies back (issue 11). go list sees
// what the linker would.
func TestWrapperLinksNoControllerDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list -deps printed %d packages: is the listing broken?", len(deps))
	}
	forbidden := []struct{ prefix, what string }{
		{"github.com/docker/", "the Docker client"},
		{"github.com/moby/", "the Docker client"},
		{"sigs.k8s.io/yaml", "a YAML library"},
		{"go.yaml.in/", "a YAML library"},
		{"gopkg.in/yaml", "a YAML library"},
		{"github.com/chromedp/", "a browser driver"},
		{"k8s.io/", "the Kubernetes client"},
		{"sigs.k8s.io/controller-runtime", "the Kubernetes client"},
		{"github.com/smile-loop/smile/runtime/kube", "the Pod runtime"},
		{"github.com/smile-loop/smile/status/report", "the report renderers"},
		{"github.com/smile-loop/smile/spec/runfile", "the manifest reader"},
	}
	for _, dep := range deps {
		for _, f := range forbidden {
			if strings.HasPrefix(dep, f.prefix) {
				t.Errorf("smile-wrapper links %s (%s)", dep, f.what)
			}
		}
	}
}
