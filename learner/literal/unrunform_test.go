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

// A failed command whose error names a stand-in argument of it (`url.git`)
// is the form of a command on the reader's own repository: no gap. The
// same failure on a name the page means is one.
func TestFailureOnAStandInArgument(t *testing.T) {
	hands := scriptedHands{
		output: map[string]string{"git clone url.git": "fatal: repository 'url.git' does not exist\n", "git clone shop.git": "fatal: repository 'shop.git' does not exist\n"},
		exit:   map[string]int{"git clone url.git": 128, "git clone shop.git": 128},
	}
	out := walkPage(t, "# Git\n\n## Clone\n\n```bash\ngit clone url.git\n```\n", hands)
	if len(out.Findings) != 0 || !strings.Contains(strings.Join(skippedReasons(out), "\n"), "`url.git`, which the error names, stands for the reader's own") {
		t.Errorf("findings %+v, skipped %v: want no gap and the reason", out.Findings, skippedReasons(out))
	}
	if own := walkPage(t, "# Git\n\n## Clone\n\n```bash\ngit clone shop.git\n```\n", hands); len(own.Findings) == 0 {
		t.Errorf("a clone of the page's own name failing: no finding")
	}
}
