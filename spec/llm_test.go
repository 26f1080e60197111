package spec

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestDefaultLLMSettings(t *testing.T) {
	cfg := DefaultConfig()
	if cfg.Models != (Models{}) || cfg.MaxTurns != (RoleLimits{Student: 60, Mentor: 20}) ||
		cfg.InvocationTimeoutSeconds != (RoleLimits{Student: 1200, Mentor: 600}) ||
		cfg.OpenAI != (OpenAIConfig{BaseURL: "http://host.docker.internal:11434/v1", APIKeyEnv: "OPENAI_API_KEY"}) ||
		cfg.StudentNetwork != NetworkBridge || cfg.BudgetUSD != 0 || cfg.Prices == nil || len(cfg.Prices) != 0 {
		t.Errorf("LLM defaults = %+v", cfg)
	}
	// Each call has its own price table: changing one must not change the next.
	cfg.Prices["x"] = Price{}
	if len(DefaultConfig().Prices) != 0 {
		t.Error("DefaultConfig shares its price table")
	}
}

func TestLLMSettingsValidation(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"all set", `{"models":{"student":"gpt-5","mentor":"o3"},"maxTurns":{"student":5,"mentor":2},"openai":{"baseUrl":"https://api.openai.com/v1","apiKeyEnv":"K"},"studentNetwork":"NONE","budgetUsd":0.5,"prices":{"gpt-5":{"inputPerMillion":1.25,"outputPerMillion":10}}}`, ""},
		{"turns", `{"maxTurns":{"student":0}}`, "maxTurns.student must be a positive integer, got 0"},
		{"timeout", `{"invocationTimeoutSeconds":{"mentor":-1}}`, "invocationTimeoutSeconds.mentor must be a positive integer, got -1"},
		{"base URL without scheme", `{"openai":{"baseUrl":"localhost:11434/v1"}}`, `openai.baseUrl "localhost:11434/v1" must be an http:// or https:// URL`},
		{"base URL without host", `{"openai":{"baseUrl":"http:///v1"}}`, "must be an http:// or https:// URL"},
		{"key variable", `{"openai":{"apiKeyEnv":"sk-abc"}}`, `openai.apiKeyEnv "sk-abc" must be the name of an environment variable`},
		{"network", `{"studentNetwork":"host"}`, `studentNetwork: invalid value "host" (allowed: bridge, none)`},
		{"budget", `{"budgetUsd":-2}`, "budgetUsd must be 0 (no budget) or a positive number of dollars, got -2"},
		{"negative price", `{"prices":{"m":{"inputPerMillion":-1}}}`, "prices.m: prices must not be negative"},
		{"model with a space", `{"models":{"student":"gpt 5"}}`, `models.student "gpt 5" must be a model name without spaces`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := loadConfigString(t, tt.json)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("error = %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
}

func TestPriceFor(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Prices = map[string]Price{
		"gpt-5":      {InputPerMillion: 1.25, OutputPerMillion: 10},
		"gpt-5-mini": {InputPerMillion: 0.25, OutputPerMillion: 2},
	}
	tests := []struct {
		model string
		want  float64
		ok    bool
	}{
		{"gpt-5", 1.25, true},
		{"gpt-5-2026-08-07", 1.25, true},
		{"gpt-5-mini-2026-08-07", 0.25, true}, // the longest name wins
		{"gemini-2.5-pro", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		p, ok := cfg.PriceFor(tt.model)
		if ok != tt.ok || p.InputPerMillion != tt.want {
			t.Errorf("PriceFor(%q) = %+v, %v; want input %v, %v", tt.model, p, ok, tt.want, tt.ok)
		}
	}
}

// resume: checkpoint with a provider that keeps no checkpoints is valid
// (a manifest may take its provider from smile.json) but is said: the
// warning names the field, the provider, those that keep checkpoints and
// what to write instead. Nothing else warns.
func TestResumeCheckpointWarnsWithProvidersThatKeepNone(t *testing.T) {
	for _, p := range []Provider{ProviderClaude, ProviderCodex, ProviderGemini, ProviderOpenAI} {
		c := DefaultConfig()
		c.LLMProvider, c.Resume = p, ResumeCheckpoint
		if err := c.Validate(); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		want := "resume: checkpoint is ignored with llmProvider " + string(p) + ": only literal keeps checkpoints, so every iteration starts from the top " +
			"(as with fromStart); set resume to auto or fromStart, or use literal"
		if got := c.Warnings(); len(got) != 1 || got[0] != want {
			t.Errorf("%s: warnings %q, want %q", p, got, want)
		}
	}
	for _, p := range providerNames {
		for _, r := range []Resume{ResumeAuto, ResumeFromStart, ResumeCheckpoint} {
			c := DefaultConfig()
			c.LLMProvider, c.Resume = Provider(p), r
			if got := c.Warnings(); len(got) > 0 && (r != ResumeCheckpoint || p == string(ProviderLiteral)) {
				t.Errorf("%s with resume %s: warnings %q, want none", p, r, got)
			}
		}
	}
	if got := CheckpointProviders(); !slices.Equal(got, []Provider{ProviderLiteral}) {
		t.Errorf("providers that keep checkpoints: %v", got)
	}
}

func TestResumeModeFollowsTheProvider(t *testing.T) {
	for _, tt := range []struct {
		provider Provider
		resume   Resume
		want     Resume
	}{
		{ProviderLiteral, ResumeAuto, ResumeCheckpoint},
		{ProviderClaude, ResumeAuto, ResumeFromStart},
		{ProviderOpenAI, ResumeAuto, ResumeFromStart},
		{ProviderLiteral, ResumeFromStart, ResumeFromStart},
		{ProviderLiteral, ResumeCheckpoint, ResumeCheckpoint},
		// Their Student keeps no checkpoints: checkpoint is ignored (Warnings).
		{ProviderGemini, ResumeCheckpoint, ResumeFromStart},
		{ProviderOpenAI, ResumeCheckpoint, ResumeFromStart},
	} {
		c := DefaultConfig()
		c.LLMProvider, c.Resume = tt.provider, tt.resume
		if got := c.ResumeMode(); got != tt.want {
			t.Errorf("%s with resume %s: %s, want %s", tt.provider, tt.resume, got, tt.want)
		}
	}
	var c Config
	if err := json.Unmarshal([]byte(`{"resume":" FROMSTART "}`), &c); err != nil || c.Resume != ResumeFromStart {
		t.Fatalf("decode: %q, %v", c.Resume, err)
	}
	err := json.Unmarshal([]byte(`{"resume":"top"}`), &c)
	if err == nil || err.Error() != `resume: invalid value "top" (allowed: auto, checkpoint, fromStart)` {
		t.Fatalf("decode of a wrong value: %v", err)
	}
}
