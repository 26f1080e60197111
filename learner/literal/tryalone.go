package literal

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/compilerhint"
	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/patience"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/standalone"
	"github.com/smile-loop/smile/learner/literal/standalone/planned"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

var ruleTriedAlone = rule.Register(rule.Rule{ID: "program.tried-alone", Scope: rule.ScopeBlock,
	Doc: "a whole program the page places nowhere (its entry point, or a script whose output the page shows) is saved in a folder of its own and run the way its language is run; a failure there accuses nothing, the output shown after it is compared with what it printed"})

// tryAloneLimit bounds one try: a compile and a short run.
const tryAloneLimit = 90 * time.Second

// unplacedBlock deals with a block the Student cannot place: it is listed
// as skipped, unless it is a whole program tried on its own (tryAlone).
func (s *student) unplacedBlock(ctx context.Context, i int, st reading.Step) {
	if !s.tryAlone(ctx, i, st) {
		s.skip(st)
		return
	}
	s.unplaced = append(s.unplaced, st) // still unplaced: a later missing file may be it
}

// tryAlone tries the unplaced block of step i on its own when it is a whole
// program (package planned), so the output the page shows after it is
// compared with what it printed; it reports whether it tried. The block
// stays unplaced: it is written to a folder of its own under /tmp, never to
// the reader's, and a failure is listed, not recorded as a gap. Output after
// a program that was not tried is that program's, so it is not compared
// with an older command's.
func (s *student) tryAlone(ctx context.Context, i int, st reading.Step) bool {
	lang := standalone.Lang(st.Lang)
	if lang == "" {
		return false
	}
	stale := s.last
	s.last = &lastRun{command: reading.Command{Line: st.Line, EndLine: st.EndLine}}
	prog, ok := planned.Tried(s.planned, i)
	if !ok {
		if stale != nil && planned.OutputShownNext(s.planned, i) {
			s.action(fmt.Sprintf("the output shown after line %d is the %s program's there, not the output of line %d", st.Line, lang, stale.command.Line))
		}
		return false
	}
	dir := fmt.Sprintf("/tmp/smile-alone/line-%d", st.Line)
	if err := s.sess.WriteFile(ctx, dir+"/"+prog.File, []byte(st.Content), false); err != nil {
		s.action(fmt.Sprintf("did not try the %s program at line %d on its own: %v", lang, st.Line, err))
		return false
	}
	text := fmt.Sprintf("(cd %s && %s) </dev/null", shellQuote(dir), prog.Run)
	res, err := s.sess.Run(ctx, text, min(s.timeout, tryAloneLimit))
	if err != nil || ctx.Err() != nil {
		return false
	}
	s.auditOnly(st.Line, text, res, 1, false)
	rules := " [rules: " + rule.Explain([]rule.Evidence{ruleTriedAlone.At(st.Line, prog.File)}) + "]"
	s.last.command.Text = fmt.Sprintf("%s  # the %s program at line %d, saved as %s", prog.Run, lang, st.Line, prog.File)
	s.last.output = res.Output
	if raw := mentor.Classify(prog.Run, res.ExitCode, res.Output, res.TimedOut); raw.Category == status.CategoryMissingDependency && raw.Subject == prog.Tool {
		// The language the page writes its programs in is its subject: the
		// container lacking it is the environment's, as for a named file.
		s.lacksTool(st, prog, raw, res, rules)
		return true
	}
	if header, said, ok := compilerhint.MissingInclude(res.Output); ok && !succeeded(res) {
		s.forgotInclude(st, prog, header, said, res, rules)
		return true
	}
	if !succeeded(res) {
		why := fmt.Sprintf("tried on its own as %s: `%s` failed (exit %d), not a gap: the page never says to run it alone", prog.File, prog.Run, res.ExitCode)
		if res.TimedOut {
			why = fmt.Sprintf("tried on its own as %s: `%s` did not end within %s, not a gap", prog.File, prog.Run, min(s.timeout, tryAloneLimit))
		}
		s.action(fmt.Sprintf("line %d: %s; %s%s", st.Line, why, mentor.FirstLine(res.Output), rules))
		s.listSkipped(st.Line, st.EndLine, why)
		return true
	}
	// Output shown further on is not this program's: nothing compares it.
	s.last.ok = planned.OutputShownNext(s.planned, i)
	s.cov.Mark(st.Line, st.EndLine, status.OutcomeRun, "")
	s.action(fmt.Sprintf("tried the %s program at line %d on its own (the page names no file for it): saved as %s in %s, `%s` (exit 0)%s", lang, st.Line, prog.File, dir, prog.Run, rules))
	return true
}

// lacksTool records that the container lacks the program a tried block
// needs: an environment finding the Mentor can answer by installing it, after
// which the next iteration tries the block again.
func (s *student) lacksTool(st reading.Step, prog standalone.Program, raw mentor.Failure, res session.Result, rules string) {
	s.action(fmt.Sprintf("line %d: could not try the %s program on its own: `%s` is not installed%s", st.Line, prog.Lang, prog.Tool, rules))
	s.listSkipped(st.Line, st.EndLine, fmt.Sprintf("not tried on its own: `%s` is not installed", prog.Tool))
	c := status.CategoryEnvironment
	f := s.finding(c, st.Line, mentor.Problem(c, prog.Tool, raw.ErrorLine, prog.Run, res.ExitCode, s.behavior.TimeoutSeconds), s.last.command.Text)
	f.Output, f.ExitCode, f.Attempts = status.Excerpt(res.Output), res.ExitCode, 1
	f.SuggestedFix = mentor.SuggestedFix(c, st.Line, prog.Tool)
	d := patience.Decide(c, s.behavior, s.resolution(st.Line, st.EndLine))
	_ = s.record(f, d.Ask, prog.Tool, raw.ErrorLine)
}

// forgotInclude records a whole program that does not compile because it
// uses a header it never includes, as the compiler itself says: complete
// and wrong, not a fragment, so the page's gap (recorded, not asked about).
func (s *student) forgotInclude(st reading.Step, prog standalone.Program, header, said string, res session.Result, rules string) {
	s.action(fmt.Sprintf("line %d: the %s program tried on its own does not compile: %s%s", st.Line, prog.Lang, strings.TrimSpace(said), rules))
	f := s.finding(status.CategoryCommandFailure, st.Line, fmt.Sprintf(
		"the %s program at line %d does not compile: it uses what `%s` declares without including it (%s)", prog.Lang, st.Line, header, strings.TrimSpace(said)), s.last.command.Text)
	f.Output, f.ExitCode, f.Attempts = status.Excerpt(res.Output), res.ExitCode, 1
	f.SuggestedFix = fmt.Sprintf("Add `#include %s` at the top of the program at line %d.", header, st.Line)
	_ = s.record(f, false, "", "")
}
