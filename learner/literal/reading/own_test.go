package reading

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// A block for readers with a setup of their own (a virtualenv they manage,
// their own sources to build) is omitted; the same block introduced as a
// step is run.
func TestReadersOwnSetupIsNotAStep(t *testing.T) {
	for _, tc := range []struct {
		name, prose string
		omit        bool
	}{
		{"own virtualenv", "If you manage your own environment with another tool, these two should agree:", true},
		{"managing own", "If managing your own interpreter elsewhere, compare:", true},
		{"own sources", "The makefile finds everything itself. All you have to do is put your Rust files in the `lib/` folder.", true},
		{"a step", "Check that both commands agree:", false},
		{"your own words", "Write the summary in your own words, then count it:", false},
	} {
		md := "# Tools\n\n" + tc.prose + "\n\n```bash\nwhich python3\n```\n"
		steps := Plan(spectest.Tutorial(t, md))
		if len(steps) != 1 {
			t.Fatalf("%s: %d steps: %+v", tc.name, len(steps), summarize(steps))
		}
		omitted := steps[0].Kind == StepOmit && strings.Contains(steps[0].Why, "reader's own setup")
		if omitted != tc.omit {
			t.Errorf("%s: omitted = %v (%s), want %v", tc.name, omitted, steps[0].Why, tc.omit)
		}
	}
}
