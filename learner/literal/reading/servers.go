package reading

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/servers"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// markServers finds servers: a command whose shown output (in its block or
// the block after it) is what a server prints when it is up. Every
// background command learns what it should show, to know when to go on.
func markServers(steps []Step) {
	for i := range steps {
		if steps[i].Kind != StepRun {
			continue
		}
		shown := steps[i].Command.Expected
		if len(shown) == 0 && i+1 < len(steps) && steps[i+1].Kind == StepCompare {
			shown = steps[i+1].Expected
		}
		if servers.UpText.MatchString(expectedText(shown)) || servers.Known(shell.LastInChain(steps[i].Command.Text)) {
			steps[i].Background = true
		}
		if steps[i].Background && len(steps[i].Shown) == 0 { // an author's `ready=` stays
			steps[i].Shown = shown
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
