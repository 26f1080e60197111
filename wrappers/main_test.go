package wrappers

// These tests drive the wrapper against a fake controller on the host. They
// only use roles that never run tutorial commands (the Mentor, and providers
// that are not available); the Student runs in containers only
// (learner/literal's container tests).

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

type controller struct {
	mu       sync.Mutex
	progress []wire.ProgressRequest
	results  []string // paths posted to
	answers  []int    // status codes for result posts, in order; the last repeats
	bad      []string // problems with requests
}

func (c *controller) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer tok" || r.Header.Get(wire.HeaderAttempt) != "run-mentor-1" {
		c.bad = append(c.bad, "missing token or attempt header on "+r.URL.Path)
	}
	if r.URL.Path == wire.PathProgress {
		var p wire.ProgressRequest
		_ = json.NewDecoder(r.Body).Decode(&p)
		c.progress = append(c.progress, p)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	c.results = append(c.results, r.URL.Path)
	code := c.answers[min(len(c.results), len(c.answers))-1]
	w.WriteHeader(code)
	if code == http.StatusOK {
		_ = json.NewEncoder(w).Encode(wire.ResultResponse{Acknowledged: true, NextAction: "continue"})
		return
	}
	_, _ = w.Write([]byte(`{"error":"stale attempt"}`))
}

// mentorTask writes a Mentor task (and its tutorial) into a fresh layout.
func mentorTask(t *testing.T, provider spec.Provider) (layout, string) {
	t.Helper()
	dir := t.TempDir()
	dirs := layout{work: filepath.Join(dir, "work"), tutorial: filepath.Join(dir, "tutorial"), logs: filepath.Join(dir, "logs")}
	for _, d := range []string{dirs.work, dirs.tutorial, dirs.logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tut := filepath.Join(dirs.tutorial, "tutorial.md")
	if err := os.WriteFile(tut, []byte("# T\n\n```bash\njq . data.json\n```\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	finding := status.Finding{Category: status.CategoryMissingDependency, Line: 4, Quote: "jq . data.json", Command: "jq . data.json",
		ExitCode: 127, Output: "bash: line 1: jq: command not found", Asked: true}
	task := wire.Task{Run: "run", Role: status.RoleMentor, Provider: provider, Iteration: 1, Attempt: "run-mentor-1", Tutorial: tut,
		Behavior:      spec.DefaultConfig().StudentBehavior,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: 4, Findings: []status.Finding{finding}}}
	data, _ := json.Marshal(task)
	path := filepath.Join(dirs.logs, wire.TaskFileName)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dirs, path
}

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		provider   spec.Provider
		answers    []int
		noCallback bool
		wantCode   int
		wantPosts  int
		wantOutput string // in result.json
	}{
		{name: "posted", provider: spec.ProviderLiteral, answers: []int{200}, wantCode: ExitPosted, wantPosts: 1, wantOutput: "Line 4 (`jq . data.json`)"},
		{name: "5xx is retried", provider: spec.ProviderLiteral, answers: []int{503, 200}, wantCode: ExitPosted, wantPosts: 2, wantOutput: "Line 4"},
		{name: "4xx is not retried", provider: spec.ProviderLiteral, answers: []int{409}, wantCode: ExitNotPosted, wantPosts: 1, wantOutput: "Line 4"},
		{name: "no callback URL writes the file only", provider: spec.ProviderLiteral, noCallback: true, wantCode: ExitPosted, wantOutput: "Line 4"},
		{name: "missing CLI (E10)", provider: spec.ProviderCodex, answers: []int{200}, wantCode: ExitProviderUnavailable, wantPosts: 1,
			wantOutput: "LLM CLI not available: codex"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctl := &controller{answers: tt.answers}
			srv := httptest.NewServer(ctl)
			defer srv.Close()
			dirs, taskPath := mentorTask(t, tt.provider)
			env := map[string]string{wire.EnvTask: taskPath, wire.EnvToken: "tok", wire.EnvCallbackURL: srv.URL}
			if tt.noCallback {
				delete(env, wire.EnvCallbackURL)
			}
			code := run(context.Background(), logr.Discard(), func(k string) string { return env[k] }, dirs)
			if code != tt.wantCode {
				t.Errorf("exit code = %d, want %d", code, tt.wantCode)
			}
			ctl.mu.Lock()
			defer ctl.mu.Unlock()
			if len(ctl.results) != tt.wantPosts || len(ctl.bad) > 0 {
				t.Errorf("result posts = %v (want %d), problems %v", ctl.results, tt.wantPosts, ctl.bad)
			}
			for _, p := range ctl.results {
				if p != wire.PathMentorResult {
					t.Errorf("posted to %s", p)
				}
			}
			if !tt.noCallback && (len(ctl.progress) == 0 || ctl.progress[0].Step != "starting") {
				t.Errorf("progress = %+v, want a first heartbeat when starting", ctl.progress)
			}
			data, err := os.ReadFile(filepath.Join(dirs.logs, ResultFileName))
			if err != nil {
				t.Fatal(err)
			}
			var res wire.MentorResultRequest
			if err := json.Unmarshal(data, &res); err != nil || !strings.Contains(res.MentorOutput, tt.wantOutput) {
				t.Errorf("result.json = %s (%v), want it to contain %q", data, err, tt.wantOutput)
			}
			if strings.Contains(string(data), "tok") {
				t.Errorf("result.json holds the token")
			}
		})
	}
}

func TestRunBadTask(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "task.json")
	if err := os.WriteFile(bad, []byte(`{"role":"teacher"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{bad, filepath.Join(dir, "missing.json")} {
		code := run(context.Background(), logr.Discard(), func(k string) string {
			if k == wire.EnvTask {
				return path
			}
			return ""
		}, layout{logs: dir})
		if code != ExitBadTask {
			t.Errorf("%s: exit code = %d, want %d", path, code, ExitBadTask)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ResultFileName)); err == nil {
		t.Errorf("a result was written for a task that could not be read")
	}
}

func TestWriteResultIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ResultFileName)
	if err := writeResult(path, map[string]string{"a": "1"}); err != nil {
		t.Fatal(err)
	}
	if err := writeResult(path, map[string]string{"a": "2"}); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	data, _ := os.ReadFile(path)
	if len(entries) != 1 || !strings.Contains(string(data), `"a": "2"`) {
		t.Errorf("folder = %v, result = %s", entries, data)
	}
	if err := writeResult(filepath.Join(dir, "missing", ResultFileName), 1); err == nil {
		t.Errorf("writing into a missing folder succeeded")
	}
}

func TestFit(t *testing.T) {
	long := strings.Repeat("x", 1900) + "error: the end"
	req := &wire.StudentResultRequest{
		StudentOutput: status.StudentOutput{Status: status.StudentAskMentor, QuestionForMentor: "q?",
			Findings: []status.Finding{{Category: status.CategoryCommandFailure, Line: 3, Output: long}}},
		Audit: &status.Audit{},
	}
	for i := 0; i < 800; i++ {
		req.Audit.Commands = append(req.Audit.Commands, status.AuditCommand{Line: i, Command: "make", Output: long})
	}
	fit(req, MaxResultBytes)
	data, _ := json.Marshal(req)
	if len(data) > MaxResultBytes {
		t.Fatalf("result is %d bytes, over %d", len(data), MaxResultBytes)
	}
	if len(req.Audit.Commands) != 800 || req.StudentOutput.QuestionForMentor != "q?" {
		t.Errorf("fit dropped more than outputs")
	}
	if out := req.StudentOutput.Findings[0].Output; !strings.HasSuffix(out, "error: the end") {
		t.Errorf("finding output lost its end: %q", out)
	}
	small := &wire.MentorResultRequest{MentorOutput: "ok", Audit: &status.Audit{Commands: []status.AuditCommand{{Output: long}}}}
	if fit(small, MaxResultBytes); small.Audit.Commands[0].Output != long {
		t.Errorf("a result that fits was changed")
	}
}
