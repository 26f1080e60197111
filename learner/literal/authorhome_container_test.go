package literal_test

import (
	"strings"
	"testing"
)

// A lab report's commands carry its author's home folder: the Student runs
// them in its own home, and says so; a home the page makes is left alone.
func TestContainerAuthorsHomeIsTheReaders(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "authorhome.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	if len(out.Findings) != 0 {
		t.Fatalf("findings %v, want none:\n%s", gaps(out.Findings), dump(t, res))
	}
	said := strings.Join(out.AttemptedActions, "\n")
	if !strings.Contains(said, "line 6 uses /home/marta, the author's home folder") {
		t.Errorf("the actions do not say the author's home was replaced:\n%s", said)
	}
	if strings.Contains(said, "/home/guest, the author's home") {
		t.Errorf("the home the page makes was replaced:\n%s", said)
	}
	if cmds := commandsAt(res.Audit, 6); len(cmds) != 1 || strings.Contains(cmds[0].Command, "/home/marta") || cmds[0].ExitCode != 0 {
		t.Errorf("line 6 ran %+v, want mkdir in the Student's own home", cmds)
	}
}
