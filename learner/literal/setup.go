package literal

import (
	"context"
	"fmt"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/status"
)

// A setupCommand is one command run before the page's first step, with
// where it comes from: smile.json's setup (line 0) or the page's own front
// matter (`smile: setup:`, at the line of `smile:`).
type setupCommand struct {
	text, from string
	line       int
}

// setupCommands are smile.json's setup, then the page's.
func (s *student) setupCommands() []setupCommand {
	var out []setupCommand
	for _, c := range s.task.Setup {
		out = append(out, setupCommand{text: c, from: "smile.json"})
	}
	ps := s.tut.Steering
	for _, c := range ps.Setup {
		out = append(out, setupCommand{text: c, from: fmt.Sprintf("the page's front matter, line %d", ps.Line), line: ps.Line})
	}
	return out
}

// runSetup runs the setup commands in the session before the page's first
// step: what the page assumes but does not show (a lesson's data, say).
// Each is audited at its line (0 for smile.json's) and said in the Student's
// actions as setup the page did not show, so a reader of the report knows
// the page's steps alone would not have had it. A failed setup command is an
// environment finding at that line, and the Student goes on: the page's own
// steps say what it cost. An attempt resumed from a checkpoint had its setup
// run before the snapshot.
func (s *student) runSetup(ctx context.Context) {
	if s.task.Resume != nil {
		return
	}
	for _, c := range s.setupCommands() {
		if ctx.Err() != nil {
			return
		}
		cmd := c.text
		res, err := s.sess.RunPrivileged(ctx, cmd, max(s.timeout, mentor.WorkaroundTimeout))
		if err != nil {
			s.action(fmt.Sprintf("setup the page did not show (%s): `%s` could not run: %v", c.from, mentor.FirstLine(cmd), err))
			continue
		}
		s.auditCommand(c.line, cmd, res, 1, false)
		s.out.CommandsRun = append(s.out.CommandsRun, cmd)
		if succeeded(res) {
			s.action(fmt.Sprintf("setup the page did not show (%s): `%s` (exit 0)", c.from, mentor.FirstLine(cmd)))
			continue
		}
		s.action(fmt.Sprintf("setup the page did not show (%s): `%s` failed (exit %d)", c.from, mentor.FirstLine(cmd), res.ExitCode))
		f := s.finding(status.CategoryEnvironment, c.line,
			fmt.Sprintf("the setup command `%s` from %s failed (exit %d) before the page's first step", mentor.FirstLine(cmd), c.from, res.ExitCode), cmd)
		f.Output, f.ExitCode = status.Excerpt(res.Output), res.ExitCode
		f.SuggestedFix = fmt.Sprintf("Fix the command in %s's setup: it is not one of the page's steps.", c.from)
		_ = s.record(f, false, "", "")
	}
}
