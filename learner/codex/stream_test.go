package codex

import (
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/learner/agent"
)

// command_execution items as `codex exec --json` prints them. Their status
// is in_progress, completed, failed or declined, and exit_code is null until
// the command ran (CommandExecutionStatus and CommandExecutionItem in
// codex-rs/exec/src/exec_events.rs, openai/codex at 1ebb1bc7). A declined
// command never ran.
func TestCommandItemsKeepHowTheyEnded(t *testing.T) {
	cases := []struct {
		name       string
		line       string
		wantCode   int
		wantOutput string
	}{
		{name: "completed", wantCode: 0, wantOutput: "ok",
			line: `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'npm init -y'","aggregated_output":"ok","exit_code":0,"status":"completed"}}`},
		{name: "failed with its code", wantCode: 127, wantOutput: "node: command not found",
			line: `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'node index.js'","aggregated_output":"node: command not found","exit_code":127,"status":"failed"}}`},
		{name: "failed without a code", wantCode: 1,
			line: `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'node index.js'","aggregated_output":"","exit_code":null,"status":"failed"}}`},
		{name: "declined", wantCode: ExitDeclined, wantOutput: "declined",
			line: `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc 'rm -rf notes'","aggregated_output":"","exit_code":null,"status":"declined"}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &stream{call: agent.Call{}.WithDefaults(), started: map[string]time.Time{}}
			s.line(c.line)
			if len(s.commands) != 1 {
				t.Fatalf("commands = %+v", s.commands)
			}
			if got := s.commands[0]; got.ExitCode != c.wantCode || !strings.Contains(got.Output, c.wantOutput) {
				t.Errorf("command = exit %d output %q, want exit %d output with %q", got.ExitCode, got.Output, c.wantCode, c.wantOutput)
			}
		})
	}
}
