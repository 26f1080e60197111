package literal_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// Whole programs the page places nowhere are tried on their own: the output
// shown after one is compared with what it printed (a difference is a gap),
// one that fails alone accuses nothing and its output is not compared with
// an older command's, a language the container lacks is the environment's,
// and nothing lands in the reader's folder.
func TestContainerProgramsTriedAlone(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "alone.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryOutputMismatch, 34}, {status.CategoryEnvironment, 52}}
	if fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("findings %v, want %v:\n%s", gaps(out.Findings), want, dump(t, res))
	}
	if cmds := commandsAt(res.Audit, 11); len(cmds) != 1 || !strings.Contains(cmds[0].Command, "perl main.pl") || cmds[0].ExitCode != 0 {
		t.Errorf("the counting program at line 11 was not tried with perl: %+v", cmds)
	}
	if cmds := commandsAt(res.Audit, 39); len(cmds) != 1 || cmds[0].ExitCode == 0 {
		t.Errorf("the program needing settings.txt should have been tried and failed: %+v", cmds)
	}
	c := out.Coverage
	if c == nil {
		t.Fatalf("no coverage:\n%s", dump(t, res))
	}
	outcome := map[int]status.Outcome{}
	for _, b := range c.BlockList {
		outcome[b.Line] = b.Outcome
	}
	for line, o := range map[int]status.Outcome{11: status.OutcomeRun, 19: status.OutcomeCompared, 39: status.OutcomeSkipped, 46: status.OutcomeSkipped} {
		if outcome[line] != o {
			t.Errorf("block at line %d: %s, want %s (all: %v)", line, outcome[line], o, outcome)
		}
	}
	entries, err := os.ReadDir(filepath.Join(s.work, "counting"))
	if err != nil || len(entries) != 0 {
		t.Errorf("the reader's folder holds %v (%v), want nothing: the tries go elsewhere", entries, err)
	}
}
