package e2e

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// TestTutorialLeavesNothingPrivilegedOnTheHost runs a page that, as root in
// its container, leaves a setuid-root shell in its work folder (a host
// folder) and tries to make a block device there. The run completes (the
// page's own checks hold: mknod is refused, no_new_privs is set), and after
// it no file under the run's folders has a setuid or setgid bit, no device
// node exists, the generation's folder is the controller user's alone
// (0700), and the run's events say what was made harmless.
func TestTutorialLeavesNothingPrivilegedOnTheHost(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "hd-privilege")
	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait")
	run, err := store.Load(runFile(dir, "hd-privilege", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if res.code != 0 || run.Status.Phase != status.PhaseCompleted || len(run.Status.Gaps) != 0 {
		t.Fatalf("apply --wait: exit %d, phase %s, gaps %+v; want a clean completion (mknod refused, no_new_privs set)\nstdout:\n%s\nstderr:\n%s",
			res.code, run.Status.Phase, run.Status.Gaps, res.stdout, res.stderr)
	}
	gen := filepath.Join(dir, store.HomeDir, "runs", "hd-privilege", "internal", "g1")
	info, err := os.Stat(gen)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o700 {
		t.Errorf("%s: mode %v, want 0700 (only the controller's user may enter)", gen, info.Mode().Perm())
	}
	sb := filepath.Join(gen, "work", "1", "sb")
	if _, err := os.Stat(sb); err != nil {
		t.Fatalf("the page's shell copy is not there: %v (the test did not exercise the attack)", err)
	}
	err = filepath.WalkDir(filepath.Join(dir, store.HomeDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&(fs.ModeDevice|fs.ModeCharDevice) != 0 {
			t.Errorf("%s: a device node on the host", path)
		}
		if fi, err := d.Info(); err == nil && d.Type().IsRegular() && fi.Mode()&(fs.ModeSetuid|fs.ModeSetgid) != 0 {
			t.Errorf("%s: mode %v, a setuid/setgid file left on the host", path, fi.Mode())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	said := false
	for _, e := range run.Status.Timeline {
		said = said || e.Event == "HostFilesDefused" && strings.Contains(e.Details, "work/1/sb: setuid bit cleared")
	}
	if !said {
		t.Errorf("no HostFilesDefused event names work/1/sb: %+v", run.Status.Timeline)
	}
}

// TestTutorialCannotReachItsServer runs a page that finds the process running
// its commands (smile-wrapper hands-serve or hands-exec) and tries to list
// its open files, read its environment and open its request and answer
// channels through /proc, as the forged-pass attack did. Each must be
// refused: the page expects so, and any access shows as an output mismatch.
func TestTutorialCannotReachItsServer(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	dir := copyFixture(t, "hd-server")
	res := smile(t, dir, nil, 5*time.Minute, "apply", "-f", "run.yaml", "--wait")
	run, err := store.Load(runFile(dir, "hd-server", "state.json"))
	if err != nil {
		t.Fatal(err)
	}
	if res.code != 0 || run.Status.Phase != status.PhaseCompleted || len(run.Status.Gaps) != 0 {
		t.Fatalf("apply --wait: exit %d, phase %s, gaps %+v; want a clean completion: the server out of reach\nstdout:\n%s\nstderr:\n%s",
			res.code, run.Status.Phase, run.Status.Gaps, res.stdout, res.stderr)
	}
}
