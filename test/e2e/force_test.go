package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// TestApplyForceInProcess: with no controller running, apply --wait of an
// unchanged, finished run says so and starts nothing; apply --force --wait
// runs it again as the next generation, in this process, and exits by its
// result.
func TestApplyForceInProcess(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	dir := copyFixture(t, "clean")
	stopControllers(t, dir)

	res := smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 0 {
		t.Fatalf("first apply --wait: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	first := getObject(t, dir, "clean")

	res = smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
	again := getObject(t, dir, "clean")
	if res.code != 0 || again.Metadata.Generation != first.Metadata.Generation || len(again.Status.Timeline) != len(first.Status.Timeline) {
		t.Errorf("unchanged apply --wait: exit %d, generation %d -> %d, timeline %d -> %d events; want 0 and nothing run\nstderr:\n%s",
			res.code, first.Metadata.Generation, again.Metadata.Generation, len(first.Status.Timeline), len(again.Status.Timeline), res.stderr)
	}

	res = smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--force", "--wait")
	forced := getObject(t, dir, "clean")
	if res.code != 0 || forced.Metadata.Generation != first.Metadata.Generation+1 ||
		forced.Status.ObservedGeneration != forced.Metadata.Generation || forced.Status.Phase != status.PhaseCompleted {
		t.Errorf("apply --force --wait: exit %d, generation %d -> %d (observed %d), %s; want 0 and the next generation completed\nstdout:\n%s\nstderr:\n%s",
			res.code, first.Metadata.Generation, forced.Metadata.Generation, forced.Status.ObservedGeneration, describeStatus(forced.Status), res.stdout, res.stderr)
	}
	if !strings.Contains(res.stdout+res.stderr, "configured") {
		t.Errorf("apply --force --wait did not say the run was configured again:\nstdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
	}
}
