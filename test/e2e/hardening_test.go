package e2e

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// TestConcurrentApplyWait starts two `smile apply --wait` of one folder at
// the same instant, as two real processes: one runs the loop, the other
// exits 1 with "loop already running" (never "connection refused"), and the
// run happens once.
func TestConcurrentApplyWait(t *testing.T) {
	smileBinaries(t) // build once, before the race
	for round := range 3 { // the race goes either way: a few rounds
		t.Run("round"+string(rune('1'+round)), func(t *testing.T) {
			dir := copyFixture(t, "hd-race")
			start := make(chan struct{})
			procs := make([]*bgProcess, 2)
			ready := make(chan struct{}, 2)
			for i := range procs {
				go func() {
					<-start
					procs[i] = smileBackground(t, dir, nil, "apply", "-f", "run.yaml", "--wait")
					ready <- struct{}{}
				}()
			}
			close(start)
			<-ready
			<-ready
			var ok, refused int
			for _, p := range procs {
				code, done := p.wait(3 * time.Minute)
				stdout, stderr := p.output()
				switch {
				case !done:
					t.Fatalf("an apply did not end\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
				case code == 0:
					ok++
				case code == 1 && strings.Contains(stderr, "loop already running"):
					refused++
				default:
					t.Errorf("apply exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
				}
				if strings.Contains(stderr, "connection refused") {
					t.Errorf("an apply met a closed controller:\n%s", stderr)
				}
			}
			if ok != 1 || refused != 1 {
				t.Fatalf("%d applies ran and %d were refused, want one of each", ok, refused)
			}
			run, err := status.Load(filepath.Join(dir, ".smile", "state.json"))
			if err != nil {
				t.Fatal(err)
			}
			if run.Metadata.Generation != 1 || run.Status.Phase != status.PhaseCompleted || len(run.Status.History) != 1 {
				t.Errorf("the run: generation %d, %s, %d iterations; want one completed run", run.Metadata.Generation, run.Status.Phase, len(run.Status.History))
			}
			if _, err := status.ReadControllerInfo(dir); err == nil {
				t.Errorf("a controller still serves the folder after both applies ended")
			}
		})
	}
}
