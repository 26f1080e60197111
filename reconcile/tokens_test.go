package reconcile

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/apitest"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/status"
)

// TestAttemptTokens: a vendor CLI's container gets a token of its own
// attempt and role, which buys nothing else and nothing once the attempt is
// over.
func TestAttemptTokens(t *testing.T) {
	m, _ := startManager(t)
	run, _ := m.Run("demo")
	attempt := run.Status.Attempt.Container
	cs, ok := m.opts.Runtime.(*fake.Runtime).Spec(attempt)
	if !ok {
		t.Fatalf("no container %s", attempt)
	}
	token := envOf(cs.Env, wire.EnvToken)
	if token == "" || token == run.Status.Token {
		t.Fatalf("container token %q: want the attempt's own, not the run's", token)
	}
	base := "http://" + m.CallbackAddr()
	student, _ := json.Marshal(wire.StudentResultRequest{StudentOutput: askChmod, Timestamp: time.Now()})
	mentor := []byte(`{"mentorOutput":"forged"}`)
	tests := []struct {
		name, path, attempt string
		body                []byte
		want                int
	}{
		{"another role's post", wire.PathMentorResult, attempt, mentor, http.StatusForbidden},
		{"another attempt's header", wire.PathStudentResult, attempt + "-x", student, http.StatusForbidden},
		{"its own progress", wire.PathProgress, attempt, []byte(`{"step":"x","line":6}`), http.StatusOK},
		{"its own result", wire.PathStudentResult, attempt, student, http.StatusOK},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if code, out := apitest.Post(t, base+tc.path, token, tc.attempt, tc.body); code != tc.want {
				t.Fatalf("status %d (%v), want %d", code, out, tc.want)
			}
		})
	}
	apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForMentor)
	if code, out := apitest.Post(t, base+wire.PathStudentResult, token, attempt, student); code != http.StatusForbidden {
		t.Errorf("the ended attempt's token: %d %v, want 403", code, out)
	}
	run, _ = m.Run("demo")
	ms, _ := m.opts.Runtime.(*fake.Runtime).Spec(run.Status.Attempt.Container)
	if mt := envOf(ms.Env, wire.EnvToken); mt == "" || mt == token {
		t.Errorf("the Mentor's token %q: want a new one", mt)
	}
}
