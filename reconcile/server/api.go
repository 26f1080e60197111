package server

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/status/store"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// MaxBodyBytes bounds every request body: 1 MiB.
const MaxBodyBytes = 1 << 20

// The handlers only read the last written status and write to the inbox, so
// they stay responsive while the loop works (NFR-001, NFR-002).

// CallbackHandler serves what containers may call: results and progress.
// It is the only handler on the address containers can reach.
func (s *Server) CallbackHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+wire.PathStudentResult, s.studentResult)
	mux.HandleFunc("POST "+wire.PathMentorResult, s.mentorResult)
	mux.HandleFunc("POST "+wire.PathProgress, s.progress)
	return mux
}

// Handler serves the whole API on the loopback listener.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/api/student/", s.CallbackHandler())
	mux.Handle("/api/mentor/", s.CallbackHandler())
	mux.Handle(wire.PathProgress, s.CallbackHandler())
	mux.HandleFunc("GET "+wire.PathStatus, s.status)
	mux.HandleFunc("POST "+wire.PathStop, s.stop)
	mux.HandleFunc("GET "+wire.PathProgress, s.currentProgress)
	mux.HandleFunc("POST "+PathDashboardLogin, s.dashboardLogin)
	s.control(mux)
	s.actions(mux)
	s.observe(mux)
	// Only this machine, by a loopback name: a web page whose DNS name is
	// rebound to 127.0.0.1 must not read a run's status or drive it. Reads
	// need the controller's token as well.
	return sameHostOnly(s.readAuth(mux))
}

func (s *Server) studentResult(w http.ResponseWriter, r *http.Request) {
	var req wire.StudentResultRequest
	name, attempt, ok := s.callback(w, r, status.RoleStudent, &req)
	if !ok {
		return
	}
	if err := validateStudentOutput(req.StudentOutput); err != nil {
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	// A count posted from a container is the container's to forge: only an
	// in-process Student's coverage is a fact (docs/security.md).
	req.StudentOutput.Coverage = nil
	s.accept(w, name, &Result{Attempt: attempt, Role: status.RoleStudent, ReceivedAt: time.Now().UTC(), Student: &req})
}

func (s *Server) mentorResult(w http.ResponseWriter, r *http.Request) {
	var req wire.MentorResultRequest
	name, attempt, ok := s.callback(w, r, status.RoleMentor, &req)
	if !ok {
		return
	}
	if strings.TrimSpace(req.MentorOutput) == "" {
		writeError(w, http.StatusUnprocessableEntity, "mentorOutput must not be empty")
		return
	}
	s.accept(w, name, &Result{Attempt: attempt, Role: status.RoleMentor, ReceivedAt: time.Now().UTC(), Mentor: &req})
}

func (s *Server) progress(w http.ResponseWriter, r *http.Request) {
	var req wire.ProgressRequest
	name, attempt, ok := s.callback(w, r, "", &req)
	if !ok {
		return
	}
	p := &events.Progress{Step: req.Step, Line: req.Line, At: time.Now().UTC()}
	if err := s.b.PutProgress(name, attempt, p); err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSONResponse(w, http.StatusOK, map[string]bool{"acknowledged": true})
}

// accept keeps a result in the inbox before acknowledging it, then wakes
// the run's reconciler.
func (s *Server) accept(w http.ResponseWriter, name string, p *Result) {
	stopping, err := s.b.PutResult(name, p)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "keep result: "+err.Error())
		return
	}
	next := "continue"
	if stopping {
		next = "stop"
	}
	writeJSONResponse(w, http.StatusOK, wire.ResultResponse{Acknowledged: true, NextAction: next})
}

// callback authenticates a container's POST and decodes its body. The token
// says which run it is; the attempt header must be the container the run is
// waiting on (role "" accepts either role).
func (s *Server) callback(w http.ResponseWriter, r *http.Request, role status.Role, body any) (name, attempt string, ok bool) {
	run, found, ok := s.authenticateAttempt(w, r, role)
	if !found {
		w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
		writeError(w, http.StatusUnauthorized, "a valid attempt token is required")
		return "", "", false
	}
	if !ok || s.refuseBrainRun(w, run.Metadata.Name) {
		return "", "", false
	}
	if !decodeBody(w, r, body) {
		return "", "", false
	}
	attempt = r.Header.Get(wire.HeaderAttempt)
	want, wantRole := s.b.ExpectedAttempt(run)
	if want == "" || want != attempt || (role != "" && wantRole != role) {
		writeError(w, http.StatusConflict, fmt.Sprintf("run %s is not waiting for %s %q", run.Metadata.Name, orAny(role), attempt))
		return "", "", false
	}
	return run.Metadata.Name, attempt, true
}

// authenticate finds the run whose token the request carries (401 without one).
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*status.Run, bool) {
	token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if found && token != "" {
		for _, name := range s.b.Names() {
			run, err := s.b.Run(name)
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

func (s *Server) status(w http.ResponseWriter, r *http.Request) {
	name, ok := s.pickRun(w, r)
	if !ok {
		return
	}
	if err := s.b.LastError(name); err != nil {
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	run, err := s.b.Run(name)
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
func (s *Server) currentProgress(w http.ResponseWriter, r *http.Request) {
	name, ok := s.pickRun(w, r)
	if !ok {
		return
	}
	run, err := s.b.Run(name)
	if err != nil {
		writeRunError(w, err)
		return
	}
	if run.Status.Attempt == nil {
		writeJSONResponse(w, http.StatusOK, struct{}{})
		return
	}
	p, err := s.b.Progress(name, run.Status.Attempt.Container)
	if err != nil || p == nil {
		writeJSONResponse(w, http.StatusOK, struct{}{})
		return
	}
	writeJSONResponse(w, http.StatusOK, p)
}

// stop asks the loop to end and answers with its final state once it has
// (or after 15 s, with the state as it is).
func (s *Server) stop(w http.ResponseWriter, r *http.Request) {
	run, ok := s.authenticate(w, r)
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
		if err := s.b.RequestStop(name, req.Reason); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), 15*time.Second)
		defer cancel()
		if final, err := s.b.WaitFinished(ctx, name); err == nil {
			run = final
		} else if cur, err := s.b.Run(name); err == nil {
			run = cur
		}
	}
	writeJSONResponse(w, http.StatusOK, wire.StopResponse{Stopped: run.Status.Phase.Terminal(), FinalState: run.Status.LoopState()})
}

// pickRun is the run named by ?name=, or the only run.
func (s *Server) pickRun(w http.ResponseWriter, r *http.Request) (string, bool) {
	if name := r.URL.Query().Get("name"); name != "" {
		if !s.b.Known(name) {
			writeRunError(w, status.UnknownRun(name))
			return "", false
		}
		return name, true
	}
	names := s.b.Names()
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
