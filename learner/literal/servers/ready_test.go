package servers

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The probes are shell scripts: each names what it asks, and one that is
// run by bash against nothing listening says it is not up.
func TestProbe(t *testing.T) {
	for _, tt := range []struct {
		port  int
		url   string
		wants []string
	}{
		{8080, "", []string{"/dev/tcp/127.0.0.1/8080", readyMark}},
		{0, "http://localhost:5000/health", []string{"/dev/tcp/localhost/5000", "GET /health HTTP/1.0", "Host: localhost:5000", "[123][0-9][0-9]"}},
		{0, "http://127.0.0.1/", []string{"/dev/tcp/127.0.0.1/80", "GET / HTTP/1.0"}},
		{0, "https://localhost:8443/x", []string{"/dev/tcp/localhost/8443"}},
	} {
		got := Probe(tt.port, tt.url)
		for _, w := range tt.wants {
			if !strings.Contains(got, w) {
				t.Errorf("Probe(%d, %q) = %q, lacks %q", tt.port, tt.url, got, w)
			}
		}
	}
	if Probe(0, "") != "" || Probe(0, "http://") != "" {
		t.Errorf("nothing to ask gave a probe")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	out, _ := exec.Command("bash", "-c", Probe(1, "")).CombinedOutput()
	if Answered(string(out)) {
		t.Errorf("a probe of port 1, where nothing listens, answered: %q", out)
	}
}

// Against a real HTTP server: a port that accepts and a URL that answers
// 200 are up; a URL that answers 500 is not.
func TestProbeAgainstAServer(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	port, _ := strconv.Atoi(u.Port())
	run := func(script string) bool {
		out, _ := exec.Command("bash", "-c", script).CombinedOutput()
		return Answered(string(out))
	}
	if !run(Probe(port, "")) {
		t.Errorf("port %d accepts, but the probe says it is not up", port)
	}
	if !run(Probe(0, srv.URL+"/health")) {
		t.Errorf("%s/health answers 200, but the probe says it is not up", srv.URL)
	}
	if run(Probe(0, srv.URL+"/broken")) {
		t.Errorf("%s/broken answers 500, but the probe says it is up", srv.URL)
	}
}
