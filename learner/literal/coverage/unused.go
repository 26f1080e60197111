package coverage

import (
	"fmt"

	"github.com/smile-loop/smile/status"
)

// A file the Student wrote was tested only if something used it: a command
// that ran it, built it, read it or served it. Which command reads which
// file is often not written down (`go run .`, `make`, a server that loads
// its configuration), but a command run after the file was written may
// have; one run before it cannot. So a block written after the last
// command the Student ran is not counted as exercised: a page whose steps
// all write files and none runs them has tested nothing, and must not end
// "completed" with most of its blocks counted.
func (c *Collector) unused() {
	for _, b := range c.blocks {
		if b.outcome == status.OutcomeWritten && b.line > c.lastRun {
			b.outcome, b.reason = status.OutcomeSkipped, fmt.Sprintf("written to its file, but no command ran after it: nothing used it%s", c.lastRunSaid())
			clear(b.covered)
		}
	}
}

func (c *Collector) lastRunSaid() string {
	if c.lastRun == 0 {
		return " (the Student ran no command)"
	}
	return fmt.Sprintf(" (the last command run is at line %d)", c.lastRun)
}
