package server_test

import (
	. "github.com/smile-loop/smile/reconcile/server"

	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile"
	"github.com/smile-loop/smile/reconcile/internal/apitest"
	"github.com/smile-loop/smile/status"
)

// browser is a client with the dashboard's session cookie, as a browser
// has after opening the URL apply prints.
func browser(t *testing.T, m *reconcile.Manager) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get("http://" + m.APIAddr() + "/?" + TokenParam + "=" + m.DashboardLogin())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("log in: %d", resp.StatusCode)
	}
	return c
}

func call(t *testing.T, c *http.Client, method, url string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader("{}"))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestDashboardStopsAndRerunsARun: the dashboard's buttons, through the
// control API: its session alone is not enough (another site's page could
// make the browser send the cookie), the session's action token is; a run
// at work is stopped, a run that ended runs again as a new generation.
func TestDashboardStopsAndRerunsARun(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()
	c := browser(t, m)
	code, body := call(t, c, http.MethodGet, base+PathSession, nil)
	var s SessionResponse
	if err := json.Unmarshal([]byte(body), &s); code != http.StatusOK || err != nil || s.ActionToken == "" {
		t.Fatalf("GET %s: %d %s", PathSession, code, body)
	}
	stop := base + "/api/runs/demo/stop"
	for _, tc := range []struct {
		name   string
		client *http.Client
		header map[string]string
		want   int
	}{
		{"the cookie alone", c, nil, http.StatusUnauthorized},
		{"a wrong action token", c, map[string]string{HeaderAction: "nope"}, http.StatusUnauthorized},
		{"the action token without the session", http.DefaultClient, map[string]string{HeaderAction: s.ActionToken}, http.StatusUnauthorized},
		{"another site's page", c, map[string]string{HeaderAction: s.ActionToken, "Origin": "http://evil.example"}, http.StatusForbidden},
		{"a wrong controller token", http.DefaultClient, map[string]string{"Authorization": "Bearer nope"}, http.StatusUnauthorized},
	} {
		if code, body := call(t, tc.client, http.MethodPost, stop, tc.header); code != tc.want {
			t.Errorf("%s: POST stop %d %s, want %d", tc.name, code, body, tc.want)
		}
	}
	if run, _ := m.Run("demo"); run.Status.Phase.Terminal() {
		t.Fatalf("a refused stop stopped the run: %s", run.Status.Phase)
	}
	action := map[string]string{HeaderAction: s.ActionToken, "Origin": base}
	if code, body := call(t, c, http.MethodPost, base+"/api/runs/demo/rerun", action); code != http.StatusConflict {
		t.Errorf("rerun of a run at work: %d %s, want 409", code, body)
	}
	if code, body := call(t, c, http.MethodPost, stop, action); code != http.StatusAccepted {
		t.Fatalf("POST stop: %d %s, want 202", code, body)
	}
	apitest.WaitPhase(t, m, "demo", status.PhaseStopped)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := m.WaitFinished(ctx, "demo", ""); err != nil {
		t.Fatal(err)
	}
	if code, _ := call(t, c, http.MethodPost, stop, action); code != http.StatusConflict {
		t.Errorf("stop of a stopped run: %d, want 409", code)
	}
	if code, _ := call(t, c, http.MethodPost, base+"/api/runs/nope/rerun", action); code != http.StatusNotFound {
		t.Errorf("rerun of an unknown run: %d, want 404", code)
	}
	code, body = call(t, http.DefaultClient, http.MethodPost, base+"/api/runs/demo/rerun", map[string]string{"Authorization": "Bearer " + testControlToken})
	if code != http.StatusOK || !strings.Contains(body, `"outcome":"configured"`) {
		t.Fatalf("rerun with the controller's token: %d %s", code, body)
	}
	run := apitest.WaitPhase(t, m, "demo", status.PhaseWaitingForStudent)
	if run.Metadata.Generation != 2 {
		t.Errorf("the rerun is generation %d, want 2", run.Metadata.Generation)
	}
}

// TestRunsAndViewAPI: the index's rows and the run page's view.
func TestRunsAndViewAPI(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()
	_, body := get(t, base+"/api/runs", "")
	var runs RunsResponse
	if err := json.Unmarshal([]byte(body), &runs); err != nil || len(runs.Runs) != 1 {
		t.Fatalf("GET /api/runs: %s %v", body, err)
	}
	if r := runs.Runs[0]; r.Name != "demo" || r.Phase != status.PhaseWaitingForStudent || r.Result != "running" || r.Coverage != "-" {
		t.Errorf("row %+v", r)
	}
	_, body = get(t, base+"/api/view?name=demo", "")
	var v ViewResponse
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatalf("GET /api/view: %s %v", body, err)
	}
	if len(v.Steps) != 1 || v.Steps[0].Line != 5 || v.Steps[0].Mark == "" || v.Exchanges == nil {
		t.Errorf("view %+v: want the tutorial's one code block, marked", v)
	}
}
