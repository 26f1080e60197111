package doctor

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec"
)

func TestEndpointCheck(t *testing.T) {
	ollamaModels := `{"object":"list","data":[{"id":"qwen3-coder:30b","object":"model","created":1751000000,"owned_by":"library"}]}`
	vllmModels := `{"object":"list","data":[{"id":"Qwen/Qwen3-8B","object":"model","owned_by":"vllm","max_model_len":40960}]}`
	cases := []struct {
		name   string
		status int
		body   string
		models spec.Models
		wantOK bool
		want   []string
	}{
		{name: "Ollama serving both models", body: ollamaModels, models: spec.Models{Student: "qwen3-coder:30b", Mentor: "qwen3-coder:30b"}, wantOK: true,
			want: []string{"Ollama", "serving qwen3-coder:30b"}},
		{name: "vLLM not serving the mentor's model", body: vllmModels, models: spec.Models{Student: "Qwen/Qwen3-8B", Mentor: "gpt-5"},
			want: []string{"vLLM", `does not serve "gpt-5"`, "Qwen/Qwen3-8B"}},
		{name: "no models set", body: vllmModels, want: []string{"models.student and models.mentor"}},
		{name: "refused key", status: 401, body: `{"error":{"message":"Incorrect API key provided"}}`, models: spec.Models{Student: "m", Mentor: "m"},
			want: []string{"HTTP 401", "Incorrect API key"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/v1/models" {
					http.NotFound(w, r)
					return
				}
				if c.status != 0 {
					w.WriteHeader(c.status)
				}
				_, _ = w.Write([]byte(c.body))
			}))
			defer srv.Close()
			cfg := spec.DefaultConfig()
			cfg.LLMProvider, cfg.Models = spec.ProviderOpenAI, c.models
			cfg.OpenAI.BaseURL = srv.URL + "/v1"
			got := endpointCheck(context.Background(), cfg, "")
			if got.OK != c.wantOK {
				t.Errorf("ok = %v, want %v: %s", got.OK, c.wantOK, got.Msg)
			}
			for _, w := range c.want {
				if !strings.Contains(got.Msg, w) {
					t.Errorf("message %q lacks %q", got.Msg, w)
				}
			}
		})
	}
	t.Run("nothing listening", func(t *testing.T) {
		cfg := spec.DefaultConfig()
		cfg.OpenAI.BaseURL = "http://127.0.0.1:1/v1"
		if got := endpointCheck(context.Background(), cfg, ""); got.OK || !strings.Contains(got.Msg, "does not answer") {
			t.Errorf("check = %+v", got)
		}
	})
}

func TestHostView(t *testing.T) {
	cases := []struct{ base, gateway, want string }{
		{"http://host.docker.internal:11434/v1", "172.17.0.1", "http://172.17.0.1:11434/v1"},
		{"http://host.docker.internal/v1", "172.17.0.1", "http://172.17.0.1/v1"},
		{"https://api.openai.com/v1", "172.17.0.1", "https://api.openai.com/v1"},
		{"http://host.docker.internal:8000/v1", "", "http://host.docker.internal:8000/v1"},
	}
	for _, c := range cases {
		t.Run(c.base, func(t *testing.T) {
			if got := hostView(c.base, c.gateway); got != c.want {
				t.Errorf("hostView = %q, want %q", got, c.want)
			}
		})
	}
}

func TestCredentialsCheck(t *testing.T) {
	cases := []struct {
		name     string
		provider spec.Provider
		env      map[string]string
		wantOK   bool
		want     string
	}{
		{name: "claude without its key", provider: spec.ProviderClaude, want: "ANTHROPIC_API_KEY is not set"},
		{name: "claude with its key", provider: spec.ProviderClaude, env: map[string]string{"ANTHROPIC_API_KEY": "x"}, wantOK: true, want: "ANTHROPIC_API_KEY is set"},
		// The Gemini CLI reads GOOGLE_API_KEY only for Vertex AI: with it
		// alone, the first run would fail auth (exit 41).
		{name: "gemini with GOOGLE_API_KEY alone", provider: spec.ProviderGemini, env: map[string]string{"GOOGLE_API_KEY": "x"}, want: "GEMINI_API_KEY is not set; GOOGLE_API_KEY is, but the Gemini CLI reads GOOGLE_API_KEY only for Vertex AI (GOOGLE_GENAI_USE_VERTEXAI=true)"},
		{name: "gemini with GEMINI_API_KEY", provider: spec.ProviderGemini, env: map[string]string{"GEMINI_API_KEY": "x", "GOOGLE_API_KEY": "y"}, wantOK: true, want: "GEMINI_API_KEY is set"},
		{name: "gemini without a key", provider: spec.ProviderGemini, want: "gemini: GEMINI_API_KEY is not set (to work offline"},
		{name: "openai without a key sends none", provider: spec.ProviderOpenAI, wantOK: true, want: "no key is sent"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "OPENAI_API_KEY", "CODEX_API_KEY"} {
				t.Setenv(k, c.env[k])
			}
			cfg := spec.DefaultConfig()
			cfg.LLMProvider = c.provider
			got := credentialsCheck(cfg)
			if got.OK != c.wantOK || !strings.Contains(got.Msg, c.want) {
				t.Errorf("check = %+v, want ok %v and %q", got, c.wantOK, c.want)
			}
		})
	}
}

// TestDoctorWithoutSettingsNamesTheDefaultAndTheOfflineWay: in a folder with
// no manifest and no smile.json, doctor says which provider it checks and how
// to work offline.
func TestDoctorWithoutSettingsNamesTheDefaultAndTheOfflineWay(t *testing.T) {
	t.Chdir(t.TempDir())
	cfg, source, err := Config("")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"the defaults", "llmProvider " + string(cfg.LLMProvider), "llmProvider: literal"} {
		if !strings.Contains(source, want) {
			t.Errorf("doctor's source line %q lacks %q", source, want)
		}
	}
	if err := os.WriteFile("smile.json", []byte(`{"llmProvider": "literal"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, source, err := Config(""); err != nil || source != "smile.json" {
		t.Errorf("with a smile.json: %q, %v", source, err)
	}
}
