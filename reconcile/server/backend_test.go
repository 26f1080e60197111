package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// fakeBackend is a controller of one run, "demo", waiting on its Student
// attempt "c1"; it records what the server hands it.
type fakeBackend struct {
	hub      events.Hub
	run      *status.Run
	brain    bool
	stopping bool
	results  []*Result
	progress []*events.Progress
	applied  []ApplyRequest
	deleted  []string
	tokens   Tokens
}

func newFakeBackend() *fakeBackend {
	run := status.NewRun("demo", "uid", "run.yaml", time.Unix(0, 0))
	run.Status.Phase, run.Status.Iteration = status.PhaseWaitingForStudent, 1
	run.Status.Attempt = &status.Attempt{Role: status.RoleStudent, Iteration: 1, Container: "c1"}
	return &fakeBackend{run: run}
}

func (f *fakeBackend) Names() []string        { return []string{"demo"} }
func (f *fakeBackend) Known(name string) bool { return name == "demo" }
func (f *fakeBackend) Run(name string) (*status.Run, error) {
	if !f.Known(name) {
		return nil, status.UnknownRun(name)
	}
	return f.run, nil
}
func (f *fakeBackend) LastError(string) error                            { return nil }
func (f *fakeBackend) Desired(string) (*spec.Desired, error)             { return nil, status.UnknownRun("demo") }
func (f *fakeBackend) Progress(string, string) (*events.Progress, error) { return nil, nil }
func (f *fakeBackend) Subscribe() *events.Subscription                   { return f.hub.Subscribe() }
func (f *fakeBackend) Apply(req ApplyRequest) (any, error) {
	f.applied = append(f.applied, req)
	return map[string]string{"name": "demo", "outcome": "created"}, nil
}
func (f *fakeBackend) Delete(_ context.Context, name string) error {
	f.deleted = append(f.deleted, name)
	return nil
}
func (f *fakeBackend) RequestStop(string, string) error { return nil }
func (f *fakeBackend) Rerun(string) (any, error)        { return nil, nil }
func (f *fakeBackend) Audits(string) ([]status.Audit, error) {
	return nil, nil
}
func (f *fakeBackend) WaitFinished(context.Context, string) (*status.Run, error) {
	return f.run, nil
}
func (f *fakeBackend) AttemptToken(token string) (AttemptToken, bool) { return f.tokens.Lookup(token) }
func (f *fakeBackend) BrainRun(string) bool                           { return f.brain }
func (f *fakeBackend) ExpectedAttempt(run *status.Run) (string, status.Role) {
	return run.Status.Attempt.Container, run.Status.Attempt.Role
}
func (f *fakeBackend) PutResult(_ string, r *Result) (bool, error) {
	f.results = append(f.results, r)
	return f.stopping, nil
}
func (f *fakeBackend) PutProgress(_ string, _ string, p *events.Progress) error {
	f.progress = append(f.progress, p)
	return nil
}

// serve sends one request to h as a local client and decodes the answer.
func serve(t *testing.T, h http.Handler, method, path, token, attempt, body string) (int, map[string]any) {
	t.Helper()
	req := httptest.NewRequest(method, "http://127.0.0.1"+path, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if attempt != "" {
		req.Header.Set(wire.HeaderAttempt, attempt)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	var out map[string]any
	_ = json.Unmarshal(rec.Body.Bytes(), &out)
	return rec.Code, out
}

const studentResult = `{"studentOutput":{"status":"completed","currentStep":"line 6","summary":"done"}}`

// The callback API hands a result to the backend only with the token of the
// attempt the run waits on, and answers with what the backend says next.
func TestCallbacksThroughTheBackend(t *testing.T) {
	f := newFakeBackend()
	s := New(f, "control")
	h := s.CallbackHandler()
	token := f.tokens.Issue("demo", "c1", status.RoleStudent)

	if code, _ := serve(t, h, http.MethodPost, wire.PathStudentResult, "", "c1", studentResult); code != http.StatusUnauthorized {
		t.Errorf("no token: %d, want 401", code)
	}
	if code, _ := serve(t, h, http.MethodPost, wire.PathMentorResult, token, "c1", `{"mentorOutput":"x"}`); code != http.StatusForbidden {
		t.Errorf("a Student's token posting a Mentor result: %d, want 403", code)
	}
	if code, _ := serve(t, h, http.MethodPost, wire.PathProgress, token, "c1", `{"step":"line 6","line":6}`); code != http.StatusOK ||
		len(f.progress) != 1 || f.progress[0].Line != 6 {
		t.Errorf("progress: %d, backend got %+v", code, f.progress)
	}
	f.stopping = true
	code, out := serve(t, h, http.MethodPost, wire.PathStudentResult, token, "c1", studentResult)
	if code != http.StatusOK || out["nextAction"] != "stop" || len(f.results) != 1 {
		t.Fatalf("result: %d %v, backend got %d results", code, out, len(f.results))
	}
	if r := f.results[0]; r.Attempt != "c1" || r.Role != status.RoleStudent || r.Student == nil || r.Student.StudentOutput.Summary != "done" {
		t.Errorf("the backend got %+v", r)
	}

	f.tokens.Revoke("demo")
	if code, _ := serve(t, h, http.MethodPost, wire.PathStudentResult, token, "c1", studentResult); code != http.StatusForbidden {
		t.Errorf("a revoked token: %d, want 403", code)
	}
	f.brain = true
	fresh := f.tokens.Issue("demo", "c1", status.RoleStudent)
	if code, _ := serve(t, h, http.MethodPost, wire.PathStudentResult, fresh, "c1", studentResult); code != http.StatusForbidden {
		t.Errorf("a run whose learner runs in the controller: %d, want 403", code)
	}
	if len(f.results) != 1 {
		t.Errorf("refused posts reached the backend: %d results", len(f.results))
	}
}

// The control API and the reads reach the backend with the controller's
// token only.
func TestControlAndReadsThroughTheBackend(t *testing.T) {
	f := newFakeBackend()
	h := New(f, "control").Handler()
	if code, _ := serve(t, h, http.MethodPost, PathApply, "nope", "", `{"manifest":"/x/run.yaml"}`); code != http.StatusUnauthorized || len(f.applied) != 0 {
		t.Errorf("apply with a wrong token: %d, applied %v", code, f.applied)
	}
	if code, out := serve(t, h, http.MethodPost, PathApply, "control", "", `{"manifest":"/x/run.yaml"}`); code != http.StatusOK ||
		out["outcome"] != "created" || len(f.applied) != 1 || f.applied[0].Manifest != "/x/run.yaml" {
		t.Errorf("apply: %d %v, applied %v", code, out, f.applied)
	}
	if code, out := serve(t, h, http.MethodPost, PathDelete, "control", "", `{"name":"nope"}`); code != http.StatusNotFound ||
		out["reason"] != string(status.ReasonNotFound) || len(f.deleted) != 0 {
		t.Errorf("delete of an unknown run: %d %v, deleted %v", code, out, f.deleted)
	}
	if code, _ := serve(t, h, http.MethodGet, wire.PathStatus, "", "", ""); code != http.StatusUnauthorized {
		t.Errorf("status without a token: %d, want 401", code)
	}
	if code, out := serve(t, h, http.MethodGet, wire.PathStatus, "control", "", ""); code != http.StatusOK || out["status"] != "waiting_for_student" {
		t.Errorf("status: %d %v", code, out)
	}
}

// A coverage posted from a container is dropped: only an in-process
// Student's count of what it did with the page is a fact.
func TestPostedCoverageIsDropped(t *testing.T) {
	f := newFakeBackend()
	h := New(f, "control").CallbackHandler()
	token := f.tokens.Issue("demo", "c1", status.RoleStudent)
	body := `{"studentOutput":{"status":"completed","currentStep":"line 6","summary":"done","coverage":{"blocks":9,"exercised":9}}}`
	if code, _ := serve(t, h, http.MethodPost, wire.PathStudentResult, token, "c1", body); code != http.StatusOK || len(f.results) != 1 {
		t.Fatalf("result: %d, backend got %d results", code, len(f.results))
	}
	if c := f.results[0].Student.StudentOutput.Coverage; c != nil {
		t.Errorf("the backend got a posted coverage: %+v", c)
	}
}
