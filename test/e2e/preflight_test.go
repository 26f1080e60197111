package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestApplyChecksTheProviderFirst: with no llmProvider anywhere the default
// (claude) cannot run in smile-base, which has no CLI. apply says so before
// it starts anything, exits 1 (SMILE could not run, not 2: no gap was
// found) and says what the provider needs and how to work offline; no
// container was started and no run was recorded.
func TestApplyChecksTheProviderFirst(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	dir := t.TempDir()
	t.Cleanup(func() { removeRunContainers(dir) })
	stopControllers(t, dir)
	writeFile(t, filepath.Join(dir, "run.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: pf-default}\nspec:\n  tutorial: tutorial.md\n"))
	writeFile(t, filepath.Join(dir, "tutorial.md"), []byte("# Hi\n\n```bash\necho hi\n```\n"))
	for _, args := range [][]string{{"apply", "-f", "run.yaml", "--wait"}, {"apply", "-f", "run.yaml"}} {
		res := smile(t, dir, []string{"ANTHROPIC_API_KEY="}, 2*time.Minute, args...)
		if res.code != 1 {
			t.Fatalf("%v: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", args, res.code, res.stdout, res.stderr)
		}
		for _, want := range []string{
			"error: llmProvider claude (the default: no llmProvider in the manifest or smile.json) cannot run here",
			"ANTHROPIC_API_KEY is not set",
			"LLM CLI not available: claude is not installed in smile-base:latest",
			"set llmProvider: literal",
			"`smile doctor`",
		} {
			if !strings.Contains(res.stderr, want) {
				t.Errorf("%v: stderr lacks %q:\n%s", args, want, res.stderr)
			}
		}
		if res.stdout != "" {
			t.Errorf("%v: stdout %q, want nothing (no run was applied)", args, res.stdout)
		}
	}
	if cs := dirContainers(t, dir); len(cs) > 0 {
		t.Errorf("apply started containers: %v", containerNames(cs))
	}
	if _, err := os.Stat(filepath.Join(dir, ".smile", "runs", "pf-default")); err == nil {
		t.Error("apply recorded the run it refused")
	}
	if _, err := os.Stat(filepath.Join(dir, ".smile", "controller.json")); err == nil {
		t.Error("apply started a controller for the run it refused")
	}
}
