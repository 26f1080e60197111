package reconcile

import (
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/status"
)

// The callback tokens of in-container attempts are the server's
// (server.Tokens): the reconciler issues one when it starts an attempt and
// revokes them when the attempt ends; the callback API checks them.

func (r *Reconciler) issueToken(run, attempt string, role status.Role) string {
	return r.tokens.Issue(run, attempt, role)
}

func (r *Reconciler) revokeTokens(run string) { r.tokens.Revoke(run) }

func (r *Reconciler) lookupToken(token string) (server.AttemptToken, bool) {
	return r.tokens.Lookup(token)
}
