package literal

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/patience"
	"github.com/smile-loop/smile/learner/literal/projectfile"
	"github.com/smile-loop/smile/learner/literal/reach"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/status"
)

// reachTimeout bounds one address check, which itself gives a connection
// reach.ConnectSeconds.
const reachTimeout = (reach.ConnectSeconds + 5) * time.Second

// checker is the run's address checker, made on first use. Its checks run
// in the Student's own shell (so they see the page's proxy settings) and
// leave the shell's state as it was.
func (s *student) checker() *reach.Checker {
	if s.reach == nil {
		s.reach = reach.NewChecker(func(ctx context.Context, script string) (string, error) {
			state := s.sess.State()
			defer s.sess.SetState(state)
			res, err := s.sess.Run(ctx, script, reachTimeout)
			if err != nil {
				return "", err
			}
			return res.Output, nil
		})
	}
	return s.reach
}

// unreachable checks, before a command runs, the addresses it certainly
// downloads from (reach.Needs). One the container cannot connect to makes
// the step the environment's: it is not run (a package manager with no
// registry retries for minutes), and the finding quotes the check.
func (s *student) unreachable(ctx context.Context, st reading.Step) (bool, error) {
	cmd := st.Command
	addrs := reach.Needs(cmd.Text)
	if len(addrs) == 0 {
		return false, nil
	}
	a, r, ok := s.checker().FirstUnreachable(ctx, addrs)
	if !ok {
		return false, nil
	}
	s.action(fmt.Sprintf("did not run line %d: `%s` downloads from %s, and %s", cmd.Line, mentor.FirstLine(cmd.Text), reach.Describe(a), r.Evidence))
	fail := mentor.Failure{Category: status.CategoryEnvironment, Subject: mentor.LacksNetwork, ErrorLine: r.Evidence}
	f := s.finding(fail.Category, cmd.Line,
		mentor.Problem(fail.Category, fail.Subject, fail.ErrorLine, cmd.Text, 0, s.behavior.TimeoutSeconds), cmd.Text)
	f.Output = r.Evidence
	f.SuggestedFix = mentor.SuggestedFix(fail.Category, cmd.Line, fail.Subject)
	d := patience.Decide(f.Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
	return true, s.recordFailure(st, f, d, fail.Subject, fail)
}

// compileError is a compiler's own error in a build's output (rustc's
// error[E0425], Go's and C's file:line: diagnostics, javac's, Elixir's): the
// build reached the code, so its failure is the code's, whatever the
// network.
var compileError = regexp.MustCompile(`error\[E\d{4}\]|error: could not compile|(?m)^\s*\S+\.(?:go|c|cc|cpp|h|java|kt|scala|hs|ex|exs|rs|cs):\d+(?::\d+)?:? |` +
	`cannot find symbol|undefined reference to|\(CompileError\)|SyntaxError`)

// networkCause: a build that may download its project's dependencies
// (reach.MayNeed) and failed is the environment's when the container cannot
// reach where they come from, unless its output shows the compiler's own
// error.
func (s *student) networkCause(ctx context.Context, command, output string, fail mentor.Failure) mentor.Failure {
	if fail.Category == status.CategoryEnvironment || compileError.MatchString(output) {
		return fail
	}
	if _, ok := projectfile.Missing(output); ok {
		return fail // the tool found no project: it never got to download
	}
	addrs := reach.MayNeed(command)
	if len(addrs) == 0 {
		return fail
	}
	if _, r, ok := s.checker().FirstUnreachable(ctx, addrs); ok {
		return mentor.Failure{Category: status.CategoryEnvironment, Subject: mentor.LacksNetwork, ErrorLine: r.Evidence}
	}
	return fail
}
