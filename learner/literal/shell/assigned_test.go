package shell

import (
	"slices"
	"testing"
)

func TestAssigned(t *testing.T) {
	for cmd, want := range map[string][]string{
		"export USER_NAME=<your name>":          nil, // not bash: a redirect from nothing
		"export USER_NAME=x":                    {"USER_NAME"},
		"A=1 B=2":                               {"A", "B"},
		"declare -x PORT=80; readonly MODE=dev": {"PORT", "MODE"},
		"A=1 make build":                        nil, // the variable is the command's, not the session's
		"echo $A":                               nil,
	} {
		if got := Assigned(cmd); !slices.Equal(got, want) {
			t.Errorf("Assigned(%q) = %q, want %q", cmd, got, want)
		}
	}
}
