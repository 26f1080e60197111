package reconcile

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// TokenCookie holds the controller's token in the dashboard's browser.
const TokenCookie = "smile_token"

// TokenParam is the query parameter of the dashboard URL `apply --wait`
// prints (the way Jupyter hands its token to a browser).
const TokenParam = "token"

// readAuth guards the loopback API's reads (status, progress, events, the
// dashboard and its data) with the controller's token, which only the user
// who started the controller can read (.smile/controller.json is 0600): any
// other local user could otherwise read a run's commands and outputs. A
// request proves it with a Bearer header (the CLI), a cookie (the browser),
// or once with ?token=, which sets the cookie and redirects to the same URL
// without the token so it does not stay in the address bar or history.
// Writes keep their own checks (run tokens for results and stop, the
// controller's for apply and delete).
func (a *API) readAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		want := a.m.opts.ControlToken
		if bearer, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && sameToken(bearer, want) {
			next.ServeHTTP(w, r)
			return
		}
		if q := r.URL.Query(); q.Has(TokenParam) && sameToken(q.Get(TokenParam), want) {
			http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: want, Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode})
			if r.Header.Get("Upgrade") != "" {
				next.ServeHTTP(w, r) // a WebSocket cannot follow a redirect
				return
			}
			q.Del(TokenParam)
			u := *r.URL
			u.RawQuery = q.Encode()
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if c, err := r.Cookie(TokenCookie); err == nil && sameToken(c.Value, want) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
		writeError(w, http.StatusUnauthorized, "the controller's token is required: open the dashboard URL smile prints, or send the token of .smile/controller.json")
	})
}

// sameToken compares in constant time; an empty expected token matches
// nothing.
func sameToken(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
