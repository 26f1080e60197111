package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile/status"
)

// ServerKind names the software behind an OpenAI-compatible endpoint, when
// it can be told: each needs its own flags for what SMILE asks of it.
type ServerKind string

// The servers the provider knows.
const (
	ServerUnknown  ServerKind = ""
	ServerOllama   ServerKind = "Ollama"
	ServerVLLM     ServerKind = "vLLM"
	ServerLlamaCpp ServerKind = "llama.cpp server"
	ServerHosted   ServerKind = "hosted API"
)

// KindFromResponse names the server from one of its HTTP answers. The
// signs, and where each server sets them:
//   - llama.cpp server: the header "Server: llama.cpp" on every answer
//     (tools/server, set_default_headers);
//   - Ollama: system_fingerprint "fp_ollama" in chat completions
//     (openai/openai.go, ToChatCompletion);
//   - vLLM: its error object. Since v0.10.1 (vllm-project/vllm#22099) it
//     is OpenAI's shape, {"error": {message, type, param, code}}, with the
//     Python exception's name as its type ("BadRequestError",
//     "NotFoundError", "InternalServerError") and the HTTP status as an
//     integer code (ErrorInfo and create_error_response in
//     vllm/entrypoints/openai/engine/protocol.py and engine/serving.py at
//     040a2cc2 / 00bd1493); OpenAI's own codes are strings or null,
//     Ollama's null, and llama.cpp's types are snake_case. Before v0.10.1
//     it was {"object": "error", message, type, param, code} at the top
//     level (vllm/entrypoints/openai/protocol.py, ErrorResponse);
//   - OpenAI's hosted API: its openai-organization, openai-version and
//     openai-processing-ms headers.
func KindFromResponse(h http.Header, body []byte) ServerKind {
	if strings.Contains(strings.ToLower(h.Get("Server")), "llama.cpp") {
		return ServerLlamaCpp
	}
	if h.Get("Openai-Organization") != "" || h.Get("Openai-Version") != "" || h.Get("Openai-Processing-Ms") != "" {
		return ServerHosted
	}
	var b struct {
		Object            string          `json:"object"`
		SystemFingerprint string          `json:"system_fingerprint"`
		Error             json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &b) != nil {
		return ServerUnknown
	}
	switch {
	case b.SystemFingerprint == "fp_ollama":
		return ServerOllama
	case b.Object == "error" || vllmError(b.Error):
		return ServerVLLM
	}
	return ServerUnknown
}

// vllmError says whether an "error" object is vLLM's (v0.10.1 and later):
// a Python exception's name as its type and an integer code.
func vllmError(raw json.RawMessage) bool {
	var e struct {
		Type string          `json:"type"`
		Code json.RawMessage `json:"code"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &e) != nil {
		return false
	}
	var code int
	if json.Unmarshal(e.Code, &code) != nil {
		return false
	}
	name, ok := strings.CutSuffix(e.Type, "Error")
	return ok && name != "" && name[0] >= 'A' && name[0] <= 'Z' && !strings.ContainsAny(name, "_ ")
}

// KindFromModels names the server from its GET /models answer: vLLM's
// model cards say owned_by "vllm" and carry max_model_len
// (vllm/entrypoints/openai/serving_models.py); llama.cpp server's say
// owned_by "llamacpp" and carry meta; Ollama's owned_by is the model
// name's namespace, "library" for its own models (openai/openai.go,
// ToListCompletion); OpenAI's are owned by "openai", "system" or an
// organisation ("openai-internal").
func KindFromModels(body []byte) ServerKind {
	var list struct {
		Data []map[string]json.RawMessage `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil {
		return ServerUnknown
	}
	for _, m := range list.Data {
		var owner string
		_ = json.Unmarshal(m["owned_by"], &owner)
		_, maxLen := m["max_model_len"]
		_, meta := m["meta"]
		switch {
		case owner == "vllm" || maxLen:
			return ServerVLLM
		case owner == "llamacpp" || meta:
			return ServerLlamaCpp
		case owner == "library":
			return ServerOllama
		case owner == "openai" || owner == "system" || strings.HasPrefix(owner, "openai-"):
			return ServerHosted
		}
	}
	return ServerUnknown
}

// probeKind asks GET {baseURL}/models which server this is, briefly: it
// only serves to name the server in an error.
func (l *loop) probeKind(ctx context.Context) ServerKind {
	if l.kind != ServerUnknown {
		return l.kind
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, l.cfg.baseURL+"/models", nil)
	if err != nil {
		return ServerUnknown
	}
	if l.key != "" {
		req.Header.Set("Authorization", "Bearer "+l.key)
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return ServerUnknown
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if k := KindFromResponse(resp.Header, data); k != ServerUnknown {
		return k
	}
	return KindFromModels(data)
}

// The words servers use for the failures SMILE can explain.
var (
	imageRefusals = []string{"image input is not supported", "does not support image", "not support images", "images are not supported",
		"image_url is only supported", "vision is not supported", "multimodal", "mmproj"}
	toolRefusals    = []string{"enable-auto-tool-choice", "tool-call-parser", "tools param requires --jinja", "does not support tools"}
	contextOverruns = []string{"maximum context length", "exceeds the context", "exceeds the available context size", "context_length_exceeded",
		"context length", "context window", "prompt is too long", "too many tokens"}
)

// responsesOnly are OpenAI's words for a model it serves on the Responses
// API (/v1/responses) and not on chat completions, which the openai
// provider speaks: a 404 {"error": {"message": "This model is only
// supported in v1/responses and not in v1/chat/completions.", "type":
// "invalid_request_error", "param": "model", "code": null}}, as quoted for
// gpt-4o-deep-research in n8n-io/n8n#18352 (2025-08) and for the -pro and
// codex models in clients' code; a model that is no chat model at all gets
// "This is not a chat model and thus not supported in the
// v1/chat/completions endpoint" (micz/ThunderAI#570).
var responsesOnly = []string{"only supported in v1/responses", "not a chat model and thus not supported in the v1/chat/completions"}

func hasAny(text string, words []string) bool {
	t := strings.ToLower(text)
	for _, w := range words {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// imageRefused says whether an endpoint's error is its refusal of the
// images: llama.cpp server answers 500 to those, others 400.
func imageRefused(status int, msg string) bool {
	if hasAny(msg, imageRefusals) {
		return true
	}
	return status == http.StatusBadRequest && !hasAny(msg, toolRefusals) && !hasAny(msg, contextOverruns) && !hasAny(msg, responsesOnly)
}

// responsesAdvice says what to change when the role's model is not served
// on chat completions.
func responsesAdvice(role status.Role, model string) string {
	return fmt.Sprintf("the model %q is not served on /v1/chat/completions (OpenAI serves it on its Responses API, /v1/responses, which the openai provider does not speak): set models.%s in smile.json to a chat-completions model (such as gpt-5 or gpt-4.1), or set llmProvider to codex, whose CLI speaks the Responses API", model, role)
}

// prerequisite says what to change when an error is a set-up problem of the
// server, "" when it is not one SMILE knows.
func prerequisite(kind ServerKind, msg string) string {
	switch {
	case hasAny(msg, toolRefusals):
		return toolsAdvice(kind, msg)
	case hasAny(msg, contextOverruns):
		return contextAdvice(kind)
	case hasAny(msg, imageRefusals):
		return "the model takes no images: SMILE went on without them; for the tutorial's images use a vision model" + visionAdvice(kind)
	}
	return ""
}

func toolsAdvice(kind ServerKind, msg string) string {
	switch {
	case kind == ServerVLLM || strings.Contains(msg, "enable-auto-tool-choice") || strings.Contains(msg, "tool-call-parser"):
		return "vLLM answers tool calls only when started with --enable-auto-tool-choice --tool-call-parser PARSER (the parser that matches the model, e.g. hermes for Qwen, llama3_json for Llama 3.1+, mistral for Mistral): restart `vllm serve` with both flags"
	case kind == ServerLlamaCpp || strings.Contains(msg, "--jinja"):
		return "llama.cpp server takes tools only with its chat templates on: restart llama-server with --jinja"
	}
	return "the model cannot call tools, and the openai provider needs them: choose a model whose template supports tools (for Ollama, one tagged \"tools\" on ollama.com)"
}

func contextAdvice(kind ServerKind) string {
	const why = "the conversation does not fit the model's context (SMILE's prompts, with the tutorial, need 16k tokens or more; 32k is comfortable)"
	switch kind {
	case ServerOllama:
		return why + ": raise Ollama's context with OLLAMA_CONTEXT_LENGTH=32768 when starting `ollama serve`, or a Modelfile with PARAMETER num_ctx 32768"
	case ServerVLLM:
		return why + ": start vLLM with a larger --max-model-len (up to what the model and the GPU memory allow)"
	case ServerLlamaCpp:
		return why + ": start llama-server with a larger --ctx-size (-c), e.g. -c 32768"
	case ServerHosted:
		return why + ": choose a model with a larger context window"
	}
	return why + ": raise the server's context size (Ollama: num_ctx or OLLAMA_CONTEXT_LENGTH; vLLM: --max-model-len; llama.cpp: --ctx-size)"
}

func visionAdvice(kind ServerKind) string {
	if kind == ServerLlamaCpp {
		return " (llama-server needs the model's projector: --mmproj FILE)"
	}
	return ""
}

// truncated is the error for an answer cut off by the server's limit
// (finish_reason "length"): taking it as the answer would lose its end.
func truncated(kind ServerKind) string {
	name := string(kind)
	if name == "" {
		name = "the endpoint"
	}
	return fmt.Sprintf("%s cut the model's answer off (finish_reason \"length\"): %s", name, contextAdvice(kind))
}
