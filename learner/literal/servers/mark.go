package servers

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/step"
)

// Mark finds the servers among a plan's steps: a command whose shown output
// (in its block or the block after it) is what a server prints when it is
// up, or one Known to keep running. Every background command learns what it
// should show, to know when to go on, unless its author's ready annotation
// says what to wait for.
func Mark(steps []step.Step) {
	for i := range steps {
		if steps[i].Kind != step.Run {
			continue
		}
		shown := steps[i].Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == step.Compare {
			shown = steps[i+1].Expected
		}
		if UpText.MatchString(expectedText(shown)) || Known(shell.LastInChain(steps[i].Command.Text)) {
			steps[i].Background = true
		}
		s := &steps[i]
		if s.Background && len(s.Shown) == 0 && s.ReadyPort == 0 && s.ReadyURL == "" { // an author's `ready=` stays
			s.Shown = shown
		}
	}
}

func expectedText(lines []expect.Line) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.Text + "\n")
	}
	return b.String()
}
