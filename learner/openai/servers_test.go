package openai_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/agent"
	"github.com/smile-loop/smile/learner/openai"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// vLLM's error bodies: since v0.10.1 (vllm-project/vllm#22099) OpenAI's
// shape with the exception's name as type and the status as an integer
// code (ErrorInfo in vllm/entrypoints/openai/engine/protocol.py at 040a2cc2,
// create_error_response in engine/serving.py at 00bd1493, which also words
// the context overrun as below); before it, the same fields at the top level
// with "object": "error".
const (
	vllmToolChoice = `{"error":{"message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}}`
	vllmTooLong    = `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your request has 9100 input tokens. Please reduce the length of the input messages.","type":"BadRequestError","param":"input_tokens","code":400}}`
	vllmTooLongOld = `{"object":"error","message":"This model's maximum context length is 8192 tokens. However, you requested 9100 tokens (8100 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`
)

// The answers below are the servers' own shapes (sources in
// docs/providers.md): vLLM's 400 when it was started without its
// tool-calling flags (vllm/entrypoints/openai/serving_chat.py), llama.cpp
// server's 500 for an image sent to a model without a projector
// (tools/server, oaicompat_chat_params_parse), Ollama's "fp_ollama"
// fingerprint (openai/openai.go) and its answers cut off at the context
// (finish_reason "length").
func TestServerPrerequisitesSayWhatToChange(t *testing.T) {
	done := `{"status": "completed", "currentStep": "end", "summary": "ok"}`
	cases := []struct {
		name      string
		steps     []step
		models    string
		header    map[string]string
		want      error // nil: the attempt succeeds
		wantWords []string
		wantReqs  int
	}{
		{name: "vLLM without tool calling",
			steps:     []step{{status: 400, body: vllmToolChoice}},
			models:    `{"object":"list","data":[{"id":"Qwen/Qwen3-Coder-30B-A3B-Instruct","object":"model","created":1,"owned_by":"vllm","root":"Qwen/Qwen3-Coder-30B-A3B-Instruct","parent":null,"max_model_len":32768}]}`,
			want:      agent.ErrFailed,
			wantWords: []string{"vLLM", "--enable-auto-tool-choice", "--tool-call-parser", `: "auto" tool choice requires`}, wantReqs: 1},
		{name: "llama.cpp text-only model given images answers 500",
			steps: []step{
				{status: 500, header: map[string]string{"Server": "llama.cpp"}, body: `{"error":{"code":500,"message":"image input is not supported - hint: if this is unexpected, you may need to provide the mmproj","type":"server_error"}}`},
				{content: done, header: map[string]string{"Server": "llama.cpp"}, checkLast: func(t *testing.T, req map[string]any) {
					if _, isText := req["messages"].([]any)[1].(map[string]any)["content"].(string); !isText {
						t.Error("the images were sent again")
					}
				}}},
			wantReqs: 2},
		{name: "Ollama answer cut off at the context",
			steps: []step{{content: `{"status": "completed", "currentStep": "end", "summ`, finish: "length", extra: map[string]any{"system_fingerprint": "fp_ollama"}}},
			want:  agent.ErrFailed, wantWords: []string{"Ollama", "finish_reason", "num_ctx", "OLLAMA_CONTEXT_LENGTH"}, wantReqs: 1},
		// No /models (behind a gateway, say): only the error body tells
		// the server, in either of vLLM's shapes.
		{name: "vLLM prompt longer than the context",
			steps: []step{{status: 400, body: vllmTooLong}},
			want:  agent.ErrFailed, wantWords: []string{"vLLM at", "--max-model-len", ": This model's maximum context length is 8192 tokens. However, your request"}, wantReqs: 1},
		{name: "vLLM before 0.10.1, prompt longer than the context",
			steps: []step{{status: 400, body: vllmTooLongOld}},
			want:  agent.ErrFailed, wantWords: []string{"vLLM at", "--max-model-len", ": This model's maximum context length is 8192 tokens. However, you requested"}, wantReqs: 1},
		{name: "llama.cpp without --jinja",
			steps: []step{{status: 500, header: map[string]string{"Server": "llama.cpp"}, body: `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`}},
			want:  agent.ErrFailed, wantWords: []string{"llama.cpp server", "--jinja"}, wantReqs: 1},
		{name: "Ollama model without tools",
			steps:  []step{{status: 400, body: `{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools","type":"invalid_request_error","param":null,"code":null}}`}},
			models: `{"object":"list","data":[{"id":"gemma3:4b","object":"model","created":1,"owned_by":"library"}]}`,
			want:   agent.ErrFailed, wantWords: []string{"Ollama at", "tools"}, wantReqs: 1},
		// OpenAI serves some models (the -pro and codex ones, deep
		// research) on its Responses API only: the error names the
		// setting to change.
		{name: "hosted model that needs the Responses API",
			steps: []step{{status: 404, header: map[string]string{"Openai-Organization": "org-1", "Openai-Version": "2020-10-01"},
				body: `{"error":{"message":"This model is only supported in v1/responses and not in v1/chat/completions.","type":"invalid_request_error","param":"model","code":null}}`}},
			want: agent.ErrFailed, wantWords: []string{"hosted API at", "only supported in v1/responses", `the model "qwen3-coder:30b" is not served on /v1/chat/completions`, "set models.student in smile.json", "llmProvider to codex"}, wantReqs: 1},
		{name: "hosted API context exceeded",
			steps: []step{{status: 400, header: map[string]string{"Openai-Organization": "org-1", "Openai-Version": "2020-10-01"},
				body: `{"error":{"message":"This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`}},
			want: agent.ErrFailed, wantWords: []string{"hosted API", "context"}, wantReqs: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv, sb, r, waits := setup(t, c.steps)
			srv.models = c.models
			task := sb.Task(t, status.RoleStudent, 1, spec.ProviderOpenAI, llm(t))
			res, err := r.Student(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
			if len(srv.requests) != c.wantReqs || len(*waits) != 0 {
				t.Errorf("%d requests, waits %v; want %d requests and no retry", len(srv.requests), *waits, c.wantReqs)
			}
			if c.want == nil {
				if err != nil || res.StudentOutput.Status != status.StudentCompleted {
					t.Fatalf("result %+v err %v", res.StudentOutput, err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("error = %v, want %v", err, c.want)
			}
			for _, w := range c.wantWords {
				if !strings.Contains(err.Error(), w) || !strings.Contains(res.StudentOutput.Reason, w) {
					t.Errorf("error %q / reason %q do not say %q", err, res.StudentOutput.Reason, w)
				}
			}
		})
	}
}

func TestKindFromModels(t *testing.T) {
	cases := []struct {
		name, body string
		want       openai.ServerKind
	}{
		{"Ollama: owned by the name's namespace", `{"object":"list","data":[{"id":"qwen3-coder:30b","object":"model","created":1751000000,"owned_by":"library"}]}`, openai.ServerOllama},
		{"vLLM: owned_by vllm and max_model_len", `{"object":"list","data":[{"id":"Qwen/Qwen3-8B","object":"model","created":1,"owned_by":"vllm","root":"Qwen/Qwen3-8B","parent":null,"max_model_len":40960,"permission":[]}]}`, openai.ServerVLLM},
		{"llama.cpp server: owned_by llamacpp and meta", `{"object":"list","data":[{"id":"qwen.gguf","object":"model","created":1,"owned_by":"llamacpp","meta":{"vocab_type":2,"n_ctx_train":32768}}]}`, openai.ServerLlamaCpp},
		{"OpenAI", `{"object":"list","data":[{"id":"gpt-5","object":"model","created":1,"owned_by":"system"}]}`, openai.ServerHosted},
		{"a user's own namespace on Ollama is not told", `{"object":"list","data":[{"id":"me/model","object":"model","owned_by":"me"}]}`, openai.ServerUnknown},
		{"not JSON", `<html>`, openai.ServerUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := openai.KindFromModels([]byte(c.body)); got != c.want {
				t.Errorf("kind = %q, want %q", got, c.want)
			}
		})
	}
}

func TestKindFromResponse(t *testing.T) {
	cases := []struct {
		name   string
		header http.Header
		body   string
		want   openai.ServerKind
	}{
		{"llama.cpp's Server header", http.Header{"Server": {"llama.cpp"}}, `{}`, openai.ServerLlamaCpp},
		{"Ollama's fingerprint", nil, `{"id":"chatcmpl-1","object":"chat.completion","system_fingerprint":"fp_ollama","choices":[]}`, openai.ServerOllama},
		{"vLLM's error object", http.Header{"Server": {"uvicorn"}}, vllmTooLong, openai.ServerVLLM},
		{"vLLM's model not found", nil, `{"error":{"message":"The model ` + "`m`" + ` does not exist.","type":"NotFoundError","param":"model","code":404}}`, openai.ServerVLLM},
		{"vLLM's error object before 0.10.1", http.Header{"Server": {"uvicorn"}}, vllmTooLongOld, openai.ServerVLLM},
		{"OpenAI's error object has a string code", nil, `{"error":{"message":"x","type":"invalid_request_error","param":"messages","code":"context_length_exceeded"}}`, openai.ServerUnknown},
		{"Ollama's error object has no code", nil, `{"error":{"message":"x","type":"api_error","param":null,"code":null}}`, openai.ServerUnknown},
		{"llama.cpp's error type is snake_case", nil, `{"error":{"code":500,"message":"x","type":"server_error"}}`, openai.ServerUnknown},
		{"OpenAI's headers", http.Header{"Openai-Processing-Ms": {"120"}}, `{}`, openai.ServerHosted},
		{"nothing to tell", http.Header{"Server": {"uvicorn"}}, `{"choices":[]}`, openai.ServerUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := openai.KindFromResponse(c.header, []byte(c.body)); got != c.want {
				t.Errorf("kind = %q, want %q", got, c.want)
			}
		})
	}
}

// TestResponsesOnlyNamesTheMentorsSetting: the Mentor's model is
// models.mentor.
func TestResponsesOnlyNamesTheMentorsSetting(t *testing.T) {
	_, sb, r, _ := setup(t, []step{{status: 404, body: `{"error":{"message":"This model is only supported in v1/responses and not in v1/chat/completions.","type":"invalid_request_error","param":"model","code":null}}`}})
	task := sb.Task(t, status.RoleMentor, 1, spec.ProviderOpenAI, llm(t))
	_, err := r.Mentor(context.Background(), task, provider.Env{WorkDir: sb.Work, TutorialDir: sb.TutorialDir, LogsDir: sb.Logs, Log: logr.Discard()})
	if !errors.Is(err, agent.ErrFailed) || !strings.Contains(err.Error(), "set models.mentor in smile.json") {
		t.Errorf("error = %v, want the Mentor's setting named", err)
	}
}
