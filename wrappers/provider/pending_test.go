package provider

import (
	"context"
	"errors"
	"os/exec"
	"testing"

	"github.com/smile-loop/smile/spec"
)

func TestPending(t *testing.T) {
	found := func(string) (string, error) { return "/usr/local/bin/x", nil }
	missing := func(string) (string, error) { return "", exec.ErrNotFound }
	tests := []struct {
		name     spec.Provider
		look     func(string) (string, error)
		wantErr  error
		wantText string
	}{
		{spec.ProviderClaude, missing, ErrCLINotAvailable, "LLM CLI not available: claude"},
		{spec.ProviderCodex, missing, ErrCLINotAvailable, "LLM CLI not available: codex"},
		{spec.ProviderGemini, missing, ErrCLINotAvailable, "LLM CLI not available: gemini"},
		{spec.ProviderClaude, found, ErrNotSupported, "provider claude is not supported by this build yet"},
		{spec.ProviderOpenAI, missing, ErrNotSupported, "provider openai is not supported by this build yet"},
	}
	for _, tt := range tests {
		t.Run(string(tt.name), func(t *testing.T) {
			p := ForProvider(tt.name)
			p.LookPath = tt.look
			_, err := p.Student(context.Background(), nil, Env{})
			if !errors.Is(err, tt.wantErr) || err.Error() != tt.wantText {
				t.Errorf("Student error = %v, want %q", err, tt.wantText)
			}
			_, err = p.Mentor(context.Background(), nil, Env{})
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Mentor error = %v, want %v", err, tt.wantErr)
			}
		})
	}
}
