package server

import (
	"errors"
	"net/http"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// The dashboard's actions on one run: stop it, or run it again (a forced
// re-apply of its manifest). Part of the control API: the CLI calls them
// with the controller's token, the dashboard with its session cookie and
// the session's action token (PathSession) in HeaderAction, which a page of
// another site can neither read nor send.
const (
	PathStopRun  = "/api/runs/{name}/stop"
	PathRerunRun = "/api/runs/{name}/rerun"
	// PathSession gives the dashboard its action token (GET, read auth).
	PathSession = "/api/session"
	// HeaderAction carries the action token of the dashboard's session.
	HeaderAction = "X-Smile-Action"
)

// SessionResponse is the body of GET /api/session.
type SessionResponse struct {
	ActionToken string `json:"actionToken"`
}

// ActionResponse is the body of a run action's answer.
type ActionResponse struct {
	Name  string       `json:"name"`
	Phase status.Phase `json:"phase,omitempty"`
	// Stopping: the stop was asked for; the run ends shortly.
	Stopping bool `json:"stopping,omitempty"`
	// Outcome is the re-apply's (configured: a new generation).
	Outcome any `json:"outcome,omitempty"`
}

func (s *Server) actions(mux *http.ServeMux) {
	mux.HandleFunc("GET "+PathSession, func(w http.ResponseWriter, _ *http.Request) {
		writeJSONResponse(w, http.StatusOK, SessionResponse{ActionToken: s.logins.action})
	})
	mux.HandleFunc("POST "+PathStopRun, s.stopRun)
	mux.HandleFunc("POST "+PathRerunRun, s.rerunRun)
}

// actor checks a run action's caller: the controller's token, or the
// dashboard's session with its action token, from this dashboard's origin.
func (s *Server) actor(w http.ResponseWriter, r *http.Request) bool {
	if _, bearer := r.Header["Authorization"]; bearer {
		return s.controller(w, r)
	}
	c, err := r.Cookie(TokenCookie)
	if err != nil || !sameToken(c.Value, s.logins.session) || !sameToken(r.Header.Get(HeaderAction), s.logins.action) {
		writeError(w, http.StatusUnauthorized, "the controller's token, or the dashboard's session and its action token, is required")
		return false
	}
	if !sameOrigin(r) {
		writeError(w, http.StatusForbidden, "origin "+r.Header.Get("Origin")+" is not this dashboard's")
		return false
	}
	return true
}

// knownRun finds the run an action names (404 when it is not applied).
func (s *Server) knownRun(w http.ResponseWriter, r *http.Request) (*status.Run, bool) {
	name := r.PathValue("name")
	if !s.b.Known(name) {
		writeRunError(w, status.UnknownRun(name))
		return nil, false
	}
	run, err := s.b.Run(name)
	if err != nil {
		writeRunError(w, err)
		return nil, false
	}
	return run, true
}

// stopRun asks a run's loop to end and answers at once (202); the run's
// events say when it has.
func (s *Server) stopRun(w http.ResponseWriter, r *http.Request) {
	if !s.actor(w, r) {
		return
	}
	run, ok := s.knownRun(w, r)
	if !ok {
		return
	}
	name := run.Metadata.Name
	if run.Status.Phase.Terminal() {
		writeError(w, http.StatusConflict, "run "+name+" has already ended ("+string(run.Status.Phase)+")")
		return
	}
	if err := s.b.RequestStop(name, "stopped from the dashboard"); err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSONResponse(w, http.StatusAccepted, ActionResponse{Name: name, Phase: run.Status.Phase, Stopping: true})
}

// rerunRun applies a run again from its manifest: a new generation even
// when nothing changed. A run still at work is refused (409).
func (s *Server) rerunRun(w http.ResponseWriter, r *http.Request) {
	if !s.actor(w, r) {
		return
	}
	run, ok := s.knownRun(w, r)
	if !ok {
		return
	}
	name := run.Metadata.Name
	res, err := s.b.Rerun(name)
	switch {
	case errors.Is(err, store.ErrLoopRunning):
		writeError(w, http.StatusConflict, err.Error())
		return
	case errors.Is(err, status.ErrUnknownRun):
		writeRunError(w, err)
		return
	case err != nil:
		writeError(w, http.StatusUnprocessableEntity, err.Error())
		return
	}
	writeJSONResponse(w, http.StatusOK, ActionResponse{Name: name, Outcome: res})
}
