package literal_test

import (
	"strings"
	"testing"
)

// A lesson on permissions shows the refusal an ordinary user meets; the
// Student runs as root, whom they do not stop: no gap, and the skipped list
// says why. A failure the page shows that root meets too is compared as
// usual.
func TestContainerRootPassesARefusal(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "root-refusal.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	if len(out.Findings) != 0 {
		t.Fatalf("findings %v, want none:\n%s", gaps(out.Findings), dump(t, res))
	}
	found := false
	for _, sk := range out.Skipped {
		if sk.Line == 9 && strings.Contains(sk.Reason, "runs as root") {
			found = true
		}
	}
	if !found {
		t.Errorf("line 9 is not listed as root's pass: %+v", out.Skipped)
	}
}
