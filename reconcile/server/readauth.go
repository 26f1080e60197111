package server

import (
	"crypto/subtle"
	"net/http"
	"strings"
	"sync"
)

// TokenCookie holds the dashboard's session in the browser.
const TokenCookie = "smile_session"

// TokenParam is the query parameter of the one-time dashboard URL
// `apply --wait` prints (the way Jupyter hands a token to a browser).
const TokenParam = "token"

// PathDashboardLogin mints a one-time dashboard login token (POST, with the
// controller's token), for a CLI that follows a controller it did not start.
const PathDashboardLogin = "/api/dashboard-login"

// DashboardLoginResponse is the body of POST /api/dashboard-login.
type DashboardLoginResponse struct {
	Token string `json:"token"`
}

// logins are the dashboard's login tokens, each good for one visit, and the
// session secret the visit's cookie carries: a URL copied from a CI log is
// worthless once opened, and the controller's own token never reaches the
// browser.
type logins struct {
	mu      sync.Mutex
	unused  map[string]struct{}
	session string
	// action is the session's token for the dashboard's actions (stop,
	// rerun): a page of another site could make the browser send the
	// cookie, never this header.
	action string
}

func newLogins() *logins {
	return &logins{unused: map[string]struct{}{}, session: newID(), action: newID()}
}

// DashboardLogin returns a new one-time login token for the dashboard URL.
func (s *Server) DashboardLogin() string {
	t := newID()
	s.logins.mu.Lock()
	defer s.logins.mu.Unlock()
	s.logins.unused[t] = struct{}{}
	return t
}

// redeem consumes a login token; it is good once.
func (l *logins) redeem(token string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.unused[token]; !ok || token == "" {
		return false
	}
	delete(l.unused, token)
	return true
}

// readAuth guards the loopback API's reads (status, progress, events, the
// dashboard and its data): any other local user could otherwise read a run's
// commands and outputs. A request proves itself with the controller's token
// as a Bearer header (the CLI; only the controller's user can read
// .smile/controller.json), with the session cookie (the browser), or once
// with ?token=, a one-time login token that sets the cookie and redirects to
// the same URL without it. Writes keep their own checks (run tokens for
// results and stop, the controller's for apply and delete).
func (s *Server) readAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		l := s.logins
		bearer, isBearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		c, cookieErr := r.Cookie(TokenCookie)
		hasSession := cookieErr == nil && sameToken(c.Value, l.session)
		q := r.URL.Query()
		switch {
		case isBearer && sameToken(bearer, s.controlToken):
		case q.Has(TokenParam) && (hasSession || l.redeem(q.Get(TokenParam))):
			http.SetCookie(w, &http.Cookie{Name: TokenCookie, Value: l.session, Path: "/",
				HttpOnly: true, SameSite: http.SameSiteStrictMode})
			if r.Header.Get("Upgrade") == "" { // a WebSocket cannot follow a redirect
				q.Del(TokenParam)
				u := *r.URL
				u.RawQuery = q.Encode()
				http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
				return
			}
		case hasSession:
		default:
			w.Header().Set("WWW-Authenticate", `Bearer realm="smile"`)
			writeError(w, http.StatusUnauthorized, "the controller's token is required: open the dashboard URL smile prints, or send the token of .smile/controller.json")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// dashboardLogin mints a one-time dashboard login token for the CLI.
func (s *Server) dashboardLogin(w http.ResponseWriter, r *http.Request) {
	if !s.controller(w, r) {
		return
	}
	writeJSONResponse(w, http.StatusOK, DashboardLoginResponse{Token: s.DashboardLogin()})
}

// sameToken compares in constant time; an empty expected token matches
// nothing.
func sameToken(got, want string) bool {
	return want != "" && subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}
