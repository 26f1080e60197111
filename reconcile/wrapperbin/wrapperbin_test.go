package wrapperbin

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

// dynamicBinary is a dynamically linked executable of this machine, or
// skips the test.
func dynamicBinary(t *testing.T) (string, string) {
	t.Helper()
	for _, p := range []string{"/bin/sh", "/bin/ls", "/usr/bin/env"} {
		if interp, err := runtime.Interpreter(p); err == nil && interp != "" {
			return p, interp
		}
	}
	t.Skip("no dynamically linked binary here")
	return "", ""
}

func TestWrapperInterpreter(t *testing.T) {
	script := filepath.Join(t.TempDir(), "smile-wrapper")
	if err := os.WriteFile(script, []byte("#!/bin/true\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if interp, err := runtime.Interpreter(script); err != nil || interp != "" {
		t.Errorf("a script: %q, %v; want nothing to tell", interp, err)
	}
	bin, interp := dynamicBinary(t)
	if !strings.HasPrefix(interp, "/") || !strings.Contains(interp, "ld") {
		t.Errorf("%s asks for loader %q", bin, interp)
	}
}

// TestCheckWrapperCatchesADynamicWrapper: a dynamically linked wrapper that
// cannot start in the image is refused with a message naming the loader and
// how to build a static one; one that starts passes, and leaves no
// container behind.
func TestCheckWrapperCatchesADynamicWrapper(t *testing.T) {
	bin, interp := dynamicBinary(t)
	rt := fake.New("alpine:3")
	ctx := context.Background()
	if err := Check(ctx, rt, bin, "alpine:3"); err != nil {
		t.Errorf("a wrapper that starts: %v", err)
	}
	if cs, _ := rt.List(ctx, nil); len(cs) != 0 {
		t.Errorf("the check left containers: %v", cs)
	}
	rt.FailNextStart(errors.New("exec /opt/smile/bin/smile-wrapper: no such file or directory"))
	err := Check(ctx, rt, bin, "alpine:3")
	for _, want := range []string{"cannot start in alpine:3", "dynamically linked", interp, "CGO_ENABLED=0"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("a wrapper that cannot start: %v, want %q", err, want)
		}
	}
	// Started under an init that dies with it: the exec says so.
	rt.FailNextExec(errors.New("container is not running"))
	if err := Check(ctx, rt, bin, "alpine:3"); err == nil || !strings.Contains(err.Error(), "container is not running") {
		t.Errorf("a wrapper whose container died: %v", err)
	}
	if cs, _ := rt.List(ctx, nil); len(cs) != 0 {
		t.Errorf("the check left containers: %v", cs)
	}
	if err := Check(ctx, rt, bin, "missing:1"); err != nil {
		t.Errorf("an image that is not there is the planner's to report: %v", err)
	}
}
