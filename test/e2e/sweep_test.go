package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSweepSnapshotsOfDeletedFolders: a folder deleted without smile
// delete leaves its run's snapshots on the engine; the next controller that
// starts (here `smile apply --wait` in another folder) removes them, and
// keeps those of a run whose folder is still there.
func TestSweepSnapshotsOfDeletedFolders(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	gone, live := copyFixture(t, "sweep"), copyFixture(t, "sweep")
	goneState, liveState := runFile(gone, "sweep", "state.json"), runFile(live, "sweep", "state.json")
	t.Cleanup(func() { removeSnapshotsOf(liveState); removeSnapshotsOf(goneState) })
	for _, dir := range []string{gone, live} {
		if res := smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait"); res.code != 0 {
			t.Fatalf("apply in %s: exit %d\nstdout:\n%s\nstderr:\n%s", dir, res.code, res.stdout, res.stderr)
		}
	}
	if len(snapshotsFor(t, goneState)) == 0 || len(snapshotsFor(t, liveState)) == 0 {
		t.Fatalf("snapshots before: %v of the folder to delete, %v of the live one; want some of each",
			snapshotsFor(t, goneState), snapshotsFor(t, liveState))
	}
	kept := snapshotsFor(t, liveState)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	// Any controller's start sweeps: this one serves the live folder.
	res := smile(t, live, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 0 {
		t.Fatalf("apply again: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if ids := snapshotsFor(t, goneState); len(ids) != 0 {
		t.Errorf("snapshots of the deleted folder after a controller started: %v, want none\nstderr:\n%s", ids, res.stderr)
	}
	for _, id := range kept {
		if !strings.Contains(strings.Join(snapshotsFor(t, liveState), " "), id) {
			t.Errorf("snapshot %s of the live folder was removed (left: %v)", id, snapshotsFor(t, liveState))
		}
	}
	// apply --wait's in-process controller logs in .smile/smile.log.
	log, _ := os.ReadFile(filepath.Join(live, ".smile", "smile.log"))
	if !strings.Contains(string(log), "Removed the snapshot of a deleted folder") || !strings.Contains(string(log), goneState) {
		t.Errorf("no removal logged in smile.log:\n%s", log)
	}
}

// snapshotsFor lists the IDs of the snapshots of the run of stateFile.
func snapshotsFor(t *testing.T, stateFile string) []string {
	t.Helper()
	out, err := exec.Command("docker", "images", "-q", "--filter", "label=smile.dev/kind=snapshot",
		"--filter", "label=smile.dev/state-file="+stateFile).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(out))
}

// removeSnapshotsOf removes what a test's run of stateFile kept.
func removeSnapshotsOf(stateFile string) {
	out, _ := exec.Command("docker", "images", "-q", "--filter", "label=smile.dev/kind=snapshot",
		"--filter", "label=smile.dev/state-file="+stateFile).Output()
	for _, id := range strings.Fields(string(out)) {
		_ = exec.Command("docker", "rmi", "-f", id).Run()
	}
}
