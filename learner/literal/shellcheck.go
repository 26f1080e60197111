package literal

import (
	"context"
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/status"
)

// checkShell runs after a command that changed the shell commands run in, or
// the loader's preload list (session.Result.ShellChanged). A page may do that
// honestly (an upgrade reinstalls bash); a shell that no longer reports what
// it runs would pass every later step. So the Student asks it for a known
// exit code and a known sum: a faithful shell goes on, said in the actions;
// an unfaithful one is a finding at the line that changed it, and the walk
// stops there, since nothing it reported afterwards could be believed.
func (s *student) checkShell(ctx context.Context, line int, command, what string) error {
	exit, err := s.sess.Run(ctx, "exit 7", s.timeout)
	if err != nil {
		return fmt.Errorf("cannot check the shell after line %d: %w", line, err)
	}
	sum, err := s.sess.Run(ctx, "echo $((6*7))", s.timeout)
	if err != nil {
		return fmt.Errorf("cannot check the shell after line %d: %w", line, err)
	}
	if exit.ExitCode == 7 && strings.TrimSpace(sum.Output) == "42" {
		s.action(fmt.Sprintf("line %d changed the shell (%s); it still reports exit codes and output faithfully", line, what))
		return nil
	}
	problem := fmt.Sprintf("`%s` changed the shell SMILE runs commands in (%s), and it no longer reports what it runs: `exit 7` came back as exit %d and `echo $((6*7))` printed %q",
		mentor.FirstLine(command), what, exit.ExitCode, strings.TrimSpace(sum.Output))
	f := s.finding(status.CategoryCommandFailure, line, problem, command)
	f.SuggestedFix = fmt.Sprintf("Do not replace the system's shell or its loader's preload list at line %d: every later step's result depends on them.", line)
	_ = s.record(f, false, "", "")
	return fmt.Errorf("the shell cannot be trusted after line %d: %s", line, what)
}
