package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"
)

// TestFullDiskEndsTheRun puts the workspace on a small filesystem of its own
// and runs a page whose first step fills it (its work folder is there too):
// from then on nothing of the run (its state, inbox, reports) can be written.
// apply --wait must end well before the run's 60 s loop timeout instead of
// waiting or retrying, exit 1 saying the disk is full, print the report on
// stdout (the seed's E16: retry, then stdout) and leave no container behind.
// Both when apply runs the loop itself and when a controller serving the
// workspace does (apply then prints the report the controller could not
// write).
func TestFullDiskEndsTheRun(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Run("in process", func(t *testing.T) { fullDisk(t, false) })
	t.Run("through a controller", func(t *testing.T) { fullDisk(t, true) })
}

func fullDisk(t *testing.T, controller bool) {
	dir := smallFilesystem(t, 16<<20)
	copyFixtureTo(t, "hd-full", dir)
	if controller {
		if err := os.MkdirAll(filepath.Join(dir, store.HomeDir), 0o755); err != nil {
			t.Fatal(err)
		}
		stopControllers(t, dir)
		startController(t, dir)
	}
	const loopTimeout = 60 * time.Second // the fixture's spec.timeout
	start := time.Now()
	res := smile(t, dir, nil, 3*loopTimeout, "apply", "-f", "run.yaml", "--wait")
	took := time.Since(start)
	var fs syscall.Statfs_t
	if err := syscall.Statfs(dir, &fs); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, store.HomeDir, "runs", "hd-full", "internal", "g1", "work", "1", "big")
	if fi, err := os.Stat(big); err != nil || fi.Size() < int64(fs.Blocks)*fs.Bsize*9/10 {
		t.Fatalf("the page did not fill the workspace's filesystem (%s: %v): does the engine see the mount?\nstdout:\n%s\nstderr:\n%s",
			big, err, res.stdout, res.stderr)
	}
	if res.code != 1 || !strings.Contains(res.stderr, "no space left on device") {
		t.Errorf("apply --wait: exit %d; want 1 and an error saying the disk is full\nstderr:\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "# SMILE Loop Report: A page that fills the disk") {
		t.Errorf("the report is not on stdout:\n%s", res.stdout)
	}
	if took >= loopTimeout {
		t.Errorf("apply --wait ended after %s, past the run's loop timeout (%s): it waited or retried instead of ending", took.Round(time.Second), loopTimeout)
	}
	if cs := dirContainers(t, dir); len(cs) > 0 {
		t.Errorf("containers left behind: %v", containerNames(cs))
	}
}

// smallFilesystem mounts a tmpfs of size bytes on a fresh folder, unmounted
// when the test ends; it skips the test where it cannot (not root, no mount).
func smallFilesystem(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: the workspace goes on a small filesystem of its own (mount -t tmpfs)")
	}
	dir := t.TempDir()
	out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d", size), "tmpfs", dir).CombinedOutput()
	if err != nil {
		t.Skipf("cannot mount a small filesystem for the workspace (mount -t tmpfs): %v: %s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	return dir
}
