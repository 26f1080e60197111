package server_test

import (
	"github.com/smile-loop/smile/reconcile/internal/apitest"
	. "github.com/smile-loop/smile/reconcile/server"

	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

func TestCallbackAPI(t *testing.T) {
	m, _ := startManager(t)
	run, _ := m.Run("demo")
	attempt := run.Status.Attempt.Container
	token := containerToken(t, m, attempt)
	base := "http://" + m.CallbackAddr()
	body, _ := json.Marshal(wire.StudentResultRequest{StudentOutput: askChmod, Timestamp: time.Now()})

	tests := []struct {
		name, token, attempt string
		body                 []byte
		want                 int
	}{
		{"no token", "", attempt, body, http.StatusUnauthorized},
		{"wrong token", strings.Repeat("0", len(token)), attempt, body, http.StatusUnauthorized},
		{"another attempt", token, "smile-demo-other", body, http.StatusForbidden},
		{"body over 1 MiB", token, attempt, append([]byte(`{"studentOutput":{"summary":"`), bytes.Repeat([]byte("x"), MaxBodyBytes)...), http.StatusRequestEntityTooLarge},
		{"not JSON", token, attempt, []byte("{"), http.StatusBadRequest},
		{"ask_mentor without a question", token, attempt, []byte(`{"studentOutput":{"status":"ask_mentor","currentStep":"x"}}`), http.StatusUnprocessableEntity},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out := apitest.Post(t, base+wire.PathStudentResult, tc.token, tc.attempt, tc.body)
			if code != tc.want {
				t.Fatalf("status %d (%v), want %d", code, out, tc.want)
			}
			if _, ok := out["error"]; !ok {
				t.Errorf("error responses carry an error message, got %v", out)
			}
		})
	}
	if r, _ := m.Run("demo"); r.Status.Phase != status.PhaseWaitingForStudent {
		t.Fatalf("rejected posts must change nothing, phase %s", r.Status.Phase)
	}

	code, out := apitest.Post(t, base+wire.PathProgress, token, attempt, []byte(`{"step":"line 6: ./run.sh","line":6}`))
	if code != http.StatusOK {
		t.Fatalf("progress: %d %v", code, out)
	}
	code, out = apitest.Post(t, base+wire.PathStudentResult, token, attempt, body)
	if code != http.StatusOK || out["acknowledged"] != true || out["nextAction"] != "continue" {
		t.Fatalf("result: %d %v", code, out)
	}
	run = apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForMentor)
	if len(run.Status.History) != 1 || run.Status.History[0].StudentOutput.QuestionForMentor != askChmod.QuestionForMentor {
		t.Fatalf("the posted result was not recorded: %+v", run.Status.History)
	}
	// The Student's attempt is over: its token was revoked.
	if code, _ := apitest.Post(t, base+wire.PathStudentResult, token, attempt, body); code != http.StatusForbidden {
		t.Errorf("a second result for a finished attempt: %d, want 403", code)
	}
	// Containers reach only the callbacks, never status or stop.
	for _, path := range []string{wire.PathStatus, wire.PathStop} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("callback listener serves %s: %d", path, resp.StatusCode)
		}
	}
}

func TestStatusAndStop(t *testing.T) {
	m, _ := startManager(t)
	api := "http://" + m.APIAddr()
	req, _ := http.NewRequest(http.MethodGet, api+wire.PathStatus, nil)
	req.Header.Set("Authorization", "Bearer "+testControlToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var ls status.LoopState
	if err := json.NewDecoder(resp.Body).Decode(&ls); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || ls.Status != "waiting_for_student" || ls.Iteration != 1 {
		t.Fatalf("GET status: %d %+v", resp.StatusCode, ls)
	}
	if ls.MentorNotes == nil || ls.History == nil {
		t.Errorf("mentorNotes and history are arrays, never null")
	}

	if code, _ := apitest.Post(t, api+wire.PathStop, "", "", []byte(`{"reason":"x"}`)); code != http.StatusUnauthorized {
		t.Errorf("stop without the token: %d, want 401", code)
	}
	run, _ := m.Run("demo")
	code, out := apitest.Post(t, api+wire.PathStop, run.Status.Token, "", []byte(`{"reason":"the author is fixing the tutorial"}`))
	if code != http.StatusOK || out["stopped"] != true {
		t.Fatalf("stop: %d %v", code, out)
	}
	final := out["finalState"].(map[string]any)
	if final["status"] != "stopped" {
		t.Errorf("final state %v", final["status"])
	}
	run, _ = m.Run("demo")
	if run.Status.Phase != status.PhaseStopped || run.Status.Reason != "Stopped" || !strings.Contains(run.Status.Message, "fixing the tutorial") || run.Status.Report == nil {
		t.Errorf("after stop: reason %s message %q report %v", run.Status.Reason, run.Status.Message, run.Status.Report)
	}
}

func TestLoopbackAPIRefusesForeignHosts(t *testing.T) {
	m, _ := startManager(t)
	for host, want := range map[string]int{"evil.example": http.StatusForbidden, m.APIAddr(): http.StatusOK, "localhost": http.StatusOK} {
		req, _ := http.NewRequest(http.MethodGet, "http://"+m.APIAddr()+wire.PathStatus, nil)
		req.Header.Set("Authorization", "Bearer "+testControlToken)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, resp.StatusCode, want)
		}
	}
}
