package server

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// refuseBrainRun answers 403 to a callback for a run whose learner runs in
// this controller: its results come from the controller itself, so any
// POST claiming to be one is forged, whatever token it carries.
func (s *Server) refuseBrainRun(w http.ResponseWriter, name string) bool {
	if !s.b.BrainRun(name) {
		return false
	}
	writeError(w, http.StatusForbidden, fmt.Sprintf("run %s takes no callbacks: its learner runs in the controller", name))
	return true
}

// authenticateAttempt checks a callback's attempt token: 403 when it was
// revoked (its attempt ended), belongs to another role, or names another
// attempt than the header does. found is false for a token that is no
// attempt's: only attempt tokens buy callbacks.
func (s *Server) authenticateAttempt(w http.ResponseWriter, r *http.Request, role status.Role) (run *status.Run, found, ok bool) {
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if token == "" {
		return nil, false, false
	}
	t, found := s.b.AttemptToken(token)
	if !found {
		return nil, false, false
	}
	switch {
	case t.Revoked:
		writeError(w, http.StatusForbidden, "this attempt's token was revoked: its attempt is over")
	case role != "" && t.Role != role:
		writeError(w, http.StatusForbidden, fmt.Sprintf("a %s token cannot post a %s result", t.Role, role))
	case r.Header.Get(wire.HeaderAttempt) != t.Attempt:
		writeError(w, http.StatusForbidden, "the token belongs to another attempt")
	default:
		run, err := s.b.Run(t.Run)
		if err != nil {
			writeRunError(w, err)
			return nil, true, false
		}
		return run, true, true
	}
	return nil, true, false
}
