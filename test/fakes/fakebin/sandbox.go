package fakebin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Sandbox is a container's folders on the host, for running a provider
// against the fake CLIs without Docker.
type Sandbox struct {
	Work, TutorialDir, Logs, Home string
	Tutorial                      string // the tutorial file
	Scenario                      string // the fake's scenario file
}

// NewSandbox writes the tutorial and the scenario into fresh folders.
func NewSandbox(t testing.TB, tutorial string, scenario any) *Sandbox {
	t.Helper()
	root := t.TempDir()
	s := &Sandbox{Work: filepath.Join(root, "work"), TutorialDir: filepath.Join(root, "tutorial"), Logs: filepath.Join(root, "logs"), Home: filepath.Join(root, "home")}
	for _, d := range []string{s.Work, s.TutorialDir, s.Logs, s.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.Tutorial = filepath.Join(s.TutorialDir, "tutorial.md")
	if err := os.WriteFile(s.Tutorial, []byte(tutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(scenario, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	s.Scenario = filepath.Join(s.TutorialDir, "fake-scenario.json")
	if err := os.WriteFile(s.Scenario, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// Task writes the task the fake reads its role and iteration from.
func (s *Sandbox) Task(t testing.TB, role status.Role, iteration int, p spec.Provider, llm *wire.TaskLLM) *wire.Task {
	t.Helper()
	task := &wire.Task{Run: "test", Role: role, Provider: p, Iteration: iteration, Attempt: "test-" + string(role),
		Tutorial: s.Tutorial, Behavior: spec.DefaultConfig().StudentBehavior, MentorNotes: []status.MentorNote{}, LLM: llm}
	data, _ := json.Marshal(task)
	if err := os.WriteFile(filepath.Join(s.Logs, wire.TaskFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return task
}

// Env is the environment of the wrapper: PATH and the fake's settings,
// HOME in the sandbox, and extra (such as the API key).
func (s *Sandbox) Env(extra ...string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + s.Home, "LANG=C.UTF-8",
		"FAKE_SCENARIO=" + s.Scenario, "FAKE_LOG_DIR=" + s.Logs, "FAKE_TASK=" + filepath.Join(s.Logs, wire.TaskFileName)}
	return append(env, extra...)
}

// Getenv reads name from env (the last value wins).
func Getenv(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if len(kv) > len(name) && kv[:len(name)] == name && kv[len(name)] == '=' {
			v = kv[len(name)+1:]
		}
	}
	return v
}
