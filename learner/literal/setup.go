package literal

import (
	"context"
	"fmt"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/status"
)

// runSetup runs smile.json's setup commands in the session before the page's
// first step: what the page assumes but does not show (a lesson's data, say).
// Each is audited at line 0 and said in the Student's actions as setup the
// page did not show, so a reader of the report knows the page alone would not
// have had it. A failed setup command is an environment finding at line 0,
// and the Student goes on: the page's own steps say what it cost. An attempt
// resumed from a checkpoint had its setup run before the snapshot.
func (s *student) runSetup(ctx context.Context) {
	if s.task.Resume != nil {
		return
	}
	for _, cmd := range s.task.Setup {
		if ctx.Err() != nil {
			return
		}
		res, err := s.sess.Run(ctx, cmd, max(s.timeout, mentor.WorkaroundTimeout))
		if err != nil {
			s.action(fmt.Sprintf("setup the page did not show (smile.json): `%s` could not run: %v", mentor.FirstLine(cmd), err))
			continue
		}
		s.auditCommand(0, cmd, res, 1, false)
		s.out.CommandsRun = append(s.out.CommandsRun, cmd)
		if succeeded(res) {
			s.action(fmt.Sprintf("setup the page did not show (smile.json): `%s` (exit 0)", mentor.FirstLine(cmd)))
			continue
		}
		s.action(fmt.Sprintf("setup the page did not show (smile.json): `%s` failed (exit %d)", mentor.FirstLine(cmd), res.ExitCode))
		f := s.finding(status.CategoryEnvironment, 0,
			fmt.Sprintf("the setup command `%s` from smile.json failed (exit %d) before the page's first step", mentor.FirstLine(cmd), res.ExitCode), cmd)
		f.Output, f.ExitCode = status.Excerpt(res.Output), res.ExitCode
		f.SuggestedFix = "Fix the command in smile.json's setup: it is not part of the page."
		_ = s.record(f, false, "", "")
	}
}
