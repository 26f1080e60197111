package reconcile

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// MaxBodyBytes bounds every request body: 1 MiB.
const MaxBodyBytes = 1 << 20

// API serves the seed's HTTP API. Handlers only read the last written status
// and write to the inbox, so they stay responsive while the loop works
// (NFR-001, NFR-002).
type API struct {
	m *Manager
}

// CallbackHandler serves what containers may call: results and progress.
// It is the only handler on the address containers can reach.
func (a *API) CallbackHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+wire.PathStudentResult, a.studentResult)
	mux.HandleFunc("POST "+wire.PathMentorResult, a.mentorResult)
	mux.HandleFunc("POST "+wire.PathProgress, a.progress)
	return mux
}

// Handler serves the whole API on the loopback listener.
func (a *API) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/student/", a.CallbackHandler())
	mux.Handle("/api/mentor/", a.CallbackHandler())
	mux.Handle(wire.PathProgress, a.CallbackHandler())
	mux.HandleFunc("GET "+wire.PathStatus, a.status)
	mux.HandleFunc("POST "+wire.PathStop, a.stop)
	mux.HandleFunc("GET "+wire.PathProgress, a.currentProgress)
	mux.HandleFunc("POST "+PathDashboardLogin, a.dashboardLogin)
	a.control(mux)
	a.observers(mux)
	// Only this machine, by a loopback name: a web page whose DNS name is
	// rebound to 127.0.0.1 must not read a run's status or drive it. Reads
	// need the controller's token as well.
	return sameHostOnly(a.readAuth(mux))
}

func (a *API) studentResult(w http.ResponseWriter, r *http.Request) {
	var req wire.StudentResultRequest
	name, attempt, ok := a.callback(w, r, status.RoleStudent, &req)
	if !ok {
		return
	}
	if err := validateStudentOutput(req.StudentOutput); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	a.accept(w, name, &Posted{Attempt: attempt, Role: status.RoleStudent, ReceivedAt: time.Now().UTC(), Student: &req})
}

func (a *API) mentorResult(w http.ResponseWriter, r *http.Request) {
	var req wire.MentorResultRequest
	name, attempt, ok := a.callback(w, r, status.RoleMentor, &req)
	if !ok {
		return
	}
	if strings.TrimSpace(req.MentorOutput) == "" {
		writeError(w, http.StatusUnprocessableEntity, "mentorOutput must not be empty")
		return
	}
	a.accept(w, name, &Posted{Attempt: attempt, Role: status.RoleMentor, ReceivedAt: time.Now().UTC(), Mentor: &req})
}

func (a *API) progress(w http.ResponseWriter, r *http.Request) {
	var req wire.ProgressRequest
	name, attempt, ok := a.callback(w, r, "", &req)
	if !ok {
		return
	}
	p := &Progress{Step: req.Step, Line: req.Line, At: time.Now().UTC()}
	box, err := a.inboxOf(name)
	if err == nil {
		err = box.putProgress(attempt, p)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if run, err := a.m.Run(name); err == nil {
		a.m.hub.Publish(Event{Run: run, Action: ActProgress, At: p.At, Progress: p})
	}
	writeJSONResponse(w, http.StatusOK, map[string]bool{"acknowledged": true})
}

// accept keeps a result in the inbox before acknowledging it, then wakes
// the run's reconciler.
func (a *API) accept(w http.ResponseWriter, name string, p *Posted) {
	box, err := a.inboxOf(name)
	if err == nil {
		err = box.putResult(p)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, "keep result: "+err.Error())
		return
	}
	next := "continue"
	if s, _ := box.stop(); s != nil {
		next = "stop"
	}
	a.m.Enqueue(name)
	writeJSONResponse(w, http.StatusOK, wire.ResultResponse{Acknowledged: true, NextAction: next})
}

// callback authenticates a container's POST and decodes its body. The token
// says which run it is; the attempt header must be the container the run is
// waiting on (role "" accepts either role).
func (a *API) callback(w http.ResponseWriter, r *http.Request, role status.Role, body any) (name, attempt string, ok bool) {
	run, found, ok := a.authenticateAttempt(w, r, role)
	if !found {
		w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
		writeError(w, http.StatusUnauthorized, "a valid attempt token is required")
		return "", "", false
	}
	if !ok || a.refuseBrainRun(w, run.Metadata.Name) {
		return "", "", false
	}
	if !decodeBody(w, r, body) {
		return "", "", false
	}
	attempt = r.Header.Get(wire.HeaderAttempt)
	want, wantRole := a.m.expectedAttempt(run)
	if want == "" || want != attempt || (role != "" && wantRole != role) {
		writeError(w, http.StatusConflict, fmt.Sprintf("run %s is not waiting for %s %q", run.Metadata.Name, orAny(role), attempt))
		return "", "", false
	}
	return run.Metadata.Name, attempt, true
}

// authenticate finds the run whose token the request carries (401 without one).
func (a *API) authenticate(w http.ResponseWriter, r *http.Request) (*status.Run, bool) {
	token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if found && token != "" {
		for _, name := range a.m.Names() {
			run, err := a.m.Run(name)
			if err == nil && run.Status.Token != "" &&
				subtle.ConstantTimeCompare([]byte(run.Status.Token), []byte(token)) == 1 {
				return run, true
			}
		}
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
	writeError(w, http.StatusUnauthorized, "a valid run token is required")
	return nil, false
}

func (a *API) status(w http.ResponseWriter, r *http.Request) {
	name, ok := a.pickRun(w, r)
	if !ok {
		return
	}
	if err := a.m.LastError(name); err != nil {
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	run, err := a.m.Run(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	if r.URL.Query().Get("view") == "run" {
		out := *run
		out.Status.Token = ""
		writeJSONResponse(w, http.StatusOK, out)
		return
	}
	writeJSONResponse(w, http.StatusOK, run.Status.LoopState())
}

// currentProgress answers what the current attempt last said it was doing
// (an empty object when nothing runs).
func (a *API) currentProgress(w http.ResponseWriter, r *http.Request) {
	name, ok := a.pickRun(w, r)
	if !ok {
		return
	}
	run, err := a.m.Run(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	box, err := a.inboxOf(name)
	if err != nil || run.Status.Attempt == nil {
		writeJSONResponse(w, http.StatusOK, struct{}{})
		return
	}
	p, err := box.progress(run.Status.Attempt.Container)
	if err != nil || p == nil {
		writeJSONResponse(w, http.StatusOK, struct{}{})
		return
	}
	writeJSONResponse(w, http.StatusOK, p)
}

// stop asks the loop to end and answers with its final state once it has
// (or after 15 s, with the state as it is).
func (a *API) stop(w http.ResponseWriter, r *http.Request) {
	run, ok := a.authenticate(w, r)
	if !ok {
		return
	}
	var req wire.StopRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if req.Reason == "" {
		req.Reason = "stop requested"
	}
	name := run.Metadata.Name
	if !run.Status.Phase.Terminal() {
		if err := a.m.RequestStop(name, req.Reason); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		defer cancel()
		if final, err := a.m.WaitFinished(ctx, name, ""); err == nil {
			run = final
		} else if cur, err := a.m.Run(name); err == nil {
			run = cur
		}
	}
	writeJSONResponse(w, http.StatusOK, wire.StopResponse{Stopped: run.Status.Phase.Terminal(), FinalState: run.Status.LoopState()})
}

// pickRun is the run named by ?name=, or the only run.
func (a *API) pickRun(w http.ResponseWriter, r *http.Request) (string, bool) {
	if name := r.URL.Query().Get("name"); name != "" {
		if _, ok := a.m.Applied(name); !ok {
			writeRunError(w, status.UnknownRun(name))
			return "", false
		}
		return name, true
	}
	names := a.m.Names()
	switch len(names) {
	case 0:
		writeJSONResponse(w, http.StatusNotFound, wire.ErrorResponse{Error: "no runs applied", Reason: status.ReasonNotFound})
		return "", false
	case 1:
		return names[0], true
	}
	writeError(w, http.StatusBadRequest, "several runs are applied: name one with ?name=")
	return "", false
}

func (a *API) inboxOf(name string) (inbox, error) { return a.m.inbox(name) }

// validateStudentOutput applies the seed's rules for StudentOutput.
func validateStudentOutput(o status.StudentOutput) error {
	switch o.Status {
	case status.StudentCompleted:
	case status.StudentAskMentor:
		if strings.TrimSpace(o.QuestionForMentor) == "" {
			return errors.New("studentOutput.questionForMentor is required when status is ask_mentor")
		}
	case status.StudentCannotComplete:
		if strings.TrimSpace(o.Reason) == "" {
			return errors.New("studentOutput.reason is required when status is cannot_complete")
		}
	default:
		return fmt.Errorf("studentOutput.status must be completed, ask_mentor or cannot_complete, got %q", o.Status)
	}
	if strings.TrimSpace(o.CurrentStep) == "" {
		return errors.New("studentOutput.currentStep must not be empty")
	}
	return nil
}

func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", MaxBodyBytes))
			return false
		}
		writeError(w, http.StatusBadRequest, "invalid JSON body: "+err.Error())
		return false
	}
	return true
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSONResponse(w, code, wire.ErrorResponse{Error: msg})
}

// writeRunError answers an error about one run: 404 for a run that is not
// applied, 503 (ask again) for one whose status is not written yet or cannot
// be read now. The reason lets the client tell them apart.
func writeRunError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, status.ErrUnknownRun):
		writeJSONResponse(w, http.StatusNotFound, wire.ErrorResponse{Error: err.Error(), Reason: status.ReasonNotFound})
	case errors.Is(err, store.ErrNotFound):
		writeJSONResponse(w, http.StatusServiceUnavailable, wire.ErrorResponse{Error: err.Error(), Reason: status.ReasonNoStatusYet})
	default:
		writeError(w, http.StatusServiceUnavailable, err.Error())
	}
}

func writeJSONResponse(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func orAny(r status.Role) string {
	if r == "" {
		return "attempt"
	}
	return string(r)
}
