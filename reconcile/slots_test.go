package reconcile

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
)

// The controller enforces --parallel: with one slot, the second and third
// runs wait in phase Queued (visible in their status) while the first works;
// when the first goes, the second starts and the third still waits.
func TestManagerQueuesRunsBeyondParallel(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	var docs []string
	for _, n := range []string{"a", "b", "c"} {
		docs = append(docs, fmt.Sprintf("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: %s}\n"+
			"spec: {llmProvider: claude, stateFile: .smile/%s.json, outputDir: out-%s}\n", n, n, n))
	}
	manifest := filepath.Join(dir, "runs.yaml")
	write(t, manifest, strings.Join(docs, "---\n"))
	m := NewManager(Options{Runtime: fake.New("smile-base:latest"), WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard, Parallel: 1})
	ctx, cancel := context.WithCancel(context.Background())
	defer func() { cancel(); m.Wait() }()
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		if _, err := m.ApplyDoc(manifest, n); err != nil {
			t.Fatalf("apply %s: %v", n, err)
		}
		// In order: a asks for the slot first.
		waitRunPhase(t, m, n, func(p status.Phase) bool { return p != "" && p != status.PhaseStarting })
	}
	waitRunPhase(t, m, "a", func(p status.Phase) bool { return p == status.PhaseWaitingForStudent })
	for _, n := range []string{"b", "c"} {
		run := waitRunPhase(t, m, n, func(p status.Phase) bool { return p == status.PhaseQueued })
		if tl := run.Status.Timeline; len(tl) == 0 || tl[len(tl)-1].Event != "Queued" {
			t.Errorf("run %s: timeline %+v does not end with Queued", n, tl)
		}
		if run.Status.Reason != status.ReasonQueued || !strings.Contains(run.Status.Message, "at most 1 at once") {
			t.Errorf("run %s: reason %q message %q", n, run.Status.Reason, run.Status.Message)
		}
	}
	if err := m.Delete(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	waitRunPhase(t, m, "b", func(p status.Phase) bool { return p == status.PhaseWaitingForStudent })
	if run, _ := m.Run("c"); run == nil || run.Status.Phase != status.PhaseQueued {
		t.Errorf("run c left the queue while b holds the only slot: %+v", run)
	}
	if m.Parallel() != 1 {
		t.Errorf("Parallel() = %d, want 1", m.Parallel())
	}
}

// waitRunPhase polls a run's status until ok holds (a deadline only to end a
// broken test; no speed is asserted).
func waitRunPhase(t *testing.T, m *Manager, name string, ok func(status.Phase) bool) *status.Run {
	t.Helper()
	var last *status.Run
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if run, err := m.Run(name); err == nil {
			last = run
			if ok(run.Status.Phase) {
				return run
			}
		}
	}
	if last != nil {
		t.Fatalf("run %s stayed in phase %q (%s)", name, last.Status.Phase, last.Status.Message)
	}
	t.Fatalf("run %s has no status", name)
	return nil
}
