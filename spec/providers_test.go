package spec

import (
	"slices"
	"strings"
	"testing"
)

// One table answers for the controller (keys passed, hosts relayed), the
// wrapper (keys hidden) and doctor (CLI and keys checked): they cannot drift.
func TestProviderTable(t *testing.T) {
	openai := DefaultConfig()
	openai.LLMProvider, openai.OpenAI.APIKeyEnv, openai.OpenAI.BaseURL = ProviderOpenAI, "TEAM_KEY", "http://host.docker.internal:11434/v1"
	gemini := DefaultConfig()
	gemini.LLMProvider = ProviderGemini
	literal := DefaultConfig()
	literal.LLMProvider = ProviderLiteral
	for _, tc := range []struct {
		name      string
		cfg       Config
		cli       string
		keys      []string
		hosts     []string
		inProcess bool
	}{
		{"literal", literal, "", nil, nil, true},
		{"openai names its key and host", openai, "", []string{"TEAM_KEY"}, []string{"host.docker.internal:11434"}, true},
		{"gemini reads GEMINI_API_KEY alone", gemini, "gemini", []string{"GEMINI_API_KEY"},
			[]string{"generativelanguage.googleapis.com:443", "oauth2.googleapis.com:443", "cloudcode-pa.googleapis.com:443"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			info := tc.cfg.LLMProvider.Info()
			if info.CLI != tc.cli || info.InProcess != tc.inProcess {
				t.Errorf("info = %+v, want CLI %q inProcess %v", info, tc.cli, tc.inProcess)
			}
			if got := tc.cfg.KeyVariables(); !slices.Equal(got, tc.keys) {
				t.Errorf("KeyVariables = %q, want %q", got, tc.keys)
			}
			if got := tc.cfg.APIHosts(); !slices.Equal(got, tc.hosts) {
				t.Errorf("APIHosts = %q, want %q", got, tc.hosts)
			}
		})
	}
	all := AllKeyVariables()
	for _, info := range Providers() {
		for _, k := range info.KeyVariables {
			if !slices.Contains(all, k) {
				t.Errorf("AllKeyVariables %q misses %s's %s", all, info.Name, k)
			}
		}
	}
	if len(all) != 5 || !slices.Contains(all, "GOOGLE_API_KEY") {
		t.Errorf("AllKeyVariables = %q, want the 5 distinct variables, GOOGLE_API_KEY (hidden, not passed) among them", all)
	}
	if why := ProviderGemini.Info().NotKeys["GOOGLE_API_KEY"]; !strings.Contains(why, "GOOGLE_GENAI_USE_VERTEXAI") {
		t.Errorf("gemini's NotKeys say %q about GOOGLE_API_KEY, want the Vertex AI condition", why)
	}
}
