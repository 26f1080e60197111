package literal_test

import (
	"testing"

	"github.com/smile-loop/smile/status"
)

// The sudo SMILE adds for root runs a command as the user -u names (combined
// options too): `sudo -u postgres createdb` must not run as root.
func TestContainerSudoShimKeepsTheUser(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "sudo-user.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	if out := res.StudentOutput; out.Status != status.StudentCompleted || len(out.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s", dump(t, res))
	}
}
