package reading

import (
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

func TestOptionalSteps(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want map[int]int // command line -> the line that makes it optional
	}{
		{"if you want, also install", md("Build the page:", "", "```bash", "echo build", "```", "", "If you want a PDF too, also install the typesetter:", "", "```bash", "apt-get install -y typesetter", "```"),
			map[int]int{4: 0, 10: 7}},
		{"optionally", md("Optionally, check the version:", "", "```bash", "tool --version", "```"), map[int]int{4: 1}},
		{"you can also mid-paragraph", md("Fields are numbered from one. You can also pass an expression:", "", "```bash", "echo 1", "```"), map[int]int{4: 1}},
		{"optional heading", md("## Extras (optional)", "", "Run:", "", "```bash", "echo extra", "```"), map[int]int{6: 1}},
		// For readers with a setup of their own: not a step at all (offPath).
		{"for readers who manage their own", md("If managing your own environment, these should agree:", "", "```bash", "which python3", "```"), map[int]int{}},
		{"inside a Hugo note", md("{{% note %}}", "If managing your own environment, these should agree:", "", "```bash", "which python3", "```"), map[int]int{}},
		{"plain step", md("Run:", "", "```bash", "echo one", "```"), map[int]int{4: 0}},
		{"alternatives stay omitted", md("Alternatively, build it:", "", "```bash", "echo b", "```"), map[int]int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[int]int{}
			for _, s := range Plan(spectest.Tutorial(t, tc.md)) {
				if s.Kind == StepRun {
					got[s.Line] = s.Optional
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("runs %v, want %v", got, tc.want)
			}
			for line, opt := range tc.want {
				if got[line] != opt {
					t.Errorf("line %d optional = %d, want %d (all: %v)", line, got[line], opt, got)
				}
			}
		})
	}
}
