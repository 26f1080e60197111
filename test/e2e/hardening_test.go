package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// TestConcurrentApplyWait starts two `smile apply --wait` of one folder at
// the same instant, as two real processes: one runs the loop, the other
// exits 1 with "loop already running" (never "connection refused"), and the
// run happens once.
func TestConcurrentApplyWait(t *testing.T) {
	smileBinaries(t)       // build once, before the race
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
			run, err := store.Load(runFile(dir, "hd-race", "state.json"))
			if err != nil {
				t.Fatal(err)
			}
			if run.Metadata.Generation != 1 || run.Status.Phase != status.PhaseCompleted || len(run.Status.History) != 1 {
				t.Errorf("the run: generation %d, %s, %d iterations; want one completed run", run.Metadata.Generation, run.Status.Phase, len(run.Status.History))
			}
			if _, err := store.ReadControllerInfo(dir); err == nil {
				t.Errorf("a controller still serves the folder after both applies ended")
			}
		})
	}
}

// TestApplyRefusesHostileInput runs smile apply --wait on the inputs an
// attacker would write into a pull request: each fails at once with exit 1
// and an error naming the field, and nothing outside the project is touched.
func TestApplyRefusesHostileInput(t *testing.T) {
	smileBinaries(t)
	tests := []struct {
		name, spec, want string
	}{
		{"state-outside", "  stateFile: ../x/state.json\n", `spec.stateFile: "../x/state.json" is outside the project root`},
		{"output-etc", "  outputDir: /etc\n", `spec.outputDir: "/etc" is outside the project root`},
		{"tutorial-passwd", "  tutorial: /etc/passwd\n", `spec.tutorial: "/etc/passwd" is outside the project root`},
		{"state-dot", "  stateFile: \".\"\n", "is a directory, not a file"},
		{"timeout-huge", "  timeout: 9223372036\n", "spec.timeout must be at most 604800 (7 days), got 9223372036"},
		{"step-huge", "  studentBehavior: {timeoutSeconds: 9223372036}\n", "spec.studentBehavior.timeoutSeconds must be at most 86400 (24 hours)"},
		{"memory-bad", "  container: {memory: lots}\n", `spec.container.memory "lots" is not a size like "512m" or "2g"`},
		{"pids-zero", "  container: {pids: 0}\n", "spec.container.pids must be a positive integer of at most 4194304, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "project")
			writeFile(t, filepath.Join(dir, "tutorial.md"), []byte("# Hi\n\n```bash\necho hi\n```\n"))
			base := "  tutorial: tutorial.md\n"
			if strings.HasPrefix(tt.spec, "  tutorial:") {
				base = "" // a key given twice is a YAML error of its own
			}
			writeFile(t, filepath.Join(dir, "run.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: hd-"+tt.name+"}\nspec:\n"+base+"  llmProvider: literal\n"+tt.spec))
			start := time.Now()
			res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml", "--wait")
			if res.code != 1 || !strings.Contains(res.stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q; want 1 and %q", res.code, res.stderr, tt.want)
			}
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("refusal took %v: want it at once, not after retries", d)
			}
			if _, err := os.Stat(filepath.Join(root, "x")); err == nil {
				t.Errorf("smile created %s outside the project", filepath.Join(root, "x"))
			}
		})
	}
}
