package literal_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// A program that asks its reader (a script's read, passwd) and gets no
// answer fails, or prints what follows an empty one: no gap, since the
// reader types the answer there; the skipped list says so. Output that
// shows the reader interrupting (^C) is not compared. A command that fails
// without asking anything is still the page's gap.
func TestContainerProgramsThatAskTheReader(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "asks.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryMissingFile, 50}}
	if fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("findings %v, want %v:\n%s", gaps(out.Findings), want, dump(t, res))
	}
	why := map[int]string{}
	for _, sk := range out.Skipped {
		why[sk.Line] = sk.Reason
	}
	for line, says := range map[int]string{21: "bash asked", 33: "passwd asked"} {
		if !strings.Contains(why[line], "waits for the reader's answer") || !strings.Contains(why[line], says) {
			t.Errorf("line %d skipped as %q, want the reader's answer (%s)", line, why[line], says)
		}
	}
	// Output that shows the reader's Ctrl-C is not compared.
	if !strings.Contains(why[43], "^C") {
		t.Errorf("the output at line 43 skipped as %q, want the reader's interrupt", why[43])
	}
	if cmds := commandsAt(res.Audit, 21); len(cmds) == 0 {
		t.Errorf("the script at line 21 was not run: %s", dump(t, res))
	}
}
