package provider

import (
	"context"
	"errors"
	"fmt"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status/wire"
)

// ErrCLINotAvailable is the seed's E10: the provider's command-line tool is
// not installed in the container image.
var ErrCLINotAvailable = errors.New("LLM CLI not available")

// ErrNotSupported is a provider this build of the wrapper cannot run.
var ErrNotSupported = errors.New("not supported by this build")

// Unsupported stands in for a provider name this wrapper does not know (a
// task from a newer controller): it fails every role with ErrNotSupported
// rather than guessing.
type Unsupported struct {
	Name spec.Provider
}

// Student is part of the Provider interface.
func (u Unsupported) Student(context.Context, *wire.Task, Env) (*wire.StudentResultRequest, error) {
	return nil, u.err()
}

// Mentor is part of the Provider interface.
func (u Unsupported) Mentor(context.Context, *wire.Task, Env) (*wire.MentorResultRequest, error) {
	return nil, u.err()
}

func (u Unsupported) err() error {
	name := string(u.Name)
	if name == "" {
		name = "(none)"
	}
	return fmt.Errorf("provider %s is %w", name, ErrNotSupported)
}
