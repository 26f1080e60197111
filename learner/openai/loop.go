package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// Limits on what a tool hands back to the model.
const (
	maxToolOutput = 12000
	maxReadBytes  = 100 << 10
	maxListed     = 500
)

// loop is one invocation's conversation.
type loop struct {
	b        Backend
	call     agent.Call
	cfg      config
	key      string
	client   *http.Client
	sess     *session.Session
	reply    agent.Reply
	noImages bool
	// kind is the server behind the endpoint, once an answer told.
	kind ServerKind
}

func (l *loop) close() {
	if l.sess != nil {
		_ = l.sess.Close()
	}
}

func (l *loop) run(ctx context.Context) (agent.Reply, error) {
	messages := openingMessages(l.call, true)
	tools := toolsFor(l.call.Role, l.call.Repair)
	last := ""
	for turn := 1; turn <= max(l.call.MaxTurns, 1); turn++ {
		req := chatRequest{Model: l.cfg.model, Messages: messages, Tools: tools}
		resp, err := l.post(ctx, req)
		var apiErr *agent.APIError
		if errors.As(err, &apiErr) && imageRefused(apiErr.HTTPStatus, apiErr.Message) && turn == 1 && !l.noImages && len(l.call.Images) > 0 && !l.call.Repair {
			// A model that cannot take images: say the rest without them.
			l.call.Log.Info("The endpoint refused the images; sending the prompt without them", "error", apiErr.Message)
			l.noImages = true
			copy(messages, openingMessages(l.call, false))
			req.Messages = messages
			resp, err = l.post(ctx, req)
		}
		if err != nil {
			if errors.As(err, &apiErr) {
				apiErr.Partial = l.reply
				return l.reply, apiErr
			}
			return l.reply, err
		}
		if resp.Choices[0].FinishReason == "length" {
			// A reply cut off at the server's limit is not the model's answer.
			return l.reply, &agent.APIError{Kind: agent.ErrFailed, Message: truncated(l.probeKind(ctx)), Partial: l.reply}
		}
		msg := resp.Choices[0].Message
		text := contentText(msg.Content)
		if text != "" {
			last = text
		}
		if len(msg.ToolCalls) == 0 {
			l.reply.Text = text
			return l.reply, nil
		}
		messages = append(messages, message{Role: "assistant", Content: nullable(text), ToolCalls: msg.ToolCalls})
		for _, tc := range msg.ToolCalls {
			out := l.tool(ctx, tc)
			messages = append(messages, message{Role: "tool", ToolCallID: tc.ID, Content: out})
		}
		if ctx.Err() != nil {
			return l.reply, &agent.APIError{Kind: agent.ErrTimeout, Message: ctx.Err().Error(), Partial: l.reply}
		}
	}
	l.reply.TurnLimit = true
	l.reply.Text = last
	return l.reply, nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// contentText reads a message's content: a string, null, or text parts.
func contentText(c any) string {
	switch v := c.(type) {
	case string:
		return v
	case []any:
		var parts []string
		for _, p := range v {
			if m, ok := p.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// arguments decodes a tool call's arguments: a JSON string holding an
// object (the standard), or an object (some servers).
func arguments(raw json.RawMessage, v any) error {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		raw = json.RawMessage(s)
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		raw = json.RawMessage("{}")
	}
	return json.Unmarshal(raw, v)
}

// tool runs one tool call and returns what the model gets back. Mistakes
// (bad arguments, a tool the role lacks) are answers, not failures, so the
// model can correct itself.
func (l *loop) tool(ctx context.Context, tc toolCall) string {
	name := tc.Function.Name
	allowed := false
	for _, t := range toolsFor(l.call.Role, l.call.Repair) {
		allowed = allowed || t.Function.Name == name
	}
	if !allowed {
		return fmt.Sprintf("error: there is no tool %q for the %s; the tools are: %s", name, l.call.Role, toolNames(l.call.Role, l.call.Repair))
	}
	var args struct {
		Command string `json:"command"`
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	if err := arguments(tc.Function.Arguments, &args); err != nil {
		l.call.Log.Info("Tool call with invalid arguments", "tool", name, "error", err.Error())
		return fmt.Sprintf("error: the arguments of %s are not valid JSON (%v); call it again with a JSON object of its parameters", name, err)
	}
	switch name {
	case "run_command":
		return l.runCommand(ctx, args.Command)
	case "read_file":
		return l.readFile(ctx, args.Path)
	case "write_file":
		return l.writeFile(ctx, args.Path, args.Content)
	case "list_dir":
		return l.listDir(ctx, args.Path)
	}
	return "error: unknown tool " + name
}

func toolNames(role status.Role, repair bool) string {
	var names []string
	for _, t := range toolsFor(role, repair) {
		names = append(names, t.Function.Name)
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

func (l *loop) runCommand(ctx context.Context, command string) string {
	if strings.TrimSpace(command) == "" {
		return "error: run_command needs a command"
	}
	if l.sess == nil {
		var env []string // other hands: their own environment, never ours
		if l.call.Hands == nil {
			environ := l.b.Environ
			if environ == nil {
				environ = os.Environ
			}
			env = agent.WithoutKeys(environ(), l.cfg.keyEnv)
		}
		sess, err := session.NewWith(ctx, l.hands(), l.call.WorkDir, env)
		if err != nil {
			return "error: cannot start a shell: " + err.Error()
		}
		l.sess = sess
	}
	line := l.call.Locate(command)
	l.call.Progress(fmt.Sprintf("%s: running `%s`", l.call.Role, textutil.FirstLine(command)), line)
	res, err := l.sess.Run(ctx, command, l.call.StepTimeout)
	if err != nil {
		return "error: " + err.Error()
	}
	l.reply.Commands = append(l.reply.Commands, status.AuditCommand{Command: command, ExitCode: res.ExitCode, Output: res.Output,
		StartedAt: res.StartedAt, DurationMs: res.Duration.Milliseconds(), TimedOut: res.TimedOut, Line: line})
	var b strings.Builder
	fmt.Fprintf(&b, "exit code: %d\n", res.ExitCode)
	if res.TimedOut {
		fmt.Fprintf(&b, "the command was stopped after %s (the step timeout)\n", l.call.StepTimeout)
	}
	b.WriteString(textutil.Tail(res.Output, maxToolOutput, "[... output shortened ...]\n"))
	return b.String()
}

// resolve makes a path absolute, relative to the work folder.
func (l *loop) resolve(p string) string {
	p = strings.TrimSpace(p)
	if p == "" {
		p = "."
	}
	if l.sess != nil && !filepath.IsAbs(p) {
		// The shell may have moved: relative paths follow it.
		return filepath.Join(l.sess.State().Cwd, p)
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(l.call.WorkDir, p)
	}
	return filepath.Clean(p)
}

// hands are where the tools act: the call's, or this process's.
func (l *loop) hands() session.Hands {
	if l.call.Hands == nil {
		return session.Local{}
	}
	return l.call.Hands
}

func (l *loop) readFile(ctx context.Context, p string) string {
	path := l.resolve(p)
	l.call.Progress(fmt.Sprintf("%s: reading %s", l.call.Role, path), 0)
	data, err := session.ReadFile(ctx, l.hands(), path, maxReadBytes+1)
	if err != nil {
		return "error: " + err.Error()
	}
	n := len(data)
	if !utf8.Valid(data) || strings.ContainsRune(string(data), 0) {
		return fmt.Sprintf("(%s is a binary file)", path)
	}
	if n > maxReadBytes {
		return string(data[:maxReadBytes]) + "\n[... the file goes on ...]"
	}
	return string(data)
}

func (l *loop) writeFile(ctx context.Context, p, content string) string {
	path := l.resolve(p)
	l.call.Progress(fmt.Sprintf("%s: writing %s", l.call.Role, path), 0)
	action := "create"
	if _, ok, err := session.Stat(ctx, l.hands(), path); err == nil && ok {
		action = "overwrite"
	}
	if err := session.WriteFile(ctx, l.hands(), path, []byte(content), false); err != nil {
		return "error: " + err.Error()
	}
	rel := path
	if r, err := filepath.Rel(l.call.WorkDir, path); err == nil && !strings.HasPrefix(r, "..") {
		rel = r
	}
	l.reply.Files = append(l.reply.Files, status.AuditFile{Path: rel, Action: action, Bytes: len(content), WrittenAt: time.Now()})
	return fmt.Sprintf("wrote %d bytes to %s", len(content), path)
}

func (l *loop) listDir(ctx context.Context, p string) string {
	path := l.resolve(p)
	names, err := session.List(ctx, l.hands(), session.ListRequest{Root: path, Depth: 1, MarkDirs: true})
	if err != nil {
		return "error: " + err.Error()
	}
	sort.Strings(names)
	if len(names) > maxListed {
		names = append(names[:maxListed], fmt.Sprintf("[... %d more ...]", len(names)-maxListed))
	}
	if len(names) == 0 {
		return "(empty)"
	}
	return strings.Join(names, "\n")
}
