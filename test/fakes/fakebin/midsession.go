package fakebin

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// MidSession is a failure that comes after the agent has run tools, played
// by the fake CLI for the Student's first iteration: every CLI provider's
// tests run the same cases.
type MidSession struct {
	Name string
	// Scenario is the fake's scenario (student-1).
	Scenario map[string]any
	// TimeoutSeconds is the invocation timeout the task gives.
	TimeoutSeconds int
	// Want are words the Student's reason must hold; Forbid words it must
	// not.
	Want, Forbid []string
	// Invocations is how many times the CLI must have started; Waits how
	// many backoff waits the runner must have made.
	Invocations, Waits int
}

// firstRunFile is what the first invocation writes into the work folder
// in the cases that run a command before they fail.
const firstRunFile = "first-run.txt"

// MidSessionCases are the cases, final being the fields of the answer a
// rerun would give (the scenario's answer or answerJson).
func MidSessionCases(final map[string]any) []MidSession {
	write := "echo first > " + firstRunFile
	late429 := map[string]any{"run": []string{write}, "fail": "rate_limit", "lateFail": true}
	return []MidSession{
		{Name: "a 429 after commands is E11 and the CLI is not run again in the changed folder",
			Scenario:       map[string]any{"student-1": []map[string]any{late429, final}},
			TimeoutSeconds: 60, Want: []string{"(E11)", "not run again"}, Forbid: []string{"(E13)"}, Invocations: 1},
		{Name: "a 429 reported late whose rerun runs into the timeout is E11, not E13",
			Scenario: map[string]any{"student-1": []map[string]any{{"fail": "rate_limit", "lateFail": true, "sleepSeconds": 1},
				merge(final, map[string]any{"sleepSeconds": 30})}},
			TimeoutSeconds: 5, Want: []string{"(E11)", "ran into the invocation timeout"}, Forbid: []string{"(E13)"}, Invocations: 2, Waits: 1},
		{Name: "a timeout after commands is E13 and the CLI is not run again",
			Scenario:       map[string]any{"student-1": []map[string]any{merge(final, map[string]any{"run": []string{write}, "stallSeconds": 30}), final}},
			TimeoutSeconds: 2, Want: []string{"(E13)"}, Forbid: []string{"(E11)"}, Invocations: 1},
	}
}

func merge(a, b map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// Check checks a case's outcome: the reason's words, how often the fake
// CLI cli started (a killed run leaves no record, so its start count is
// read: one start means no rerun began in the folder the first run had
// changed), and the backoff waits.
func (c MidSession) Check(t *testing.T, sb *Sandbox, cli, reason string, waits int) {
	t.Helper()
	for _, w := range c.Want {
		if !strings.Contains(reason, w) {
			t.Errorf("reason %q does not say %q", reason, w)
		}
	}
	for _, w := range c.Forbid {
		if strings.Contains(reason, w) {
			t.Errorf("reason %q says %q", reason, w)
		}
	}
	data, _ := os.ReadFile(filepath.Join(sb.Logs, "fake-"+cli+"-count"))
	if n, _ := strconv.Atoi(strings.TrimSpace(string(data))); n != c.Invocations {
		t.Errorf("%s started %d times, want %d", cli, n, c.Invocations)
	}
	if waits != c.Waits {
		t.Errorf("%d backoff waits, want %d", waits, c.Waits)
	}
}
