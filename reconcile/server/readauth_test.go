package server_test

import (
	"github.com/smile-loop/smile/reconcile"
	. "github.com/smile-loop/smile/reconcile/server"

	"net/http"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status/wire"
)

// withToken returns a copy of h carrying the controller's token.
func withToken(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	if _, set := out["Authorization"]; !set {
		out.Set("Authorization", "Bearer "+testControlToken)
	}
	return out
}

// TestReadsNeedTheControllerToken: every read of the loopback API answers
// 401 without the controller's token or with a wrong one, and 200 with it.
func TestReadsNeedTheControllerToken(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()
	paths := []string{wire.PathStatus, wire.PathStatus + "?view=run", wire.PathProgress, "/", "/run", "/dashboard/run.js", "/api/tutorial", "/api/runs", "/api/view", PathSession}
	for _, path := range paths {
		for _, tc := range []struct {
			name, auth string
			want       int
		}{
			{"no token", "", http.StatusUnauthorized},
			{"wrong token", "Bearer nope", http.StatusUnauthorized},
			{"run token is not enough", "Bearer " + runToken(t, m), http.StatusUnauthorized},
			{"controller token", "Bearer " + testControlToken, http.StatusOK},
		} {
			t.Run(path+"/"+tc.name, func(t *testing.T) {
				req, _ := http.NewRequest(http.MethodGet, base+path, nil)
				if tc.auth != "" {
					req.Header.Set("Authorization", tc.auth)
				}
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != tc.want {
					t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, tc.want)
				}
			})
		}
	}
	t.Run("ws", func(t *testing.T) {
		for auth, want := range map[string]int{"": 401, "Bearer nope": 401, "Bearer " + testControlToken: 101} {
			h := http.Header{"Authorization": {auth}}
			if got := dialStatus(t, m, "", &dialOptions{HTTPHeader: h}); got != want {
				t.Errorf("ws with %q: %d, want %d", auth, got, want)
			}
		}
	})
}

// TestDashboardTokenURLSetsACookie: the one-time URL apply prints logs the
// browser in: a session cookie (HttpOnly, SameSite=Strict) and a redirect to
// the URL without the token. The token is good once; later requests need
// only the cookie, which is not the controller's token.
func TestDashboardTokenURLSetsACookie(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	login := m.DashboardLogin()
	resp, err := noFollow.Get(base + "/?name=demo&token=" + login)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?name=demo" {
		t.Fatalf("token URL: %d Location %q, want 303 to /?name=demo", resp.StatusCode, resp.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == TokenCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Value == testControlToken {
		t.Fatalf("cookie = %+v, want an HttpOnly SameSite=Strict %s that is not the controller's token", cookie, TokenCookie)
	}
	for _, tc := range []struct {
		name   string
		url    string
		cookie *http.Cookie
		want   int
	}{
		{"cookie", wire.PathStatus, cookie, http.StatusOK},
		{"wrong cookie", wire.PathStatus, &http.Cookie{Name: TokenCookie, Value: "nope"}, http.StatusUnauthorized},
		{"login token used twice", "/?token=" + login, nil, http.StatusUnauthorized},
		{"wrong login token", "/?token=wrong", nil, http.StatusUnauthorized},
		{"controller token is no login token", "/?token=" + testControlToken, nil, http.StatusUnauthorized},
		{"used token with the cookie", "/?token=" + login, cookie, http.StatusSeeOther},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(http.MethodGet, base+tc.url, nil)
			if tc.cookie != nil {
				req.AddCookie(tc.cookie)
			}
			resp, err := noFollow.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.want {
				t.Errorf("GET %s: %d, want %d", tc.url, resp.StatusCode, tc.want)
			}
		})
	}
}

// TestDashboardLoginNeedsTheControllerToken: only the CLI (holding the
// controller's token) can mint a login token.
func TestDashboardLoginNeedsTheControllerToken(t *testing.T) {
	m, _ := startManager(t)
	for auth, want := range map[string]int{"": 401, "Bearer nope": 401, "Bearer " + testControlToken: 200} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+m.APIAddr()+PathDashboardLogin, strings.NewReader("{}"))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("POST %s with %q: %d, want %d", PathDashboardLogin, auth, resp.StatusCode, want)
		}
	}
}

// runToken is the current attempt's run token (what a container holds).
func runToken(t *testing.T, m *reconcile.Manager) string {
	t.Helper()
	run, err := m.Run("demo")
	if err != nil || run.Status.Token == "" || strings.TrimSpace(run.Status.Token) == "" {
		t.Fatalf("no run token: %v", err)
	}
	return run.Status.Token
}
