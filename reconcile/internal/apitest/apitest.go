// Package apitest holds what the controller's tests and the HTTP server's
// tests both do: wait for a run's phase and post to the API as a container
// or the CLI would.
package apitest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// Runs is what WaitPhase reads a run from (reconcile.Manager).
type Runs interface {
	Run(name string) (*status.Run, error)
}

// WaitPhase waits up to 5 s for the run to reach phase and returns it; the
// test fails if it never does.
func WaitPhase(t testing.TB, m Runs, name string, phase status.Phase) *status.Run {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if run, err := m.Run(name); err == nil && run.Status.Phase == phase {
			return run
		}
		time.Sleep(5 * time.Millisecond)
	}
	run, _ := m.Run(name)
	t.Fatalf("run never reached %s (last: %+v)", phase, run)
	return nil
}

// Post sends body to url with the bearer token and the attempt header (each
// when set) and returns the status code and the decoded JSON answer.
func Post(t testing.TB, url, token, attempt string, body []byte) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if attempt != "" {
		req.Header.Set(wire.HeaderAttempt, attempt)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}
