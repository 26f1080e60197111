package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hackRuns are the hack/ programs that need Docker, each with its smallest
// counts and a line its output must hold. test/hack builds every program
// and runs those that need no Docker (benchevents, firstcontact
// -labels-only); TestHackPrograms fails when one found under hack/ is in
// neither list.
var hackRuns = []struct {
	name string
	args func(bin string) []string
	want string
}{
	// The quickstart starts the two Students' containers and no other: the
	// literal Mentor reads the work folder without one.
	{"bench", func(bin string) []string { return []string{"-bin", bin, "-n", "1", "-loads", "1", "-containers", "1"} },
		"starting 2 containers (the first run's, from the engine's events: i1-student, i2-student)"},
	{"benchcontroller", func(bin string) []string { return []string{"-bin", bin, "-saves", "1", "-kills", "1"} }, "kill -9 -> resumed"},
	// -setup 1 takes no checkpoint in (a) (it measures, it does not assert);
	// (b) is left out: it would double the time. (c) still commits one.
	{"benchcheckpoint", func(bin string) []string { return []string{"-bin", bin, "-setup", "1", "-n", "1", "-parts", "ac"} }, "(c) disk of that checkpoint"},
	{"corpus", func(bin string) []string {
		return []string{"-bin", bin, "-run", "^bold-greeting$", "-j", "1", "-prefix", "cph-"}
	}, "TOTAL"},
}

// hackNoDocker are run by test/hack in the unit suite.
var hackNoDocker = []string{"benchevents", "benchplan", "firstcontact", "k8spause"}

// TestHackPrograms runs each hack/ program that needs Docker once, with
// its smallest counts: it must exit 0 and print its table.
func TestHackPrograms(t *testing.T) {
	smile := smileBinaries(t)
	baseImage(t)
	root := repoRoot(t)
	progs, err := filepath.Glob(filepath.Join(root, "hack", "*", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	listed := append([]string(nil), hackNoDocker...)
	for _, r := range hackRuns {
		listed = append(listed, r.name)
	}
	for _, p := range progs {
		if name := filepath.Base(filepath.Dir(p)); !strings.Contains(" "+strings.Join(listed, " ")+" ", " "+name+" ") {
			t.Errorf("hack/%s is neither run here nor in test/hack: add it to hackRuns", name)
		}
	}
	progBin := t.TempDir()
	build := exec.Command("go", "build", "-o", progBin+string(filepath.Separator), "./hack/...")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./hack/...: %v\n%s", err, out)
	}
	var total time.Duration
	for _, r := range hackRuns {
		t.Run(r.name, func(t *testing.T) {
			cmd := exec.Command(filepath.Join(progBin, r.name), r.args(smile)...)
			cmd.Dir = root
			cmd.Stdin = nil
			cmd.Env = os.Environ()
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			total += took
			t.Logf("hack/%s took %s", r.name, took.Round(100*time.Millisecond))
			if err != nil {
				t.Fatalf("hack/%s %s: %v\n%s", r.name, strings.Join(r.args(smile), " "), err, out)
			}
			if !strings.Contains(string(out), r.want) {
				t.Errorf("hack/%s printed no %q:\n%s", r.name, r.want, out)
			}
		})
	}
	t.Logf("hack programs took %s together", total.Round(100*time.Millisecond))
}
