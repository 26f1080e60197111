package docker

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/runtime"
)

func TestExecIO(t *testing.T) {
	r := newRuntime(t)
	c := start(t, r, testSpec(testRun(t, r), "execio"))
	ctx := context.Background()
	tests := []struct {
		name        string
		req         runtime.ExecRequest
		code        int
		out, errOut string
	}{
		{"stdin reaches the command", runtime.ExecRequest{Cmd: []string{"cat"}, Stdin: []byte("from the brain\n")}, 0, "from the brain\n", ""},
		{"stdout and stderr apart", runtime.ExecRequest{Cmd: []string{"sh", "-c", "echo out; echo err >&2; exit 4"}}, 4, "out\n", "err\n"},
		{"env and working dir", runtime.ExecRequest{Cmd: []string{"sh", "-c", "echo $HANDS_X; pwd"}, Env: []string{"HANDS_X=7"}, WorkingDir: "/tmp"}, 0, "7\n/tmp\n", ""},
		{"no stdin", runtime.ExecRequest{Cmd: []string{"sh", "-c", "cat; echo done"}}, 0, "done\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := r.ExecIO(ctx, c.Name, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if res.ExitCode != tt.code || string(res.Stdout) != tt.out || string(res.Stderr) != tt.errOut {
				t.Fatalf("ExecIO = %d %q %q, want %d %q %q", res.ExitCode, res.Stdout, res.Stderr, tt.code, tt.out, tt.errOut)
			}
		})
	}
	if _, err := r.ExecIO(ctx, "smile-test-no-such-container", runtime.ExecRequest{Cmd: []string{"true"}}); !errors.Is(err, runtime.ErrNotFound) {
		t.Fatalf("ExecIO in a missing container = %v, want ErrNotFound", err)
	}
}

// TestEmptyDirs checks a state folder inside a mounted project is hidden
// and cannot be written over.
func TestEmptyDirs(t *testing.T) {
	r := newRuntime(t)
	project := t.TempDir()
	if err := os.MkdirAll(filepath.Join(project, ".smile"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".smile", "state.json"), []byte(`{"token":"secret"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := testSpec(testRun(t, r), "emptydirs")
	spec.Mounts = []runtime.Mount{{Source: project, Target: "/workspace/tutorial", ReadOnly: true}}
	spec.EmptyDirs = []string{"/workspace/tutorial/.smile"}
	c := start(t, r, spec)
	code, out := mustExec(t, r, c.Name, "sh", "-c", "ls -A /workspace/tutorial/.smile; cat /workspace/tutorial/.smile/state.json; touch /workspace/tutorial/.smile/x && echo WROTE")
	if code == 0 || strings.Contains(out, "secret") || strings.Contains(out, "WROTE") {
		t.Fatalf("the state folder is visible or writable: %d %q", code, out)
	}
}
