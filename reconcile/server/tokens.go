package server

import (
	"crypto/subtle"
	"sync"

	"github.com/smile-loop/smile/status"
)

// Tokens are the callback tokens of the attempts whose learner runs in its
// container (the vendor CLIs): each buys that attempt's posts of its own
// role, and only until the attempt ends. They live in memory only: a
// restarted controller starts its attempts again, with new tokens. The zero
// value is ready to use.
type Tokens struct {
	mu   sync.Mutex
	list []*issued
}

type issued struct {
	AttemptToken
	value string
}

// Issue makes the attempt's token and revokes the run's earlier ones.
func (ts *Tokens) Issue(run, attempt string, role status.Role) string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.revoke(run)
	t := &issued{AttemptToken: AttemptToken{Run: run, Attempt: attempt, Role: role}, value: newID()}
	ts.list = append(ts.list, t)
	return t.value
}

// Revoke ends the run's attempt tokens (its attempt is over).
func (ts *Tokens) Revoke(run string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.revoke(run)
}

func (ts *Tokens) revoke(run string) {
	for _, t := range ts.list {
		if t.Run == run {
			t.Revoked = true
		}
	}
}

// Lookup finds an attempt token (revoked ones too, so that their use is
// refused as such rather than as an unknown token).
func (ts *Tokens) Lookup(token string) (AttemptToken, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.list {
		if subtle.ConstantTimeCompare([]byte(t.value), []byte(token)) == 1 {
			return t.AttemptToken, true
		}
	}
	return AttemptToken{}, false
}
