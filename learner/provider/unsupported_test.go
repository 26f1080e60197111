package provider

import (
	"context"
	"errors"
	"testing"

	"github.com/smile-loop/smile/spec"
)

func TestUnsupportedFailsEveryRole(t *testing.T) {
	for _, tc := range []struct {
		name spec.Provider
		want string
	}{
		{"ollama", "provider ollama is not supported by this build"},
		{"", "provider (none) is not supported by this build"},
	} {
		t.Run(string(tc.name), func(t *testing.T) {
			u := Unsupported{Name: tc.name}
			_, serr := u.Student(context.Background(), nil, Env{})
			_, merr := u.Mentor(context.Background(), nil, Env{})
			for role, err := range map[string]error{"student": serr, "mentor": merr} {
				if !errors.Is(err, ErrNotSupported) || err.Error() != tc.want {
					t.Errorf("%s: %v, want %q", role, err, tc.want)
				}
			}
		})
	}
}
