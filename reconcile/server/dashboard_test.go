package server_test

import (
	. "github.com/smile-loop/smile/reconcile/server"

	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func get(t *testing.T, url, host string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+testControlToken)
	if host != "" {
		req.Host = host
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func TestDashboardIsServed(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()

	resp, body := get(t, base+"/", "")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, id := range []string{`id="runs"`, `id="runs-body"`, `id="connection"`, `/dashboard/index.js`} {
		if !strings.Contains(body, id) {
			t.Errorf("the index has no %s", id)
		}
	}
	resp, body = get(t, base+"/run?name=demo", "")
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("GET /run: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, id := range []string{`id="stop"`, `id="rerun"`, `id="coverage"`, `id="phase"`, `id="iteration"`, `id="status"`, `id="current-step"`, `id="gaps"`, `id="notes"`, `id="timeline"`, `id="tutorial"`, `id="generation"`, `id="report"`} {
		if !strings.Contains(body, id) {
			t.Errorf("the page has no %s", id)
		}
	}
	// Offline and self-contained: nothing is fetched from elsewhere.
	if strings.Contains(body, "://") {
		t.Errorf("the page refers to another site")
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}

	for path, ctype := range map[string]string{"/dashboard/run.js": "text/javascript", "/dashboard/index.js": "text/javascript",
		"/dashboard/common.js": "text/javascript", "/dashboard/dashboard.css": "text/css"} {
		resp, body := get(t, base+path, "")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) || body == "" {
			t.Errorf("GET %s: %d %q", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		if strings.Contains(body, "http://") || strings.Contains(body, "https://") {
			t.Errorf("%s refers to another site", path)
		}
	}
	for _, path := range []string{"/dashboard/nope.js", "/dashboard/", "/nope"} {
		if resp, _ := get(t, base+path, ""); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, resp.StatusCode)
		}
	}
	// A page on another site whose name was rebound to 127.0.0.1 is refused.
	if resp, _ := get(t, base+"/", "evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("GET / with Host evil.example: %d, want 403", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/", "localhost"); resp.StatusCode != http.StatusOK {
		t.Errorf("GET / with Host localhost: %d, want 200", resp.StatusCode)
	}
}

func TestTutorialAPI(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr()

	for _, query := range []string{"", "?name=demo"} {
		resp, body := get(t, base+"/api/tutorial"+query, "")
		var tut TutorialResponse
		if err := json.Unmarshal([]byte(body), &tut); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /api/tutorial%s: %d %s %v", query, resp.StatusCode, body, err)
		}
		if tut.Name != "demo" || tut.Path != "tutorial.md" || tut.Content != tutorialMD || tut.LineCount != 7 {
			t.Errorf("GET /api/tutorial%s = %+v", query, tut)
		}
		if !strings.Contains(tut.HTML, `<h1 data-line="1">Demo</h1>`) || !strings.Contains(tut.HTML, `<pre class="code-block" data-line="5" data-end-line="7"`) {
			t.Errorf("GET /api/tutorial%s: the rendered page %q lacks its lines", query, tut.HTML)
		}
	}
	if resp, _ := get(t, base+"/api/tutorial?name=nope", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown run: %d, want 404", resp.StatusCode)
	}
	if resp, _ := get(t, base+"/api/tutorial", "evil.example:80"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another host: %d, want 403", resp.StatusCode)
	}
	// Containers reach only the callbacks.
	if resp, _ := get(t, "http://"+m.CallbackAddr()+"/api/tutorial", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("the callback listener serves the tutorial: %d", resp.StatusCode)
	}
}
