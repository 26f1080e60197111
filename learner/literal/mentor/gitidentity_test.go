package mentor

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

func TestGitIdentity(t *testing.T) {
	base := wire.MentorAdvice{Line: 21, Category: status.CategoryCommandFailure}
	f := status.Finding{Line: 21, Command: `git commit -m "first"`, ExitCode: 128,
		Output: "Author identity unknown\n\n*** Please tell me who you are.\n\nfatal: unable to auto-detect email address (got 'root@box.(none)')\n"}
	a, ok := gitIdentity(base, f)
	if !ok || a.Resolution != status.ResolutionWorkaround || !strings.Contains(a.Workaround, "git config --global user.email") ||
		!strings.Contains(a.SuggestedFix, "Before line 21") {
		t.Fatalf("a commit git refused for want of an identity: ok %v, %+v", ok, a.MentorAdvice)
	}
	for _, other := range []status.Finding{
		{Line: 3, Command: "git commit -m x", Output: "nothing to commit, working tree clean"},
		{Line: 4, Command: "make", Output: "Please tell me who you are"}, // not git's
	} {
		if _, ok := gitIdentity(base, other); ok {
			t.Errorf("advised an identity for %q: %q", other.Command, other.Output)
		}
	}
}
