package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/reconcile/internal/apitest"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A finished run's report files are served to the dashboard, each as the
// file its status names, as text the browser never runs; before the report
// is written there is none.
func TestReportFilesAreServed(t *testing.T) {
	m, _ := startManager(t)
	base := "http://" + m.APIAddr() + "/api/report?file="
	if resp, _ := get(t, base+"markdown", ""); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a running loop's report: %d, want 404", resp.StatusCode)
	}
	token, container := attempt(t, m)
	body, _ := json.Marshal(wire.StudentResultRequest{StudentOutput: status.StudentOutput{
		Status: status.StudentCompleted, CurrentStep: "line 6: ./run.sh", Line: 6, Summary: "done"}})
	if code, out := apitest.Post(t, "http://"+m.CallbackAddr()+wire.PathStudentResult, token, container, body); code != http.StatusOK {
		t.Fatalf("result: %d %v", code, out)
	}
	var rep *status.ReportRef
	for deadline := time.Now().Add(5 * time.Second); rep == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if run, err := m.Run("demo"); err == nil && run.Status.Report != nil {
			rep = run.Status.Report
		}
	}
	if rep == nil {
		t.Fatal("no report was written")
	}
	for file, path := range map[string]string{"markdown": rep.Markdown, "json": rep.JSON, "audit": rep.AuditLog} {
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		resp, got := get(t, base+file, "")
		if resp.StatusCode != http.StatusOK || got != string(want) {
			t.Errorf("GET %s: %d, %d bytes; want the %d bytes of %s", file, resp.StatusCode, len(got), len(want), path)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") ||
			strings.Contains(resp.Header.Get("Content-Type"), "html") {
			t.Errorf("GET %s: headers %v: a report must never run as a page", file, resp.Header)
		}
	}
	if resp, _ := get(t, base+"../state.json", ""); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("another file: %d, want 400", resp.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodGet, base+"markdown", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a report without the token: %v %v, want 401", resp, err)
	} else {
		resp.Body.Close()
	}
}
