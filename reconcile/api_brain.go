package reconcile

import (
	"fmt"
	"net/http"
)

// refuseBrainRun answers 403 to a callback for a run whose learner runs in
// this controller: its results come from the controller itself, so any
// POST claiming to be one is forged, whatever token it carries.
func (a *API) refuseBrainRun(w http.ResponseWriter, name string) bool {
	if !a.m.rec.BrainRun(name) {
		return false
	}
	writeError(w, http.StatusForbidden, fmt.Sprintf("run %s takes no callbacks: its learner runs in the controller", name))
	return true
}
