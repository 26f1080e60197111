package reconcile

import (
	"crypto/subtle"

	"github.com/smile-loop/smile/status"
)

// attemptToken is the callback token of one attempt of a run whose learner
// runs in its container (the vendor CLIs): it buys that attempt's posts of
// its own role, and only until the attempt ends.
type attemptToken struct {
	token   string
	run     string
	attempt string
	role    status.Role
	revoked bool
}

// issueToken makes the attempt's token and revokes the run's earlier ones.
// Tokens live in memory only: a restarted controller starts its attempts
// again, with new tokens.
func (r *Reconciler) issueToken(run, attempt string, role status.Role) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tokens {
		if t.run == run {
			t.revoked = true
		}
	}
	t := &attemptToken{token: newID(), run: run, attempt: attempt, role: role}
	r.tokens = append(r.tokens, t)
	return t.token
}

// revokeTokens ends the run's attempt tokens (its attempt is over).
func (r *Reconciler) revokeTokens(run string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tokens {
		if t.run == run {
			t.revoked = true
		}
	}
}

// lookupToken finds an attempt token (revoked ones too, so that their use
// is refused as such rather than as an unknown token).
func (r *Reconciler) lookupToken(token string) (attemptToken, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, t := range r.tokens {
		if subtle.ConstantTimeCompare([]byte(t.token), []byte(token)) == 1 {
			return *t, true
		}
	}
	return attemptToken{}, false
}
