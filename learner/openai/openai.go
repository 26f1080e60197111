// Package openai is the openai provider: any OpenAI-compatible
// chat-completions endpoint (Ollama, vLLM, llama.cpp server, hosted APIs)
// driven by a small agent loop the wrapper runs itself. The model calls
// tools and the wrapper executes them: run_command (in one shell session in
// the work folder, so cd and variables carry over, with the step timeout),
// read_file, write_file and list_dir for the Student; read_file and list_dir
// for the Mentor.
package openai

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// New returns the openai provider.
func New() provider.Provider { return agent.Runner{Backend: Backend{}} }

// Backend talks to an OpenAI-compatible endpoint. BaseURL, APIKeyEnv and
// Model come from the task.
type Backend struct {
	// HTTP is the client ("" proxy and timeouts are set per call when nil).
	HTTP *http.Client
	// Getenv reads the API key; nil means os.Getenv.
	Getenv func(string) string
	// Environ is the environment of run_command; nil means os.Environ.
	Environ func() []string
}

// Name is part of the agent.Backend interface.
func (Backend) Name() spec.Provider { return spec.ProviderOpenAI }

// CLI is part of the agent.Backend interface: none is needed.
func (Backend) CLI() string { return "" }

// ImageMode is part of the agent.Backend interface: images go as image
// parts of the first message (and are dropped if the endpoint refuses them).
func (Backend) ImageMode() prompt.ImageMode { return prompt.ImagesAttached }

// Tools is part of the agent.Backend interface.
func (Backend) Tools(role status.Role) string {
	if role == status.RoleMentor {
		return "read_file (read a file) and list_dir (list a folder); you cannot run commands or write files"
	}
	return "run_command (run a shell command in one session: cd and variables carry over), read_file, write_file and list_dir"
}

// Web is part of the agent.Backend interface: the loop has no web tool.
func (Backend) Web() bool { return false }

// Invoke is part of the agent.Backend interface. BaseURL, the key's
// variable and the model are the Call's (set by the runner from the task).
func (b Backend) Invoke(ctx context.Context, call agent.Call) (agent.Reply, error) {
	call = call.WithDefaults()
	cfg := configFrom(call)
	if cfg.model == "" {
		return agent.Reply{}, &agent.APIError{Kind: agent.ErrFailed, Message: "the openai provider needs a model: set models.student and models.mentor in smile.json"}
	}
	getenv := b.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	l := &loop{b: b, call: call, cfg: cfg, key: getenv(cfg.keyEnv), client: b.client(call)}
	defer l.close()
	return l.run(ctx)
}

type config struct {
	baseURL, keyEnv, model string
}

// configFrom reads the endpoint from the call: the runner passes the task's
// openai settings in the call's environment-independent fields.
func configFrom(call agent.Call) config {
	return config{baseURL: strings.TrimRight(call.BaseURL, "/"), keyEnv: call.APIKeyEnv, model: call.Model}
}

func (b Backend) client(call agent.Call) *http.Client {
	if b.HTTP != nil {
		return b.HTTP
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.Proxy = nil
	if call.Proxy != "" {
		if u, err := url.Parse(call.Proxy); err == nil {
			tr.Proxy = http.ProxyURL(u)
		}
	}
	return &http.Client{Transport: tr, Timeout: 10 * time.Minute}
}

// The wire format of chat completions.
type (
	chatRequest struct {
		Model    string    `json:"model"`
		Messages []message `json:"messages"`
		Tools    []tool    `json:"tools,omitempty"`
		Stream   bool      `json:"stream"`
	}
	message struct {
		Role       string     `json:"role"`
		Content    any        `json:"content"`
		ToolCalls  []toolCall `json:"tool_calls,omitempty"`
		ToolCallID string     `json:"tool_call_id,omitempty"`
	}
	toolCall struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	}
	tool struct {
		Type     string       `json:"type"`
		Function toolFunction `json:"function"`
	}
	toolFunction struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	}
	chatResponse struct {
		Model   string `json:"model"`
		Choices []struct {
			Message      message `json:"message"`
			FinishReason string  `json:"finish_reason"`
		} `json:"choices"`
		Usage *struct {
			PromptTokens     int64 `json:"prompt_tokens"`
			CompletionTokens int64 `json:"completion_tokens"`
		} `json:"usage"`
		Error *apiError `json:"error"`
	}
	apiError struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	contentPart struct {
		Type     string    `json:"type"`
		Text     string    `json:"text,omitempty"`
		ImageURL *imageURL `json:"image_url,omitempty"`
	}
	imageURL struct {
		URL string `json:"url"`
	}
)

// Tools returns the tools a role is offered.
func toolsFor(role status.Role, repair bool) []tool {
	if repair {
		return nil
	}
	obj := func(props map[string]any, required ...string) map[string]any {
		return map[string]any{"type": "object", "properties": props, "required": required}
	}
	str := func(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
	read := []tool{
		{"function", toolFunction{"read_file", "Read a text file. Relative paths start at the work folder.", obj(map[string]any{"path": str("the file's path")}, "path")}},
		{"function", toolFunction{"list_dir", "List a folder's entries (folders end with /). Relative paths start at the work folder.", obj(map[string]any{"path": str("the folder's path; . for the work folder")}, "path")}},
	}
	if role == status.RoleMentor {
		return read
	}
	return append([]tool{
		{"function", toolFunction{"run_command", "Run a shell command in the work folder, in one shell session: cd, exported variables and functions carry over to the next command. Returns the exit code and the output.", obj(map[string]any{"command": str("the shell command, as you would type it")}, "command")}},
		{"function", toolFunction{"write_file", "Create or overwrite a text file. Relative paths start at the work folder.", obj(map[string]any{"path": str("the file's path"), "content": str("the whole content of the file")}, "path", "content")}},
	}, read...)
}

// post sends one request, retrying rate limits, overload and network
// failures with backoff, and records each try as an LLM call.
func (l *loop) post(ctx context.Context, req chatRequest) (*chatResponse, error) {
	resp, tries, err := agent.Retry(ctx, l.call.Backoff, l.call.Sleep, l.call.Log, func() (*chatResponse, error) {
		start := time.Now()
		resp, err := l.send(ctx, req)
		c := status.LLMCall{Model: req.Model, StartedAt: start, DurationMs: time.Since(start).Milliseconds()}
		if resp != nil {
			if resp.Model != "" {
				c.Model = resp.Model
			}
			if resp.Usage != nil {
				c.InputTokens, c.OutputTokens = resp.Usage.PromptTokens, resp.Usage.CompletionTokens
			}
		}
		if err != nil {
			c.Error = err.Error()
		}
		l.reply.Calls = append(l.reply.Calls, c)
		return resp, err
	})
	var apiErr *agent.APIError
	if errors.As(err, &apiErr) {
		apiErr.Tries = tries
	}
	return resp, err
}

func (l *loop) send(ctx context.Context, req chatRequest) (*chatResponse, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, l.cfg.baseURL+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, &agent.APIError{Kind: agent.ErrFailed, Message: err.Error()}
	}
	hreq.Header.Set("Content-Type", "application/json")
	if l.key != "" {
		hreq.Header.Set("Authorization", "Bearer "+l.key)
	}
	hresp, err := l.client.Do(hreq)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &agent.APIError{Kind: agent.ErrTimeout, Message: ctx.Err().Error()}
		}
		return nil, &agent.APIError{Kind: agent.ErrTransient, Message: err.Error()}
	}
	defer hresp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(hresp.Body, 32<<20))
	if err != nil {
		return nil, &agent.APIError{Kind: agent.ErrTransient, Message: "read the answer: " + err.Error()}
	}
	if k := KindFromResponse(hresp.Header, data); k != ServerUnknown && k != l.kind {
		l.kind = k
		l.call.Log.Info("Endpoint identified", "server", string(k), "baseUrl", l.cfg.baseURL)
	}
	var resp chatResponse
	jsonErr := json.Unmarshal(data, &resp)
	if hresp.StatusCode/100 != 2 {
		return nil, l.failure(ctx, hresp, data, resp.Error)
	}
	if jsonErr != nil || len(resp.Choices) == 0 {
		return &resp, &agent.APIError{Kind: agent.ErrFailed, Message: "the endpoint's answer has no choices: " + textutil.Shorten(string(data), 300)}
	}
	return &resp, nil
}

// failure is the error of a non-2xx answer. A refusal that comes from the
// server's set-up (no tool calling, too small a context, no images) is not
// retried, whatever its status (llama.cpp server answers 500 to some), and
// says what to change.
func (l *loop) failure(ctx context.Context, hresp *http.Response, data []byte, apiErr *apiError) error {
	msg := strings.TrimSpace(string(data))
	var top struct {
		Message string `json:"message"`
	}
	switch {
	case apiErr != nil && apiErr.Message != "":
		msg = apiErr.Message
	case json.Unmarshal(data, &top) == nil && top.Message != "":
		msg = top.Message // vLLM before v0.10.1: {"object":"error","message":...}
	}
	if len(msg) > 500 {
		msg = msg[:500] + "..."
	}
	code := hresp.StatusCode
	kind := agent.Classify(code, msg)
	if code/100 == 4 && code != 401 && code != 403 && code != 408 && code != 409 && code != 429 {
		kind = agent.ErrFailed
	}
	if hasAny(msg, responsesOnly) {
		return &agent.APIError{Kind: agent.ErrFailed, HTTPStatus: code, Message: fmt.Sprintf("%s: %s. To fix: %s", l.serverName(l.kind), strings.TrimRight(msg, "."), responsesAdvice(l.call.Role, l.cfg.model))}
	}
	if hasAny(msg, imageRefusals) {
		return &agent.APIError{Kind: agent.ErrFailed, HTTPStatus: code, Message: msg}
	}
	if hasAny(msg, toolRefusals) || hasAny(msg, contextOverruns) {
		server := l.probeKind(ctx)
		return &agent.APIError{Kind: agent.ErrFailed, HTTPStatus: code, Message: fmt.Sprintf("%s: %s. To fix: %s", l.serverName(server), strings.TrimRight(msg, "."), prerequisite(server, msg))}
	}
	return &agent.APIError{Kind: kind, HTTPStatus: code, Message: msg, RetryAfter: retryAfter(hresp.Header.Get("Retry-After"))}
}

// serverName is how errors name the endpoint: its kind when known, and its
// URL.
func (l *loop) serverName(kind ServerKind) string {
	if kind == ServerUnknown {
		return "the endpoint " + l.cfg.baseURL
	}
	return fmt.Sprintf("%s at %s", kind, l.cfg.baseURL)
}

func retryAfter(h string) time.Duration {
	if h == "" {
		return 0
	}
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil {
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return time.Until(t)
	}
	return 0
}

// Begin is the user message that opens every conversation; the prompt
// itself is the system message.
const Begin = "Begin: follow the instructions and the tutorial in the system message, and answer as they say."

// openingMessages open the conversation: the prompt (the instructions and
// the tutorial) as the system message, and a short user message with the
// tutorial's images as image parts. The prompt is the system message
// because a server may drop what does not fit its context: Ollama renders
// the conversation from the front, dropping the oldest messages that are
// not system messages until the rest fits num_ctx, and keeps every system
// message and the last one (chatPrompt in server/prompt.go, ollama/ollama
// v0.33.0-rc2 at fb307609), with no error and no finish_reason "length".
// A prompt sent as the first user message is the first thing it drops, and
// the model goes on without the tutorial.
func openingMessages(call agent.Call, withImages bool) []message {
	system := message{Role: "system", Content: call.Prompt}
	if !withImages || len(call.Images) == 0 || call.Repair {
		return []message{system, {Role: "user", Content: Begin}}
	}
	parts := []contentPart{{Type: "text", Text: Begin}}
	for _, img := range call.Images {
		mime := map[spec.ImageFormat]string{spec.ImagePNG: "image/png", spec.ImageJPG: "image/jpeg", spec.ImageGIF: "image/gif", spec.ImageSVG: "image/svg+xml"}[img.Format]
		if mime == "" || len(img.Data) == 0 {
			continue
		}
		parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(img.Data)}})
	}
	return []message{system, {Role: "user", Content: parts}}
}
