package mentor

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A git that was never told who its user is refuses to commit ("Please tell
// me who you are", "unable to auto-detect email address"): every reader
// with a fresh install meets it at the page's first commit, so the page
// needs a step that sets the name and address, and the Student can go on
// once one is set. The workaround sets a placeholder identity for the
// session (the container's own git configuration, nothing of the host's).

// gitIdentityWanted are the phrases git prints when it has no identity.
var gitIdentityWanted = []string{"Please tell me who you are", "unable to auto-detect email address", "empty ident name"}

// gitIdentity advises setting git's identity before a commit that failed
// for the lack of one.
func gitIdentity(base wire.MentorAdvice, f status.Finding) (advice, bool) {
	wanted := false
	for _, p := range gitIdentityWanted {
		wanted = wanted || strings.Contains(f.Output, p)
	}
	if !wanted || !strings.Contains(f.Command, "git") {
		return advice{}, false
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = `git config --global user.name "SMILE Student" && git config --global user.email student@example.invalid`
	base.SuggestedFix = fmt.Sprintf("Before line %d, tell readers to set git's identity once: `git config --global user.name \"Your Name\"` and `git config --global user.email you@example.com`.", f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` failed because git does not know who is committing: a fresh git asks for a name and an e-mail address before the first commit, and the tutorial never sets them. The workaround sets a placeholder identity so the rest of the tutorial can go on.",
		FirstLine(f.Command))}, true
}
