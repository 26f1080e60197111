package reconcile

import (
	"context"
	"io"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
)

// slowList is an engine whose List hangs until released, as a busy Docker
// does during orphan removal.
type slowList struct {
	runtime.Runtime
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (s *slowList) List(ctx context.Context, sel map[string]string) ([]runtime.Container, error) {
	s.once.Do(func() { close(s.entered) })
	<-s.release
	return s.Runtime.List(ctx, sel)
}

// The API's handlers read the manager on every call: an Apply that waits on
// the engine (orphan removal) must not hold them up. The run counts as
// applied only once its orphans are gone.
func TestApplyHoldsNoLockAcrossEngineCalls(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "run.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec: {llmProvider: claude}\n")
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	rt := &slowList{Runtime: fake.New("smile-base:latest"), entered: make(chan struct{}), release: make(chan struct{})}
	m := NewManager(Options{Runtime: rt, WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard})
	ctx, cancel := context.WithCancel(context.Background())
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	applied := make(chan error, 1)
	go func() { _, err := m.Apply(filepath.Join(dir, "run.yaml")); applied <- err }()
	<-rt.entered // Apply is in the engine now
	read := make(chan bool)
	go func() {
		m.Names()
		_, ok := m.Applied("demo")
		_, _ = m.Run("demo")
		read <- ok
	}()
	select {
	case ok := <-read:
		// Nor is the run there for a reconcile (a container event wakes one)
		// until its orphans are gone (E19).
		if ok {
			t.Error("the run is applied while Apply still removes its orphans")
		}
	case <-time.After(2 * time.Second):
		t.Error("reading the manager waited for Apply's engine call")
	}
	close(rt.release)
	if err := <-applied; err != nil {
		t.Errorf("apply: %v", err)
	}
	if _, ok := m.Applied("demo"); !ok {
		t.Error("the run is not applied once Apply returned")
	}
	cancel()
	m.Wait()
}
