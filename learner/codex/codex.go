// Package codex is the codex provider: the Codex CLI (`codex exec`) run
// headless inside the container, its progress and answer read from its
// --json event stream. Codex's own bubblewrap sandbox fails inside Docker,
// so it runs with --dangerously-bypass-approvals-and-sandbox and the
// container is the sandbox: the Mentor's work folder is mounted read-only
// and the Student's network is studentNetwork. Web search is off for the
// Student and live for the Mentor. Codex has no turn limit flag: the
// invocation timeout bounds it.
package codex

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// New returns the codex provider.
func New() provider.Provider { return agent.Runner{Backend: Backend{}} }

// Backend runs the Codex CLI.
type Backend struct {
	// Path is the program ("" means codex on PATH).
	Path string
}

// Name is part of the agent.Backend interface.
func (Backend) Name() spec.Provider { return spec.ProviderCodex }

// CLI is part of the agent.Backend interface.
func (Backend) CLI() string { return "codex" }

// ImageMode is part of the agent.Backend interface: images go with --image.
func (Backend) ImageMode() prompt.ImageMode { return prompt.ImagesAttached }

// Tools is part of the agent.Backend interface.
func (Backend) Tools(status.Role) string { return "" }

// Web is part of the agent.Backend interface.
func (Backend) Web() bool { return true }

// Args are the flags of one invocation; schema and last are the files of
// --output-schema and -o.
func Args(call agent.Call, promptArg, schema, last string) []string {
	web := `web_search="disabled"`
	if call.Role == status.RoleMentor && !call.Repair {
		web = `web_search="live"`
	}
	args := []string{"exec", "--json",
		"--skip-git-repo-check", "--ephemeral",
		"-C", call.WorkDir,
		"--dangerously-bypass-approvals-and-sandbox",
		"-c", web,
		"--output-schema", schema,
		"-o", last,
	}
	if call.Model != "" {
		args = append(args, "-m", call.Model)
	}
	if len(call.Images) > 0 && !call.Repair {
		paths := make([]string, len(call.Images))
		for i, img := range call.Images {
			paths[i] = img.Path
		}
		args = append(args, "--image="+strings.Join(paths, ","))
	}
	return append(args, "--", promptArg)
}

// Invoke is part of the agent.Backend interface.
func (b Backend) Invoke(ctx context.Context, call agent.Call) (agent.Reply, error) {
	call = call.WithDefaults()
	path := b.Path
	if path == "" {
		path = "codex"
	}
	dir, err := os.MkdirTemp("", "smile-codex-")
	if err != nil {
		return agent.Reply{}, err
	}
	defer os.RemoveAll(dir)
	schema, last := filepath.Join(dir, "schema.json"), filepath.Join(dir, "last-message.txt")
	if err := os.WriteFile(schema, agent.AnswerSchema(call.Role, true), 0o644); err != nil {
		return agent.Reply{}, err
	}
	promptArg, cleanup, err := agent.PromptArg(call.Prompt)
	if err != nil {
		return agent.Reply{}, err
	}
	defer cleanup()
	st := &stream{call: call, started: map[string]time.Time{}}
	res, err := agent.RunCLI(ctx, agent.Exec{Path: path, Args: Args(call, promptArg, schema, last), Dir: call.WorkDir, Env: call.Env, OnLine: st.line})
	if err != nil {
		return agent.Reply{}, fmt.Errorf("run codex: %w", err)
	}
	lastMessage, _ := os.ReadFile(last)
	return st.finish(res, string(lastMessage))
}

// event is one line of `codex exec --json`.
type event struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Message  string `json:"message"`
	Usage    *struct {
		InputTokens       int64 `json:"input_tokens"`
		CachedInputTokens int64 `json:"cached_input_tokens"`
		OutputTokens      int64 `json:"output_tokens"`
	} `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
	Item *item `json:"item"`
}

type item struct {
	ID               string `json:"id"`
	Type             string `json:"type"`
	Text             string `json:"text"`
	Command          string `json:"command"`
	AggregatedOutput string `json:"aggregated_output"`
	ExitCode         *int   `json:"exit_code"`
	Status           string `json:"status"`
	Query            string `json:"query"`
	Message          string `json:"message"`
	Changes          []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
}

type stream struct {
	call     agent.Call
	started  map[string]time.Time
	commands []status.AuditCommand
	files    []status.AuditFile
	in, out  int64
	text     string
	failure  string
	errors   []string
}

func (s *stream) line(l string) {
	var e event
	if !strings.HasPrefix(strings.TrimSpace(l), "{") || json.Unmarshal([]byte(l), &e) != nil {
		return
	}
	role := string(s.call.Role)
	switch e.Type {
	case "item.started":
		if it := e.Item; it != nil {
			s.started[it.ID] = time.Now()
			switch it.Type {
			case "command_execution":
				s.call.Progress(fmt.Sprintf("%s: running `%s`", role, textutil.FirstLine(it.Command)), s.call.Locate(it.Command))
			case "web_search":
				s.call.Progress(fmt.Sprintf("%s: researching %s", role, it.Query), 0)
			}
		}
	case "item.completed":
		s.item(e.Item)
	case "turn.completed":
		if e.Usage != nil {
			s.in += e.Usage.InputTokens
			s.out += e.Usage.OutputTokens
		}
	case "turn.failed":
		if e.Error != nil {
			s.failure = e.Error.Message
		}
	case "error":
		// Also used for "Reconnecting... n/5" while codex retries.
		s.errors = append(s.errors, e.Message)
		s.call.Progress(fmt.Sprintf("%s: %s", role, textutil.FirstLine(e.Message)), 0)
	}
}

func (s *stream) item(it *item) {
	if it == nil {
		return
	}
	start, ok := s.started[it.ID]
	if !ok {
		start = time.Now()
	}
	switch it.Type {
	case "agent_message":
		s.text = it.Text
	case "command_execution":
		code, output := commandExit(it)
		s.commands = append(s.commands, status.AuditCommand{Command: unwrapShell(it.Command), ExitCode: code, Output: output,
			StartedAt: start, DurationMs: time.Since(start).Milliseconds(), Line: s.call.Locate(unwrapShell(it.Command))})
	case "file_change":
		for _, c := range it.Changes {
			action := map[string]string{"add": "create", "update": "edit", "delete": "delete"}[c.Kind]
			if action == "" {
				action = c.Kind
			}
			path := c.Path
			if rel, err := filepath.Rel(s.call.WorkDir, path); err == nil && !strings.HasPrefix(rel, "..") {
				path = rel
			}
			s.files = append(s.files, status.AuditFile{Path: path, Action: action, WrittenAt: time.Now()})
		}
	case "error":
		s.errors = append(s.errors, it.Message)
	}
}

// ExitDeclined is the exit code recorded for a command codex declined to
// run: 126, the shell's "found but could not be run".
const ExitDeclined = 126

// commandExit reads how a command_execution item ended. exit_code is null
// for a command that did not run (status "declined") or whose code codex
// did not get (exec_events.rs: Option<i32>); neither is a success.
func commandExit(it *item) (int, string) {
	switch {
	case it.Status == "declined":
		return ExitDeclined, strings.TrimSpace(it.AggregatedOutput + "\n(declined: codex did not run this command)")
	case it.ExitCode != nil:
		return *it.ExitCode, it.AggregatedOutput
	case it.Status == "failed":
		return 1, it.AggregatedOutput
	}
	return 0, it.AggregatedOutput
}

// unwrapShell shows the command codex ran inside its `bash -lc '...'`.
func unwrapShell(cmd string) string {
	for _, p := range []string{"bash -lc ", "/bin/bash -lc ", "bash -c ", "sh -c ", "/bin/sh -c "} {
		if rest, ok := strings.CutPrefix(cmd, p); ok {
			rest = strings.TrimSpace(rest)
			if len(rest) >= 2 && (rest[0] == '\'' || rest[0] == '"') && rest[len(rest)-1] == rest[0] {
				rest = rest[1 : len(rest)-1]
				if cmd[len(p)] == '\'' {
					rest = strings.ReplaceAll(rest, `'"'"'`, "'")
				}
			}
			return rest
		}
	}
	return cmd
}

func (s *stream) finish(res agent.ExecResult, lastMessage string) (agent.Reply, error) {
	reply := agent.Reply{Commands: s.commands, Files: s.files, Stdout: res.Stdout, Stderr: res.Stderr,
		Calls: []status.LLMCall{{Model: s.call.Model, InputTokens: s.in, OutputTokens: s.out, StartedAt: res.StartedAt, DurationMs: res.Duration.Milliseconds()}}}
	if res.TimedOut {
		return reply, &agent.APIError{Kind: agent.ErrTimeout, Message: fmt.Sprintf("codex was killed after %s", res.Duration.Round(time.Second)), Partial: reply}
	}
	if s.failure != "" {
		msg := s.failure
		return reply, &agent.APIError{Kind: agent.Classify(0, msg), Message: msg, Partial: reply}
	}
	if res.ExitCode != 0 {
		msg := firstOf(strings.Join(s.errors, "; "), agent.Tail(res.Stderr, 5), fmt.Sprintf("codex exited with code %d", res.ExitCode))
		return reply, &agent.APIError{Kind: agent.Classify(0, msg), Message: msg, Partial: reply}
	}
	reply.Text = firstOf(lastMessage, s.text)
	return reply, nil
}

func firstOf(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
