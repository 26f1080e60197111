package mentor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// lacksGNUAwk completes "the container lacks ..." when a page written for
// GNU awk meets the image's mawk (Debian's default awk).
const lacksGNUAwk = "GNU awk, which the tutorial is written for (the image's `awk` is mawk)"

var (
	// gnuAwkNamed: the page says it is about GNU awk (or points to gawk's
	// manual).
	gnuAwkNamed = regexp.MustCompile(`(?i)\bgawk\b|\bGNU\s+awk\b`)
	// mawkError is how mawk reports an error ("awk: line 1: ...", "mawk:
	// ..."); gawk says "awk: cmd. line:1:".
	mawkError = regexp.MustCompile(`(?m)^(?:awk: line \d+:|mawk: )|\bnot an option\b`)
)

// AwkFlavour turns a failed awk command into the environment's gap when
// the tutorial is written for GNU awk and the image's awk is mawk, which
// answers with its own errors: the reader has the awk the page names.
func AwkFlavour(f Failure, command, output string, t *spec.Tutorial) Failure {
	if f.Category == status.CategoryEnvironment || t == nil || shell.CommandName(command) != "awk" ||
		!mawkError.MatchString(output) || !gnuAwkNamed.MatchString(t.Content) {
		return f
	}
	return Failure{Category: status.CategoryEnvironment, Subject: lacksGNUAwk, ErrorLine: ErrorLine(output)}
}

// gnuAwk advises installing GNU awk, which takes over `awk`.
func (m *mentor) gnuAwk(base wire.MentorAdvice, f status.Finding) (advice, bool) {
	if !strings.Contains(f.Problem, lacksGNUAwk) {
		return advice{}, false
	}
	pm, found := packages.Detect(m.lookPath)
	if !found {
		return advice{}, false
	}
	base.Resolution = status.ResolutionWorkaround
	base.Workaround = pm.Install("gawk")
	base.SuggestedFix = fmt.Sprintf("Nothing to fix in the tutorial: it is written for GNU awk, and line %d fails under mawk. Run it with a `containerImage` that has gawk.", f.Line)
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"`%s` failed under mawk, the image's `awk`, while the tutorial is written for GNU awk. That is the environment, not the tutorial; the workaround installs gawk (%s), which then answers to `awk`.",
		FirstLine(f.Command), pm)}, true
}
