package provider

import (
	"context"
	"errors"
	"fmt"
	"os/exec"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
)

// ErrCLINotAvailable is the seed's E10: the provider's command-line tool is
// not installed in the container image.
var ErrCLINotAvailable = errors.New("LLM CLI not available")

// ErrNotSupported is a provider this build of the wrapper cannot run yet.
var ErrNotSupported = errors.New("not supported by this build yet")

// Pending stands in for a provider that is not implemented yet. It fails
// every role with the clearest error it can give: the missing CLI when the
// provider needs one that is not on PATH (E10), else ErrNotSupported.
type Pending struct {
	Name spec.Provider
	// CLI is the program the provider drives ("" when it needs none).
	CLI string
	// LookPath finds a program on PATH; nil means exec.LookPath.
	LookPath func(file string) (string, error)
}

// ForProvider returns the Pending stand-in for a provider name: claude, codex
// and gemini need their vendor CLI, openai needs none.
func ForProvider(name spec.Provider) Pending {
	switch name {
	case spec.ProviderClaude, spec.ProviderCodex, spec.ProviderGemini:
		return Pending{Name: name, CLI: string(name)}
	}
	return Pending{Name: name}
}

// Student is part of the Provider interface.
func (p Pending) Student(context.Context, *wire.Task, Env) (*wire.StudentResultRequest, error) {
	return nil, p.err()
}

// Mentor is part of the Provider interface.
func (p Pending) Mentor(context.Context, *wire.Task, Env) (*wire.MentorResultRequest, error) {
	return nil, p.err()
}

func (p Pending) err() error {
	if p.CLI != "" {
		look := p.LookPath
		if look == nil {
			look = exec.LookPath
		}
		if _, err := look(p.CLI); err != nil {
			return fmt.Errorf("%w: %s", ErrCLINotAvailable, p.CLI)
		}
	}
	name := string(p.Name)
	if name == "" {
		name = "(none)"
	}
	return fmt.Errorf("provider %s is %w", name, ErrNotSupported)
}
