package spec

import (
	"net"
	"net/url"
	"slices"
)

// ProviderInfo is everything SMILE knows about one provider, in one place:
// the controller passes its key variables into its containers and lets the
// relay reach its API hosts, the wrapper keeps every key out of tutorial
// commands, and doctor checks its CLI and keys.
type ProviderInfo struct {
	Name Provider
	// CLI is the vendor program the image must hold ("" when none).
	CLI string
	// KeyVariables hold its API key, the one to suggest first (openai's is
	// openai.apiKeyEnv, see Config.KeyVariables).
	KeyVariables []string
	// NotKeys are variables a user may hold for this provider that its CLI
	// does not read as the key in the way SMILE runs it, each with why: doctor
	// names them instead of calling the key missing, and the wrapper still
	// hides their values (AllKeyVariables).
	NotKeys map[string]string
	// APIHosts are the host:port its CLI talks to (openai's follows
	// openai.baseUrl, see Config.APIHosts).
	APIHosts []string
	// InProcess: its learner runs inside the controller, the container being
	// only its hands; the vendor CLIs run in the container.
	InProcess bool
	// Checkpoints: its Student keeps checkpoints and goes on from one
	// (resume: checkpoint); the others replay every iteration from the top.
	Checkpoints bool
}

// Providers is the provider table. It is built on each call, so no caller
// can change another's copy.
func Providers() []ProviderInfo {
	return []ProviderInfo{
		{Name: ProviderLiteral, InProcess: true, Checkpoints: true},
		{Name: ProviderOpenAI, KeyVariables: []string{DefaultOpenAIAPIKeyEnv}, InProcess: true},
		{Name: ProviderClaude, CLI: "claude", KeyVariables: []string{"ANTHROPIC_API_KEY"},
			APIHosts: []string{"api.anthropic.com:443"}},
		{Name: ProviderCodex, CLI: "codex", KeyVariables: []string{"CODEX_API_KEY"},
			APIHosts: []string{"api.openai.com:443", "chatgpt.com:443"}},
		// The Gemini CLI picks API-key auth from GEMINI_API_KEY alone
		// (getAuthTypeFromEnv in packages/core/src/core/contentGenerator.ts,
		// google-gemini/gemini-cli v0.56.0); GOOGLE_API_KEY is Vertex AI's
		// express-mode key, read only with GOOGLE_GENAI_USE_VERTEXAI=true
		// (validateAuthMethod, packages/cli/src/config/auth.ts), which
		// talks to other hosts and SMILE does not set up.
		{Name: ProviderGemini, CLI: "gemini", KeyVariables: []string{"GEMINI_API_KEY"},
			NotKeys:  map[string]string{"GOOGLE_API_KEY": "the Gemini CLI reads GOOGLE_API_KEY only for Vertex AI (GOOGLE_GENAI_USE_VERTEXAI=true), which SMILE does not set up; put the Gemini API key in GEMINI_API_KEY"},
			APIHosts: []string{"generativelanguage.googleapis.com:443", "oauth2.googleapis.com:443", "cloudcode-pa.googleapis.com:443"}},
	}
}

// Info is the provider's row of the table (only its name when unknown).
func (p Provider) Info() ProviderInfo {
	for _, info := range Providers() {
		if info.Name == p {
			return info
		}
	}
	return ProviderInfo{Name: p}
}

// AllKeyVariables are the key variables of every provider, and the
// variables they do not read as keys (NotKeys: they still hold secrets),
// each once.
func AllKeyVariables() []string {
	var out []string
	for _, info := range Providers() {
		names := append([]string{}, info.KeyVariables...)
		for k := range info.NotKeys {
			names = append(names, k)
		}
		slices.Sort(names[len(info.KeyVariables):])
		for _, k := range names {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// KeyVariables are the variables that hold the configured provider's key:
// for openai the one openai.apiKeyEnv names.
func (c Config) KeyVariables() []string {
	if c.LLMProvider == ProviderOpenAI {
		if c.OpenAI.APIKeyEnv == "" {
			return nil
		}
		return []string{c.OpenAI.APIKeyEnv}
	}
	return c.LLMProvider.Info().KeyVariables
}

// APIHosts are the host:port the configured provider talks to: for openai
// the host of openai.baseUrl.
func (c Config) APIHosts() []string {
	if c.LLMProvider != ProviderOpenAI {
		return c.LLMProvider.Info().APIHosts
	}
	u, err := url.Parse(c.OpenAI.BaseURL)
	if err != nil {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return []string{net.JoinHostPort(u.Hostname(), port)}
}
