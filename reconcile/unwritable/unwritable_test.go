package unwritable

import (
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"testing"
)

func TestRunsEndAfterTriesOrALostResult(t *testing.T) {
	full := fmt.Errorf("write state.json: %w", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC})
	var r Runs
	for i, err := range []error{full, full, errors.New("docker: timeout"), full, full} {
		if r.Failed("a", err) {
			t.Fatalf("reconcile %d (%v) ends the run; want it retried (another error starts the count again)", i+1, err)
		}
	}
	if !r.Failed("a", full) {
		t.Fatalf("after %d failed writes in a row the run must end", Tries)
	}
	if r.Lost("b") != nil {
		t.Fatal("a result lost before any was")
	}
	r.Lose("b", full)
	if err := r.Lost("b"); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Lost = %v, want the full disk's error", err)
	}
	r.End("b", "sha256:1")
	if !r.Ended("b", "sha256:1") || r.Ended("b", "sha256:2") || r.Ended("a", "") || r.Lost("b") != nil {
		t.Fatal("an ended run is ended for its own inputs only, and its lost result is done with")
	}
	r.Forget("b")
	if r.Ended("b", "sha256:1") {
		t.Fatal("a forgotten run is still ended")
	}
}
