package learner

import (
	"github.com/smile-loop/smile/learner/claude"
	"github.com/smile-loop/smile/learner/codex"
	"github.com/smile-loop/smile/learner/gemini"
	"github.com/smile-loop/smile/learner/literal"
	"github.com/smile-loop/smile/learner/openai"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
)

// For returns the provider a task names; an unknown name gets the
// Unsupported stand-in, which fails clearly.
func For(name spec.Provider) provider.Provider {
	switch name {
	case spec.ProviderLiteral:
		return literal.Provider{}
	case spec.ProviderClaude:
		return claude.New()
	case spec.ProviderCodex:
		return codex.New()
	case spec.ProviderGemini:
		return gemini.New()
	case spec.ProviderOpenAI:
		return openai.New()
	}
	return provider.Unsupported{Name: name}
}
