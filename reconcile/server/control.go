package server

import (
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/store"
)

// The control API: what the CLI asks of a running controller. It is served
// on the loopback listener only and needs the controller's token, which the
// controller publishes in .smile/controller.json (readable by its user only).
const (
	PathApply  = "/api/apply"
	PathDelete = "/api/delete"
)

// ApplyRequest is the body of POST /api/apply.
type ApplyRequest struct {
	Manifest string `json:"manifest"` // absolute path
	// Name picks the SmileRun of a file holding several.
	Name string `json:"name,omitempty"`
	// Parallel, when above 0, sets how many runs may be active at once.
	Parallel int `json:"parallel,omitempty"`
	// Force runs an unchanged run again (a new generation) once it has
	// ended; a run still at work is refused with 409.
	Force bool `json:"force,omitempty"`
}

// DeleteRequest is the body of POST /api/delete.
type DeleteRequest struct {
	Name string `json:"name"`
}

func (s *Server) control(mux *http.ServeMux) {
	mux.HandleFunc("POST "+PathApply, s.apply)
	mux.HandleFunc("POST "+PathDelete, s.delete)
}

func (s *Server) controller(w http.ResponseWriter, r *http.Request) bool {
	token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	want := s.controlToken
	if !found || want == "" || subtle.ConstantTimeCompare([]byte(token), []byte(want)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
		writeError(w, http.StatusUnauthorized, "the controller's token is required")
		return false
	}
	return true
}

func (s *Server) apply(w http.ResponseWriter, r *http.Request) {
	if !s.controller(w, r) {
		return
	}
	var req ApplyRequest
	if !decodeBody(w, r, &req) {
		return
	}
	res, err := s.b.Apply(req)
	if err != nil {
		code := http.StatusUnprocessableEntity
		if errors.Is(err, store.ErrLoopRunning) {
			code = http.StatusConflict
		}
		writeError(w, code, err.Error())
		return
	}
	writeJSONResponse(w, http.StatusOK, res)
}

func (s *Server) delete(w http.ResponseWriter, r *http.Request) {
	if !s.controller(w, r) {
		return
	}
	var req DeleteRequest
	if !decodeBody(w, r, &req) {
		return
	}
	if !s.b.Known(req.Name) {
		writeRunError(w, status.UnknownRun(req.Name))
		return
	}
	if err := s.b.Delete(r.Context(), req.Name); err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSONResponse(w, http.StatusOK, map[string]bool{"deleted": true})
}
