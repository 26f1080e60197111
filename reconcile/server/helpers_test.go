package server_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/internal/apitest"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// These tests drive the server through a real Manager on the fake runtime:
// the package under test is wired by reconcile, as in the controller.

// testControlToken is the controller token of the test managers.
const testControlToken = "test-control-token"

const tutorialMD = "# Demo\n\nRun it:\n\n```bash\n./run.sh\n```\n"

var askChmod = status.StudentOutput{
	Status: status.StudentAskMentor, CurrentStep: "line 6: ./run.sh", Line: 6,
	QuestionForMentor: "At line 6 `./run.sh` printed `Permission denied`. What is missing?",
	Findings: []status.Finding{{Category: status.CategoryPermissionDenied, Line: 6, Problem: "run.sh is not executable",
		Command: "./run.sh", Asked: true, SuggestedFix: "make it executable"}},
}

// runtimes are the fake engines of the test managers.
var runtimes sync.Map // *reconcile.Manager -> *fake.Runtime

// startManager applies a demo run on a Manager whose callback listener binds
// loopback (the fake engine's gateway does not exist on this host). Its
// provider is a vendor CLI's: only their in-container wrappers call back.
func startManager(t *testing.T) (*reconcile.Manager, string) {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "run.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec: {llmProvider: claude}\n")
	m := newManager(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); m.Wait() })
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := m.Apply(filepath.Join(dir, "run.yaml"))
	if err != nil || res.Outcome != reconcile.Created {
		t.Fatalf("apply: %+v %v", res, err)
	}
	apitest.WaitPhase(t, m, res.Name, status.PhaseWaitingForStudent)
	return m, dir
}

// newManager builds a Manager on a fake runtime whose wrapper is a stub in
// dir.
func newManager(t *testing.T, dir string) *reconcile.Manager {
	t.Helper()
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	rt := fake.New("smile-base:latest")
	m := reconcile.NewManager(reconcile.Options{Runtime: rt, WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard, ControlToken: testControlToken})
	runtimes.Store(m, rt)
	return m
}

// containerToken is the callback token the fake engine's container of the
// attempt was given.
func containerToken(t *testing.T, m *reconcile.Manager, attempt string) string {
	t.Helper()
	rt, _ := runtimes.Load(m)
	cs, ok := rt.(*fake.Runtime).Spec(attempt)
	if !ok {
		t.Fatalf("no container %s", attempt)
	}
	for _, kv := range cs.Env {
		if v, ok := strings.CutPrefix(kv, wire.EnvToken+"="); ok {
			return v
		}
	}
	return ""
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
