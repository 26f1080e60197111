package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestApplyWaitFollowsAnEdit edits the tutorial while `apply --wait` (in its
// own process, or handed to the workspace's controller) follows the run: the controller starts a
// new generation for the new text, and the wait ends with that generation's
// result, never waiting for the inputs it was started with (which would
// never finish again).
func TestApplyWaitFollowsAnEdit(t *testing.T) {
	bin := smileBinaries(t)
	baseImage(t)
	t.Parallel()
	for _, handOff := range []bool{true, false} {
		name := "in-process"
		if handOff {
			name = "handed to the controller"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			followEdit(t, bin, handOff)
		})
	}
}

// followEdit runs apply --wait on the slow fixture, in its own process or
// handed to a background controller, and edits the page while it waits.
func followEdit(t *testing.T, bin string, handOff bool) {
	dir := copyFixture(t, "ctl-slow")
	stopControllers(t, dir)
	if handOff {
		if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "smile"), "apply", "-f", "run.yaml", "--wait")
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// While generation 1 sleeps in its second step, the page changes: the
	// folder it shows is now misspelt, a gap generation 2 must report.
	// An apply in its own process registers the run a moment after it
	// starts: until then there is nothing to get.
	for deadline := time.Now().Add(time.Minute); ; {
		if res := smile(t, dir, nil, 30*time.Second, "get", "ctl-slow"); res.code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run was never applied")
		}
		time.Sleep(100 * time.Millisecond)
	}
	waitObject(t, dir, "ctl-slow", time.Minute, "the first generation at work", func(o object) bool {
		return o.Metadata.Generation == 1 && !o.Status.Phase.Terminal() && o.Status.Iteration >= 1
	})
	page := filepath.Join(dir, "tutorial.md")
	text := readFile(t, page)
	edited := strings.Replace(string(text), "```\npatience\n```", "```\npatients\n```", 1)
	if edited == string(text) {
		t.Fatal("the fixture's shown output was not found to edit")
	}
	if err := os.WriteFile(page, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}

	err := cmd.Wait()
	if ctx.Err() != nil {
		t.Fatalf("apply --wait did not end after the edit\nstdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("apply --wait: %v, want exit 2 (generation 2's gap)\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	if handOff && !strings.Contains(stderr.String(), "its inputs changed (generation 2)") {
		t.Errorf("the wait did not say it follows the new inputs:\n%s", stderr.String())
	}
	final := getObject(t, dir, "ctl-slow")
	if final.Metadata.Generation != 2 || len(final.Status.Gaps) == 0 {
		t.Errorf("final: generation %d, gaps %+v; want generation 2 with the misspelt output's gap", final.Metadata.Generation, final.Status.Gaps)
	}
}
