package literal

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// A command that fails right after a general form of its program the
// Student did not run (a placeholder it cannot fill) fails for want of what
// that form makes: no gap, and the skip says why. Without such a form the
// same failure is the page's.
func TestFailureAfterAnUnrunForm(t *testing.T) {
	hands := scriptedHands{output: map[string]string{"tmux ls": "no server running on /tmp/tmux-0/default\n"}, exit: map[string]int{"tmux ls": 1}}
	page := "# tmux\n\n```shell\n# start one\n$ tmux new -s <session-name>\n\n# list them\n$ tmux ls\n```\n"
	out := walkPage(t, page, hands)
	if len(out.Findings) != 0 {
		t.Fatalf("findings %+v, want none: the form at line 5 makes the session line 8 lists", out.Findings)
	}
	if !strings.Contains(strings.Join(skippedReasons(out), "\n"), "line 5 above, a general form of `tmux`") {
		t.Errorf("skipped %v, want the reason naming line 5", skippedReasons(out))
	}
	alone := walkPage(t, "# tmux\n\n```shell\n$ tmux ls\n```\n", hands)
	if len(alone.Findings) == 0 {
		t.Errorf("tmux ls failing with no form before it: no finding")
	}
}

func skippedReasons(out status.StudentOutput) []string {
	var r []string
	for _, sk := range out.Skipped {
		r = append(r, sk.Reason)
	}
	return r
}
