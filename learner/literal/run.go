package literal

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/depend"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/pagemade"
	"github.com/smile-loop/smile/learner/literal/patience"
	"github.com/smile-loop/smile/learner/literal/provenance"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/samplename"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// startRun makes cmd the last command run: what it prints adds to its
// block's output when the command before it was of the same block and
// succeeded, and a difference excused for a listing carries over to the
// same folder listed again with nothing run or written between.
func (s *student) startRun(cmd reading.Command) {
	prev := s.last
	s.last = &lastRun{command: cmd, files: len(s.out.FilesCreated)}
	if b := s.cov.BlockStart(cmd.Line); b != 0 {
		s.last.block = b
		if prev != nil && prev.ok && prev.block == b && prev.blockRuns > 0 {
			s.last.blockOutput, s.last.blockRuns = prev.blockOutput, prev.blockRuns
		}
	}
	if prev != nil && prev.differs > 0 && prev.files == s.last.files && expect.SameFolderListed(prev.command.Text, cmd.Text) {
		s.last.differs = prev.differs
	}
}

// wasStoodIn: a Mentor's workaround did the step's work in its own way
// (student.stoodIn), so it is listed as skipped, not run.
func (s *student) wasStoodIn(cmd reading.Command) bool {
	it, ok := s.stoodIn[cmd.Line]
	if !ok {
		return false
	}
	why := fmt.Sprintf("not run: the Mentor's workaround from iteration %d did what it does in its own way, as this container needs", it)
	s.action(fmt.Sprintf("did not run line %d: %s", cmd.Line, why))
	s.listSkipped(cmd.Line, cmd.EndLine, why)
	return true
}

// shownInline: a one-line "command" that is exactly what the command just
// before it printed, and starts no program a reader knows, is that output
// shown inline in the same block (`BASH_ENV=x bash m.sh`, then `1234`): it
// matched, so it is compared, not run.
func (s *student) shownInline(st reading.Step) bool {
	prev, text := s.last, strings.TrimSpace(st.Command.Text)
	if prev == nil || !prev.ok || strings.Contains(text, "\n") || codelang.KnownProgram(shell.CommandName(text)) ||
		strings.TrimSpace(prev.output) != text || text == "" || s.cov.BlockStart(st.Line) == 0 || s.cov.BlockStart(st.Line) != prev.block {
		return false
	}
	s.action(fmt.Sprintf("line %d is what line %d printed, shown inline in its block: compared, not run", st.Command.Line, prev.command.Line))
	s.cov.Compared(st.Command.Line, st.Command.EndLine)
	return true
}

// usesUndefined: the command uses variables nothing on the page sets, so it
// is not run and the gap is recorded (true, with the record's error).
func (s *student) usesUndefined(st reading.Step) (bool, error) {
	cmd := st.Command
	if names := shell.UndefinedVariables(cmd.Text, s.isSet); len(names) > 0 && !st.Observe {
		list := "`$" + strings.Join(names, "`, `$") + "`"
		p := fmt.Sprintf("%s: a variable the tutorial never sets, so `%s` was not run", list, mentor.FirstLine(cmd.Text))
		if len(names) > 1 {
			p = fmt.Sprintf("%s: variables the tutorial never sets, so `%s` was not run", list, mentor.FirstLine(cmd.Text))
		}
		f := s.finding(status.CategoryUndefinedVariable, cmd.Line, p, cmd.Text)
		f.SuggestedFix = mentor.SuggestedFix(status.CategoryUndefinedVariable, cmd.Line, names[0])
		d := patience.Decide(f.Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
		s.action(fmt.Sprintf("did not run line %d: it uses %s, which nothing sets", cmd.Line, list))
		return true, s.record(f, d.Ask, names[0], "")
	}
	return false, nil
}

// run runs one tutorial command, retrying it as patience allows.
func (s *student) run(ctx context.Context, st reading.Step) error {
	s.because(st)
	cmd := st.Command
	if s.shownInline(st) {
		return nil
	}
	s.startRun(cmd)
	state := s.sess.State()
	if undefined, err := s.usesUndefined(st); undefined {
		return err
	}
	if failed := s.optionalFailed[st.Optional]; st.Optional > 0 && failed > 0 {
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("the optional part line %d introduces already failed at line %d", st.Optional, failed))
		return nil
	}
	if s.wasStoodIn(cmd) {
		return nil
	}
	if st.Background {
		return s.runBackground(ctx, st)
	}
	if skipped, err := s.unreachable(ctx, st); skipped || err != nil {
		return err
	}
	s.typedInputFinding(st)
	text := s.commandText(ctx, st)
	for attempt := 1; ; attempt++ {
		if attempt > 1 {
			s.sess.SetState(state) // a retry starts where the first try did
			s.env.Progress(ctx, fmt.Sprintf("%s (attempt %d)", s.stepName(cmd.Line), attempt), cmd.Line)
		}
		limit, stop := s.timeout, func() {}
		if st.TimeoutSeconds > 0 {
			limit = time.Duration(st.TimeoutSeconds) * time.Second // the author's annotation
		}
		if packageInstall.MatchString(cmd.Text) {
			// An install's length is the mirror's, not the page's: it gets the
			// install limit, and heartbeats so the controller does not take
			// it for a stuck step.
			limit = max(s.timeout, mentor.WorkaroundTimeout)
			stop = mentor.Heartbeat(ctx, s.env, s.stepName(cmd.Line), cmd.Line, s.timeout/3)
		}
		res, err := s.sess.Run(ctx, text, limit)
		stop()
		if err != nil {
			return fmt.Errorf("cannot run line %d: %w", cmd.Line, err)
		}
		if ctx.Err() != nil {
			return fmt.Errorf("stopped while running line %d: %w", cmd.Line, ctx.Err())
		}
		s.auditCommand(cmd.Line, text, res, attempt, false)
		if f, ok := mentor.MissingInPipe(cmd.Text, res.Output, s.tut); ok && succeeded(res) && f.Category == status.CategoryMissingFile && len(cmd.Expected) == 0 {
			// A pipeline's status is its last program's: `cat data.json |
			// jq .` ends 0 though cat found no file.
			s.action(fmt.Sprintf("line %d exited 0, but %s: a pipeline's status is its last program's", cmd.Line, f.ErrorLine))
			res.ExitCode = 1
		}
		if line := listHidesFailure(cmd.Text, res.Output); line != "" && succeeded(res) {
			s.action(fmt.Sprintf("line %d exited 0, but an earlier command of its list printed %q: a list's status is its last command's", cmd.Line, line))
			res.ExitCode = 1
		}
		if res.ShellChanged != "" {
			if err := s.checkShell(ctx, cmd.Line, cmd.Text, res.ShellChanged); err != nil {
				return err
			}
		}
		if attempt == 1 {
			s.out.CommandsRun = append(s.out.CommandsRun, text)
		}
		fail := s.classify(ctx, cmd, res)
		d := patience.Decide(fail.Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
		if !succeeded(res) && !st.ExpectFail && !st.Observe && attempt < d.Attempts && s.anotherWay(st) == "" {
			s.action(fmt.Sprintf("ran line %d: `%s` (attempt %d of %d): %s", cmd.Line, mentor.FirstLine(cmd.Text), attempt, d.Attempts, describeResult(res, fail)))
			continue
		}
		return s.judge(ctx, st, res, attempt, d)
	}
}

// commandText is what the shell runs for a step: its command with the
// input typed into it, in a REPL's session when it has one, in the folder
// an annotation or its prompt names.
func (s *student) commandText(ctx context.Context, st reading.Step) string {
	cmd := st.Command
	dir := st.Dir
	if pd := s.promptDir(ctx, st); pd != "" {
		dir = pd
		s.action(fmt.Sprintf("line %d runs in %s, the folder its prompt shows", cmd.Line, pd))
	}
	text := reading.InFolder(dir, reading.WithInput(s.ownHome(ctx, cmd.Line, cmd.Text), st.Stdin))
	if st.Session != "" {
		if script, ok := reading.InSession(cmd.Text, st.Stdin, st.NewSession, cmd.Line); ok {
			text = reading.InFolder(dir, script)
		}
	}
	return text
}

func succeeded(res session.Result) bool { return res.ExitCode == 0 && !res.TimedOut }

func (s *student) classify(ctx context.Context, cmd reading.Command, res session.Result) mentor.Failure {
	fail := mentor.Classify(cmd.Text, res.ExitCode, res.Output, res.TimedOut)
	if fail.Category == status.CategoryMissingDependency && strings.Contains(fail.Subject, "/") {
		script := filepath.Join(s.sess.State().Cwd, fail.Subject)
		if prog := mentor.Interpreter(ctx, s.sess.Hands(), script); prog != "" {
			fail.Subject = prog // a script whose interpreter is missing
			if line := mentor.Shebang(ctx, s.sess.Hands(), script); !strings.HasPrefix(line, "/") && s.hasProgram(ctx, prog) {
				// `#!usr/bin/env perl` with perl installed: the #! line
				// names no path, so the page's script cannot start.
				fail.Category = status.CategoryCommandFailure
				fail.ErrorLine = fmt.Sprintf("its #! line, `#!%s`, does not name a program by its full path (%s is installed)", line, prog)
			}
		}
	}
	if !succeeded(res) {
		// The container, not the tutorial, may be what is short.
		fail = mentor.EnvironmentCause(fail, res.Output, s.tut, mentor.AptListsOn(ctx, s.sess.Hands()))
		fail = s.networkCause(ctx, cmd.Text, res.Output, fail)
		fail = mentor.OlderThanExpected(fail, cmd.Text, res.Output, s.task.MentorNotes)
		if fail.Category == status.CategoryMissingFile {
			if si, ok := s.behindStandIn(ctx, fail.Subject, cmd.Line); ok {
				// What the stand-in folder would hold is missing because
				// SMILE improvised it, not because this step is wrong.
				fail.Category, fail.Subject = status.CategoryEnvironment, lacksBehindStandIn(si)
			}
		}
		// A file the page says its readers get elsewhere (a book's example
		// files, a lesson's data) is the container's to have.
		fail = mentor.SuppliedCause(fail, s.tut, cmd.Line)
		fail = s.shippedCause(ctx, fail)
		fail = mentor.AwkFlavour(fail, cmd.Text, res.Output, s.tut)
		if fail.Category == status.CategoryMissingFile && mentor.DesktopFolder.MatchString(fail.Subject) {
			// The lesson assumes a desktop's home folders.
			fail.Category, fail.Subject = status.CategoryEnvironment, mentor.LacksDesktopHome
		}
		fail = s.systemPathCause(fail)
	}
	return fail
}

// failsOtherwise: the command failed for want of something (a file, a
// program, a permission), not with the verdict its shown output has.
func (s *student) failsOtherwise(ctx context.Context, cmd reading.Command, res session.Result) bool {
	switch s.classify(ctx, cmd, res).Category {
	case status.CategoryMissingFile, status.CategoryMissingDependency, status.CategoryPermissionDenied, status.CategoryEnvironment:
		return true
	}
	return false
}

// afterSuccess judges a command that exited 0: a program the page's input
// was typed into may still have answered it with an error (Python's REPL
// prints a traceback and exits 0 at the end of its input), which is a
// failure unless the page shows that error; else its output is compared.
func (s *student) afterSuccess(st reading.Step, res session.Result, attempt int) error {
	cmd := st.Command
	if prog := transcript.Started(cmd.Text); prog != nil && st.Stdin != "" && !st.ExpectFail && !st.Observe {
		if answer := prog.ErrorAnswer(res.Output); answer != "" && !strings.Contains(s.tut.Content, strings.TrimSpace(answer)) {
			s.last.ok = false
			f := s.finding(status.CategoryCommandFailure, cmd.Line,
				fmt.Sprintf("`%s` answered the input the tutorial types into it with an error: %s", mentor.FirstLine(cmd.Text), answer), cmd.Text)
			f.Output, f.Attempts = status.Excerpt(res.Output), attempt
			f.SuggestedFix = fmt.Sprintf("Check the input typed into `%s` at line %d: it answers `%s`, which the tutorial does not show.", mentor.FirstLine(cmd.Text), cmd.Line, answer)
			return s.record(f, false, "", "")
		}
	}
	return s.checkOutput(cmd, cmd.Expected, res.Output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), st.Tolerant, st.Differs)
}

// judge decides what a command's last result means: success (then its
// output is compared), a failure the tutorial announced, or a failure to
// record (and, when it stops progress, to ask about).
func (s *student) judge(ctx context.Context, st reading.Step, res session.Result, attempt int, d patience.Decision) error {
	cmd := st.Command
	s.last.output = res.Output
	if st.Stdin == "" {
		s.last.asked = res.Asked
	}
	if res.TimedOut && len(depend.Installs(cmd.Text)) > 0 {
		s.cutInstall = cmd.Line
	}
	switch {
	case succeeded(res) && !st.FailNoted && s.rootPassesRefusal(cmd, res.Output):
		s.last.ok = true
		return nil
	case succeeded(res) && st.ExpectFail && !st.FailNoted:
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 0), though the tutorial says it fails", cmd.Line, mentor.FirstLine(cmd.Text)))
		f := s.finding(status.CategoryCommandFailure, cmd.Line,
			fmt.Sprintf("the tutorial says `%s` fails here, but it succeeded", mentor.FirstLine(cmd.Text)), cmd.Text)
		f.Output, f.Attempts = status.Excerpt(res.Output), attempt
		f.SuggestedFix = fmt.Sprintf("Check the step before line %d: the failure the tutorial shows there does not happen.", cmd.Line)
		return s.record(f, false, "", "")
	case succeeded(res):
		s.last.succeeded(res.Output)
		if st.OneOf > 0 && s.worked[st.OneOf] == "" {
			s.worked[st.OneOf] = mentor.FirstLine(cmd.Text)
		}
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 0)", cmd.Line, mentor.FirstLine(cmd.Text)))
		return s.afterSuccess(st, res, attempt)
	case st.ExpectFail && !res.TimedOut && st.ExpectExit > 0 && res.ExitCode != st.ExpectExit:
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), though the tutorial's annotation expects exit %d", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, st.ExpectExit))
		f := s.finding(status.CategoryCommandFailure, cmd.Line,
			fmt.Sprintf("`%s` ended with exit code %d; the tutorial's annotation expects %d", mentor.FirstLine(cmd.Text), res.ExitCode, st.ExpectExit), cmd.Text)
		f.Output, f.Attempts, f.ExitCode = status.Excerpt(res.Output), attempt, res.ExitCode
		f.SuggestedFix = fmt.Sprintf("Check the command at line %d, or the exit code its annotation expects.", cmd.Line)
		return s.record(f, false, "", "")
	case st.ExpectFail && !res.TimedOut && !(st.FailShown && s.failsOtherwise(ctx, cmd, res)):
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), which fails as the tutorial says", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode))
		return s.checkOutput(cmd, cmd.Expected, res.Output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), true, st.Differs)
	}
	if excused, err := s.excusedFailure(st, res); excused {
		return err
	}
	fail := s.classify(ctx, cmd, res)
	s.action(fmt.Sprintf("ran line %d: `%s` (attempt %d of %d): %s", cmd.Line, mentor.FirstLine(cmd.Text), attempt, d.Attempts, describeResult(res, fail)))
	f := s.finding(fail.Category, cmd.Line,
		mentor.Problem(fail.Category, fail.Subject, fail.ErrorLine, cmd.Text, res.ExitCode, s.behavior.TimeoutSeconds), cmd.Text)
	if at := s.shebangLine(cmd, fail); at > 0 {
		f.Line, f.Quote = at, s.quote(at)
	} else if at, file := s.inWrittenFile(res.Output, cmd.Line); at > 0 {
		// `./colours.sh: 2: Syntax error`: the fault is at that line of
		// the script as the page wrote it.
		f.Line, f.Quote = at, s.quote(at)
		f.Problem += fmt.Sprintf(" (at line %d of %s, which line %d runs)", at, file, cmd.Line)
	}
	f.Output = status.Excerpt(res.Output)
	if ev := mentor.StudentEvidence(fail); ev != "" {
		// The Student's own check, not the command, said why: it leads
		// the output so the Mentor reads the same.
		f.Output = ev + "\n" + f.Output
	}
	f.ExitCode = res.ExitCode
	f.Attempts = attempt
	subject := fail.Subject
	if subject == "" {
		subject = shell.CommandName(cmd.Text)
	}
	f.SuggestedFix = mentor.SuggestedFix(fail.Category, cmd.Line, subject)
	if fail.Category == status.CategoryMissingFile {
		if cause, ok := s.causeFor(fail.Subject, cmd.Line); ok {
			f = s.blame(f, cause, fail.Subject)
			d = patience.Decide(f.Category, s.behavior, s.resolution(cmd.Line, cmd.EndLine))
		}
	}
	return s.recordFailure(st, f, d, subject, fail)
}

// recordFailure records a failed step: a step on the path stops the walk to
// ask the Mentor (as patience decides). An optional step's failure is a
// minor note, and one of a section's independent examples that fails on its
// own content is recorded without stopping: nothing after it needs it, so
// the Student goes on. An example make finds no target in is a fragment
// shown to read, not a gap.
func (s *student) recordFailure(st reading.Step, f status.Finding, d patience.Decision, subject string, fail mentor.Failure) error {
	cmd := st.Command
	switch {
	case st.IfPresent && fail.Category == status.CategoryMissingDependency:
		// A reader without the program a step for machines that have it
		// uses passes it over.
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("optional (line %d), and `%s` is not installed: a reader without it passes the step over", st.Optional, fail.Subject))
		return nil
	case st.Optional > 0 && !mentor.IsSupplied(fail.Subject):
		if s.optionalFailed == nil {
			s.optionalFailed = map[int]int{}
		}
		s.optionalFailed[st.Optional] = cmd.Line
		f.Optional = st.Optional
		f.SuggestedFix = fmt.Sprintf("Line %d makes this step optional; still, %s", st.Optional, lowerFirst(f.SuggestedFix))
		return s.record(f, false, subject, fail.ErrorLine)
	case st.Example && mentor.FragmentOnly(f.Output):
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("a fragment, not a gap: `%s` found nothing to build in this example (%s)", mentor.FirstLine(cmd.Text), fail.ErrorLine))
		return nil
	case f.Category == status.CategoryMissingFile && samplename.Is(fail.Subject) && !pagemade.File(s.keep.steps, fail.Subject):
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("not a gap: `%s` stands for the reader's own file (a name like it is a stand-in, and the page never makes it)", fail.Subject))
		return nil
	case f.Category == status.CategoryCommandFailure && pagemade.StandInArgument(s.keep.steps, cmd, f.Output) != "":
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("not a gap: `%s`, which the error names, stands for the reader's own (a name like it is a stand-in, and the page never makes it)", pagemade.StandInArgument(s.keep.steps, cmd, f.Output)))
		return nil
	case samplename.User(samplename.MissingAccount(f.Output)) && !pagemade.Account(s.keep.steps, samplename.MissingAccount(f.Output)):
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("not a gap: `%s` stands for the reader's own user or group (a name like it is a stand-in, and the page never creates it)", samplename.MissingAccount(f.Output)))
		return nil
	case st.Reference && !mentor.Misused(cmd.Text, f.Output) && !s.onPagesFile(cmd.Text):
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("a sample of a reference list, not a step: `%s` failed (%s), and each line of the list is a form of the command on sample names", mentor.FirstLine(cmd.Text), fail.ErrorLine))
		return nil
	case st.Reference:
		s.action(fmt.Sprintf("recorded the misused command at line %d and went on: each line of a reference list stands alone", cmd.Line))
		return s.record(f, false, subject, fail.ErrorLine)
	case st.Example && f.Category == status.CategoryCommandFailure:
		s.action(fmt.Sprintf("recorded the failure at line %d and went on: the next example of the section replaces this one", cmd.Line))
		return s.record(f, false, subject, fail.ErrorLine)
	}
	return s.record(f, d.Ask, subject, fail.ErrorLine)
}

// onPagesFile: a word of the command names a file the page made, so the
// command works on the page's own file, not a reference list's sample name.
func (s *student) onPagesFile(command string) bool {
	for _, w := range strings.Fields(command) {
		w = strings.TrimPrefix(strings.Trim(w, `'"`), "./")
		for _, f := range s.out.FilesCreated {
			if w != "" && path.Base(f) == path.Base(w) {
				return true
			}
		}
	}
	return false
}

// comparing records that the output shown in [from, to] is compared with
// what cmd printed, and gives both without what is the reader's own
// (mentor.ReaderSpecific), ready to compare.
func (s *student) comparing(cmd reading.Command, from, to int, expected []expect.Line, actual string) ([]expect.Line, string) {
	s.cov.Compared(from, to)
	return mentor.ReaderSpecific(cmd.Text, expected, actual)
}

// lowerFirst lowers a sentence's first letter, to continue another one.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// anotherWay says why a failed command of a group of ways (only one of
// which may work, the prose says) is not a gap: another way worked, or
// another follows. "" when it is a gap.
func (s *student) anotherWay(st reading.Step) string {
	switch {
	case st.OneOf == 0:
		if line := pagemade.ByUnrunForm(s.planned, s.tut.Blocks, st); line > 0 {
			return fmt.Sprintf("line %d above, a general form of `%s` with a placeholder the Student did not run, makes what it uses", line, shell.CommandName(st.Command.Text))
		}
		return ""
	case s.worked[st.OneOf] != "":
		return fmt.Sprintf("line %d offers ways of which only one may work, and `%s` did", st.OneOf, s.worked[st.OneOf])
	case st.OneOfMore:
		return fmt.Sprintf("line %d offers ways of which only one may work; the Student tries the next", st.OneOf)
	}
	return ""
}

func lastExpected(c reading.Command) int {
	if n := len(c.Expected); n > 0 {
		return c.Expected[n-1].Line
	}
	return c.EndLine
}

func describeResult(res session.Result, fail mentor.Failure) string {
	if res.TimedOut {
		return fmt.Sprintf("timed out after %s", res.Duration.Round(time.Second))
	}
	if fail.ErrorLine == "" {
		return fmt.Sprintf("exit %d, %s", res.ExitCode, fail.Category)
	}
	return fmt.Sprintf("exit %d, %s: %s", res.ExitCode, fail.Category, fail.ErrorLine)
}

// compare checks an output block against the last command's output.
func (s *student) compare(st reading.Step) error {
	if s.last == nil || !s.last.ok {
		s.action(fmt.Sprintf("did not compare the output at line %d: no command succeeded just before it", st.Line))
		s.cov.Skipped(st.Line, "not compared: no command succeeded just before it")
		return nil
	}
	if s.last.blockRuns > 1 && expect.HasExpectation(st.Expected) {
		// Output shown after a block of several commands is what pasting the
		// block prints: all of its commands' output, not the last one's.
		if exp, act := s.comparing(s.last.command, st.Line, st.EndLine, st.Expected, s.last.blockOutput); matches(exp, act) {
			s.action(fmt.Sprintf("compared the output shown at line %d with the output of the %d commands of the block at line %d", st.Line, s.last.blockRuns, s.last.block))
			return nil
		}
		// Shown output that opens as the whole block's does, not as the last
		// command's, is the block's: a difference is found there.
		if first := firstShown(st.Expected); first != "" && strings.Contains(s.last.blockOutput, first) && !strings.Contains(s.last.output, first) {
			s.action(fmt.Sprintf("compared the output shown at line %d with the output of the %d commands of the block at line %d", st.Line, s.last.blockRuns, s.last.block))
			return s.checkOutput(s.last.command, st.Expected, s.last.blockOutput, st.Line, st.EndLine, st.Tolerant, st.Differs)
		}
	}
	s.action(fmt.Sprintf("compared the output shown at line %d with the output of `%s`", st.Line, mentor.FirstLine(s.last.command.Text)))
	return s.checkOutput(s.last.command, st.Expected, s.last.output, st.Line, st.EndLine, st.Tolerant, st.Differs)
}

func matches(expected []expect.Line, actual string) bool {
	_, ok := expect.MatchOutput(expected, actual)
	return ok
}

// firstShown is the first line of shown output that is not blank.
func firstShown(expected []expect.Line) string {
	for _, e := range expected {
		if t := strings.TrimSpace(e.Text); t != "" {
			return t
		}
	}
	return ""
}

// uncomparable says why a command's output cannot be the page's at all:
// the Mentor stood in for what it needed, or it lists the machine's own
// folders; "" when it can. A program the Mentor installed is compared like
// any other: a reader installs it the same way, and most output does not
// depend on its version (what does, help text, a changed wording, is said
// in the finding).
func (s *student) uncomparable(cmd reading.Command, from int) string {
	if si, ok := s.comparesStandIn(cmd.Text, from); ok {
		return fmt.Sprintf("not compared: the Mentor's workaround stood in for what line %d needed, so this output cannot match", si.line)
	}
	if mentor.MachineListing(cmd) {
		return fmt.Sprintf("not compared: `%s` lists the machine's own folders (its top folders or its users' homes), which are the reader's, not the page's", mentor.FirstLine(cmd.Text))
	}
	return ""
}

// machineOutput says why output that differs is the machine's and not the
// page's (package provenance), "" when it is the page's.
func (s *student) machineOutput(cmd reading.Command, expected []expect.Line, from, to int) string {
	first := mentor.FirstLine(cmd.Text)
	if ev := provenance.Machine(cmd.Text, cmd.Line); ev != nil {
		return fmt.Sprintf("output differs, not a gap: `%s` reports on the machine, so the page shows its author's answer [rules: %s]", first, rule.Explain([]rule.Evidence{*ev}))
	}
	var shown []string
	for _, e := range expected {
		shown = append(shown, e.Text)
	}
	if ev := provenance.ForeignListing(cmd.Text, shown, s.tut.Content, from, to); ev != nil {
		return fmt.Sprintf("output differs, not a gap: `%s` lists files the page never makes or names, the author's own [rules: %s]", first, rule.Explain([]rule.Evidence{*ev}))
	}
	return ""
}

// checkOutput compares shown output with what the command printed. A
// difference is recorded and the Student goes on: it never stops progress.
// The same difference shown again later is one finding with more lines. A
// difference the tutorial said may happen (differs: the line of its note)
// is listed, not recorded.
func (s *student) checkOutput(cmd reading.Command, expected []expect.Line, actual string, from, to int, tolerant bool, differs int) error {
	if !expect.HasExpectation(expected) {
		return nil
	}
	if why := s.uncomparable(cmd, from); why != "" {
		s.listSkipped(from, to, why)
		return nil
	}
	expected, actual = s.comparing(cmd, from, to, expected, actual)
	tolerant = tolerant || expect.ReaderSpecificCommand.MatchString(strings.TrimSpace(mentor.FirstLine(cmd.Text)))
	missing, ok := expect.MatchOutput(expected, actual)
	if ok || expect.SameListing(cmd.Text, expected, actual) {
		return nil
	}
	if tolerant || differs > 0 {
		if missing, ok = expect.MatchTolerant(expected, actual); ok {
			return nil
		}
	}
	if s.differenceExcused(cmd, expected, actual, from, to, differs) {
		return nil
	}
	if expect.ForeignListing(cmd.Text, expected, actual) {
		s.listSkipped(from, to, "not compared: the listing shows the author's own folder (none of its names is in the reader's), an example of the form")
		return nil
	}
	line := missing.Line
	fail, ok := mentor.EmptyListing(cmd.Text, actual, s.tut, line)
	if !ok {
		fail, ok = mentor.MissingInPipe(cmd.Text, actual, s.tut)
		line = cmd.Line
	}
	if ok {
		// The folder is empty because the lesson's files are not there, or
		// a program of the pipe is missing: not output that differs.
		f := s.finding(fail.Category, line,
			mentor.Problem(fail.Category, fail.Subject, fail.ErrorLine, cmd.Text, 0, s.behavior.TimeoutSeconds), cmd.Text)
		f.Output, f.Attempts = status.Excerpt(actual), 1
		f.SuggestedFix = mentor.SuggestedFix(fail.Category, line, fail.Subject)
		return s.record(f, false, fail.Subject, fail.ErrorLine)
	}
	printed := mentor.Shorten(strings.Join(mentor.FirstLines(actual, 3), " | "), 160)
	if strings.TrimSpace(actual) == "" {
		printed = "(nothing)"
	}
	problem := fmt.Sprintf("the tutorial shows `%s` in the output of `%s`, but it printed: %s", strings.TrimSpace(missing.Text), mentor.FirstLine(cmd.Text), printed)
	if prog := shell.CommandName(cmd.Text); mentor.InstalledByWorkaround(prog, s.task.MentorNotes) {
		problem += fmt.Sprintf(" (with the `%s` the Mentor's workaround installed from the distribution: if the page was written for another version, it should say which)", prog)
	}
	f := s.finding(status.CategoryOutputMismatch, missing.Line, problem, cmd.Text)
	f.Output = status.Excerpt(actual)
	f.Attempts = 1
	f.SuggestedFix = mentor.SuggestedFix(status.CategoryOutputMismatch, missing.Line, "")
	f.Tolerant = tolerant
	key := fmt.Sprintf("%s|%s|%s", f.Category, strings.TrimSpace(missing.Text), printed)
	if line, seen := s.seen[key]; seen {
		for i := range s.out.Findings {
			if g := &s.out.Findings[i]; g.Category == f.Category && g.Line == line && g.Line != f.Line && !slices.Contains(g.Lines, f.Line) {
				g.Lines = append(g.Lines, f.Line)
			}
		}
		s.action(fmt.Sprintf("noted the same output difference again at line %d", f.Line))
		return nil
	}
	s.seen[key] = f.Line
	return s.record(f, false, "", printed)
}

// packageInstall is a command that installs packages: its time is the
// network's and the package manager's, not the tutorial's.
var packageInstall = regexp.MustCompile(`(?m)^\s*(?:sudo\s+)?(?:apt-get|apt|dnf|yum|apk|zypper|pacman|brew|pip3?|python3?\s+-m\s+pip|npm|pnpm|yarn|gem|cargo|go|conda|poetry|bundle)\s+(?:-\S+\s+)*(?:install|add|update|upgrade|get|sync|-S)\b`)

// listSkipped lists lines the Student did not follow (or did not compare),
// with the reason, for the report's Skipped section.
func (s *student) listSkipped(from, to int, why string) {
	s.out.Skipped = append(s.out.Skipped, status.SkippedBlock{Line: from, EndLine: to, Reason: why, Quote: s.quote(from)})
	s.cov.Skipped(from, why)
	s.action(fmt.Sprintf("skipped line %d: %s", from, why))
	s.env.Log.Info("Skipped", "line", from, "why", why)
}

// missingInPipe: a program or file of the pipe was missing (`netstat -tln
// | grep 80` prints "netstat: command not found"), so grep's 1 is no answer.
func missingInPipe(command, output string) bool {
	_, missing := mentor.MissingInPipe(command, output, nil)
	return missing
}
