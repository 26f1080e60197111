package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
)

// describe shows the run's kept checkpoints against the cache's budget and
// the verdict of the clean replay.
func TestDescribeCheckpoints(t *testing.T) {
	dir := t.TempDir()
	fabricate(t, dir, "alpha", func(run *status.Run) {
		completed(run)
		run.Status.Checkpoints = []status.Checkpoint{{Ref: "a", SizeBytes: 1_500_000}}
		run.Status.CheckpointCache = []status.Checkpoint{{Ref: "b", SizeBytes: 2_000_000}}
		run.Status.Verification = &status.Verification{Iteration: 2, Fixes: 1, Done: true, Verified: true}
	})
	text := describeText(t, dir, "alpha", t0.Add(time.Minute))
	out := strings.Join(strings.Fields(text), " ")
	for _, want := range []string{
		"Checkpoints: 2 kept, 3.5 MB (checkpointDisk caps the workspace's: the least recently used go first; `smile prune` removes those no run needs)",
		"Fixes: Verified: with the 1 suggested fix the tutorial completes from a clean start.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, text)
		}
	}
}

// resume: checkpoint with a provider that keeps no checkpoints: describe
// says, on the setting, that it is ignored and why; apply warns with the
// run's name.
func TestDescribeSaysResumeIsIgnored(t *testing.T) {
	dir := t.TempDir()
	rec := fabricate(t, dir, "alpha", completed)
	writeFile(t, dir, "tutorial.md", "# T\n")
	writeFile(t, dir, "alpha.yaml", strings.Replace(manifestYAML("alpha"), "llmProvider: literal", "llmProvider: codex\n  resume: checkpoint", 1))
	text := describeText(t, dir, "alpha", t0.Add(time.Minute))
	out := strings.Join(strings.Fields(text), " ")
	if want := `resume "checkpoint" (ignored: llmProvider codex keeps no checkpoints: every iteration starts from the top) manifest`; !strings.Contains(out, want) {
		t.Errorf("describe lacks %q:\n%s", want, text)
	}
	m, err := runfile.Load(rec.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	d, err := spec.Resolve(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := settingWarnings(d); len(got) != 1 || !strings.HasPrefix(got[0], "smilerun alpha: resume: checkpoint is ignored with llmProvider codex") {
		t.Errorf("apply's warnings %q", got)
	}
}
