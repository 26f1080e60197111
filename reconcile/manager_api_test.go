package reconcile

import (
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/apitest"
	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
)

// startManager applies a demo run on a Manager whose callback listener binds
// loopback (the fake engine's gateway does not exist on this host). Its
// provider is a vendor CLI's: only their in-container wrappers call back.
func startManager(t *testing.T) (*Manager, string) {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "run.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec: {llmProvider: claude}\n")
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	m := NewManager(Options{Runtime: fake.New("smile-base:latest"), WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackHost: "127.0.0.1", Log: logr.Discard(), ReportFallback: io.Discard, ControlToken: testControlToken})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); m.Wait() })
	if err := m.Start(ctx); err != nil {
		t.Fatal(err)
	}
	res, err := m.Apply(filepath.Join(dir, "run.yaml"))
	if err != nil || res.Outcome != Created {
		t.Fatalf("apply: %+v %v", res, err)
	}
	apitest.WaitPhase(t, m, res.Name, status.PhaseWaitingForStudent)
	return m, dir
}

// A stopped run has no verdict for its inputs: applying the same manifest
// again runs it again, as a new generation, and its containers are gone.
func TestApplyAfterStopRunsAgain(t *testing.T) {
	m, dir := startManager(t)
	if err := m.RequestStop("demo", "Ctrl-C"); err != nil {
		t.Fatal(err)
	}
	stopped := apitest.WaitPhase(t, m, "demo", status.PhaseStopped)
	if stopped.Status.Report == nil {
		time.Sleep(200 * time.Millisecond)
	}
	if cs, _ := m.opts.Runtime.List(context.Background(), map[string]string{"smile.dev/run": "demo"}); len(cs) != 0 {
		t.Errorf("a stopped run keeps %d containers, want none (keepOnFailure is for failures)", len(cs))
	}
	res, err := m.Apply(filepath.Join(dir, "run.yaml"))
	if err != nil || res.Outcome != Configured {
		t.Fatalf("apply after stop: %+v %v, want configured", res, err)
	}
	again := apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForStudent)
	if again.Metadata.Generation != stopped.Metadata.Generation+1 {
		t.Errorf("generation %d after re-apply, want %d", again.Metadata.Generation, stopped.Metadata.Generation+1)
	}
}

func TestCallbackListenerNeverBindsAllInterfaces(t *testing.T) {
	for _, host := range []string{"0.0.0.0", "::", ""} {
		rt := fake.New()
		rt.SetInfo(runtime.Info{ServerVersion: "20.10", APIVersion: "1.41", GatewayIP: host, HostName: fake.DefaultHostName})
		m := NewManager(Options{Runtime: rt, Log: logr.Discard()})
		ctx, cancel := context.WithCancel(context.Background())
		err := m.Start(ctx)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "never listens on all interfaces") {
			t.Errorf("gateway %q: err = %v, want a refusal", host, err)
		}
	}
}

func TestCallbackListenerBindsTheGateway(t *testing.T) {
	m, _ := startManager(t)
	host, _, _ := net.SplitHostPort(m.CallbackAddr())
	if host != "127.0.0.1" {
		t.Errorf("callback listener on %s, want the configured address", host)
	}
	apiHost, _, _ := net.SplitHostPort(m.APIAddr())
	if !net.ParseIP(apiHost).IsLoopback() {
		t.Errorf("API listener on %s, want loopback", apiHost)
	}
}

func TestSecondApplyOfTheSameStateFileIsRefused(t *testing.T) {
	_, dir := startManager(t)
	other := NewManager(Options{Runtime: fake.New("smile-base:latest"), CallbackHost: "127.0.0.1", Log: logr.Discard()})
	_, err := other.Apply(filepath.Join(dir, "run.yaml"))
	if err == nil || !strings.Contains(err.Error(), "loop already running") {
		t.Fatalf("second apply: %v, want loop already running", err)
	}
}

// A fast container can call back before the status that records its start
// is written: the API accepts exactly the attempt the run is starting.
func TestCallbackBeforeTheAttemptIsRecorded(t *testing.T) {
	m, _ := startManager(t)
	run, _ := m.Run("demo")
	starting := run.Copy()
	starting.Status.Phase, starting.Status.Attempt = status.PhaseRunningMentor, nil
	m.rec.mu.Lock()
	m.rec.observed["demo"] = starting
	m.rec.mu.Unlock()

	mentor := strings.Replace(run.Status.Attempt.Container, "-student", "-mentor", 1)
	base := "http://" + m.CallbackAddr()
	body := []byte(`{"mentorOutput":"run chmod +x first"}`)
	// startAttempt issues the attempt's token before it saves the status.
	token := m.rec.issueToken("demo", mentor, status.RoleMentor)
	if code, out := apitest.Post(t, base+wire.PathMentorResult, token, mentor, body); code != http.StatusOK {
		t.Fatalf("the Mentor the run is starting was refused: %d %v", code, out)
	}
	for _, attempt := range []string{run.Status.Attempt.Container, mentor + "-x", strings.Replace(mentor, "-i1-", "-i2-", 1)} {
		if code, _ := apitest.Post(t, base+wire.PathMentorResult, token, attempt, body); code != http.StatusForbidden {
			t.Errorf("attempt %s: %d, want 403: the token is the Mentor's being started", attempt, code)
		}
	}
	if code, _ := apitest.Post(t, base+wire.PathStudentResult, token, mentor, body); code != http.StatusForbidden {
		t.Errorf("a student result with the mentor's token: %d, want 403", code)
	}
}

// testControlToken is the controller token of the test managers.
const testControlToken = "test-control-token"
