package reconcile

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// TestFullDiskEndsTheRun fills the filesystem of a run's state while its
// Student works, then lets the loop time out: the timeout's transition cannot
// be saved. After 3 failed reconciles the run ends (phase
// Error, reason Unwritable) in memory, its containers removed and its report
// on the fallback, and reconciling it again does nothing: no endless retries.
func TestFullDiskEndsTheRun(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: the run's state goes on a small filesystem of its own (mount -t tmpfs)")
	}
	h := newHarness(t, "  timeout: 30\n")
	home := filepath.Join(h.dir, ".smile")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", home).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small filesystem (mount -t tmpfs): %v: %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", home).Run() })
	var fallback bytes.Buffer
	h.rec.ReportFallback = &fallback
	if run := h.settle(); run.Status.Attempt == nil {
		t.Fatalf("phase %s: the Student did not start", run.Status.Phase)
	}
	fill(t, filepath.Join(home, "fill"))
	h.advance(31 * time.Second)
	ctx := context.Background()
	for i := 1; i < 3; i++ { // retried twice (unwritable.Tries), in case space comes back
		if _, err := h.rec.Reconcile(ctx, Request{Name: h.name}); !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("reconcile %d: %v, want the full disk's error (retried)", i, err)
		}
	}
	for i := 0; i < 2; i++ { // the last try ends the run; later ones do nothing
		if _, err := h.rec.Reconcile(ctx, Request{Name: h.name}); err != nil {
			t.Fatalf("reconcile: %v; want the run ended, not retried", err)
		}
	}
	h.rec.containers().Wait()
	run, ok := h.rec.Observed(h.name)
	if !ok || run.Status.Phase != status.PhaseError || run.Status.Reason != status.ReasonUnwritable || !run.Finished("") {
		t.Fatalf("observed %+v: want the run ended in Error (Unwritable) with its report", run.Status)
	}
	if !strings.Contains(run.Status.Message, "no space left on device") {
		t.Errorf("message %q does not say the disk is full", run.Status.Message)
	}
	if !strings.Contains(fallback.String(), "# SMILE Loop Report") {
		t.Errorf("the report is not on the fallback:\n%s", fallback.String())
	}
	if cs, _ := h.rt.List(ctx, nil); len(cs) > 0 {
		t.Errorf("containers left: %+v", cs)
	}
}

// fill writes path until its filesystem is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}
