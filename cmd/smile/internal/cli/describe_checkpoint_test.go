package cli

import (
	"bytes"
	"strings"
	"testing"
	"time"

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
	objs, err := loadObjects(dir, []string{"alpha"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	describe(&buf, objs[0], t0.Add(time.Minute))
	out := strings.Join(strings.Fields(buf.String()), " ")
	for _, want := range []string{
		"Checkpoints: 2 kept, 3.5 MB of 2147 MB (the least recently used go first)",
		"Fixes: Verified: with the 1 suggested fix the tutorial completes from a clean start.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe lacks %q:\n%s", want, buf.String())
		}
	}
}
