package literal

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/depend"
	"github.com/smile-loop/smile/learner/literal/exitanswer"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/failshown"
	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/packages"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// excusedFailure settles a failed command that is no gap in the page, and
// reports whether it did: the page shows the very error, asks the reader
// what happens, leaves the answer to a question to its reader, or the exit
// status is the program's answer; or another of the ways the page offers
// worked or follows. Else the failure is the page's to answer for (judge).
func (s *student) excusedFailure(st reading.Step, res session.Result) (bool, error) {
	cmd := st.Command
	switch {
	case !res.TimedOut && (expect.HasExpectation(cmd.Expected) && failshown.This(cmd.Expected, res.Output) || failshown.Next(s.planned, s.tut.Blocks, st, res.Output)):
		// The transcript, or the block right after the command with at
		// most a sentence between ("an error appears:"), shows the very
		// error it printed: the page shows a failure on purpose, even
		// without a sentence announcing it.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), which fails with the error the tutorial shows", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode))
		return true, nil
	case st.Observe && !res.TimedOut:
		// The page asks what the command does: its failure is the answer
		// the reader observes, not a gap.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), an experiment the page asks the reader about: its outcome is the answer", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode))
		return true, nil
	case !res.TimedOut && len(s.last.asked) > 0 && !st.ExpectFail:
		// The program asked its reader (a question, a password, a menu)
		// and, given no answer, read the end of its input: a reader types
		// the answer there, so the failure is no gap in the page.
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d) after %s waited for the reader's answer", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, strings.Join(s.last.asked, ", ")))
		s.listSkipped(cmd.Line, cmd.EndLine, askedWhy(cmd, s.last.asked, res.ExitCode))
		return true, nil
	case !res.TimedOut && res.ExitCode == 1 && strings.TrimSpace(res.Output) == "" && exitanswer.ArithmeticOnly(cmd.Text):
		// `(( i++ ))` with i at 0: the status of an arithmetic test is its
		// answer (the value was 0), and a wrong expression prints an error.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 1, its answer: the expression's value is 0)", cmd.Line, mentor.FirstLine(cmd.Text)))
		return true, nil
	case !res.TimedOut && res.ExitCode == 1 && strings.TrimSpace(res.Output) == "" && exitanswer.SettingQuery(cmd.Text):
		// `git config core.editor` with nothing set: no value is its answer.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 1, its answer: the setting is not set)", cmd.Line, mentor.FirstLine(cmd.Text)))
		return true, nil
	case !res.TimedOut && res.ExitCode != 0 && s.globMatchedNothing(cmd.Text, res.Output):
		// `ls *.txt` where the page made no .txt file: it lists the
		// reader's own files, and here there are none.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d): its pattern lists the reader's own files, and the page made none that match", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode))
		return true, nil
	case !res.TimedOut && res.ExitCode == 1 && exitanswer.FindDiscardingErrors(cmd.Text):
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 1: some entries could not be read, which the command itself chose not to show)", cmd.Line, mentor.FirstLine(cmd.Text)))
		return true, nil
	case !res.TimedOut && res.ExitCode == 1 && exitanswer.NothingThere(cmd.Text, res.Output):
		// `crontab -l` with no table yet: "no crontab for root" is its
		// answer, as empty output is another program's.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 1, its answer: %s)", cmd.Line, mentor.FirstLine(cmd.Text), strings.TrimSpace(res.Output)))
		return true, nil
	case !res.TimedOut && res.ExitCode == 1 && exitanswer.WithStatus(cmd.Text) && !missingInPipe(cmd.Text, res.Output):
		// grep found nothing, diff found differences: exit 1 is the
		// program's answer, not an error (an error is 2 or more).
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit 1, its answer: no match, or a difference)", cmd.Line, mentor.FirstLine(cmd.Text)))
		return true, s.checkOutput(cmd, cmd.Expected, res.Output, cmd.Line, max(cmd.EndLine, lastExpected(cmd)), st.Tolerant, st.Differs)
	}
	if !res.TimedOut && s.madeEarly(cmd, res) {
		return true, nil
	}
	if line := s.statusTestedAt(st); line > 0 && !res.TimedOut {
		// `ls /nonexistent` then `if [ $? -ne 0 ]`: the next line tests
		// the status, so a failure is what the page demonstrates.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), whose status line %d tests with $?", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, line))
		return true, nil
	}
	if s.installSettles(st, res) {
		return true, nil
	}
	if why := s.anotherWay(st); why != "" {
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d): %s", cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, why))
		s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("failed (exit %d), not a gap: %s", res.ExitCode, why))
		return true, nil
	}
	return false, nil
}

// askedWhy says why a command that failed after asking its reader is no
// gap.
func askedWhy(cmd reading.Command, asked []string, code int) string {
	return fmt.Sprintf("waits for the reader's answer, not a gap: %s asked while `%s` ran, the page shows no answer to type, and with none it ended (exit %d)",
		strings.Join(asked, ", "), mentor.FirstLine(cmd.Text), code)
}

// notComparedAfterAsking: what a command printed after a program asked its
// reader depends on the answer typed there; when the page gives none, the
// output shown is the reader's own, not something to compare.
func (s *student) notComparedAfterAsking(cmd reading.Command, from, to int) bool {
	if s.last == nil || s.last.command.Line != cmd.Line || len(s.last.asked) == 0 {
		return false
	}
	s.listSkipped(from, to, fmt.Sprintf("output not compared: while `%s` ran, %s waited for an answer the reader types and the page gives none to type, so what follows the question is the reader's own", mentor.FirstLine(cmd.Text), strings.Join(s.last.asked, ", ")))
	return true
}

// differenceExcused settles output that differs from what the page shows
// but is no gap, and reports whether it did: what follows a question the
// reader answers, a machine's own values, another version's help text, or
// output the page says may differ (from its note at line differs, or one
// excused for the same listing just before).
func (s *student) differenceExcused(cmd reading.Command, expected []expect.Line, actual string, from, to, differs int) bool {
	if s.notComparedAfterAsking(cmd, from, to) {
		return true
	}
	if i := slices.IndexFunc(expected, func(l expect.Line) bool { return strings.Contains(l.Text, "^C") }); i >= 0 {
		s.listSkipped(from, to, fmt.Sprintf("output not compared: line %d shows ^C, the reader interrupting `%s` (Ctrl-C) at a moment of their choosing, which the Student cannot match", expected[i].Line, mentor.FirstLine(cmd.Text)))
		return true
	}
	if why := s.machineOutput(cmd, expected, from, to); why != "" {
		s.listSkipped(from, to, why)
		return true
	}
	if differs == 0 && s.last != nil && s.last.command.Line == cmd.Line {
		differs = s.last.differs
	}
	if expect.SameHelp(cmd.Text, expected, actual) {
		s.listSkipped(from, to, fmt.Sprintf("help text differs, not a gap: `%s` printed the installed version's help, which starts as the one shown and holds most of its lines", mentor.FirstLine(cmd.Text)))
		return true
	}
	if differs > 0 {
		if s.last != nil && s.last.command.Line == cmd.Line {
			s.last.differs = differs
		}
		s.listSkipped(from, to, fmt.Sprintf("output differs, not a gap: line %d says the reader's output may differ from the one shown", differs))
		return true
	}
	return false
}

// globMatchedNothing: the command works on file patterns (`ls *.txt`,
// `grep x *`), it said each does not exist (the shell left it as written,
// matching nothing), and no file the page made so far matches it: the
// pattern stands for the reader's own files.
func (s *student) globMatchedNothing(command, output string) bool {
	calls := shell.Calls(shell.WithoutTrailingComment(command))
	if len(calls) != 1 || len(calls[0]) < 2 {
		return false
	}
	var globs []string
	for _, w := range calls[0][1:] {
		if !strings.HasPrefix(w, "-") && strings.ContainsAny(w, "*?[") {
			globs = append(globs, w)
		}
	}
	for _, g := range globs {
		if !strings.Contains(output, "'"+g+"'") && !strings.Contains(output, ": "+g+": No such file") {
			return false
		}
		for _, f := range s.out.FilesCreated {
			if ok, _ := path.Match(g, path.Base(f)); ok {
				return false
			}
		}
	}
	return len(globs) > 0
}

// deniedShown is a permission refusal in a page's shown output.
var deniedShown = regexp.MustCompile(`(?i)permission denied|operation not permitted|許可がありません|权限不够|拒绝访问|허가 거부|отказано в доступе`)

// rootPassesRefusal: the page shows a permission refusal for a command
// that succeeded because the Student runs as root, whom file permissions do
// not stop from reading or writing: a lesson on permissions speaks to an
// ordinary user, who sees the refusal. Listed, not a gap.
func (s *student) rootPassesRefusal(cmd reading.Command, output string) bool {
	if s.sess == nil || s.sess.Getenv("USER") != "root" || deniedShown.MatchString(output) ||
		!slices.ContainsFunc(cmd.Expected, func(l expect.Line) bool { return deniedShown.MatchString(l.Text) }) {
		return false
	}
	s.listSkipped(cmd.Line, cmd.EndLine, fmt.Sprintf("the page shows `%s` refused for want of permission, which an ordinary user meets; the Student runs as root, whom file permissions do not stop, so it succeeded: not a gap", mentor.FirstLine(cmd.Text)))
	return true
}

// installedLater is the line of a later step that installs the program a
// failed command only looked up (`which lua`, `node --version`), 0 when the
// command was no such check or the page never installs it.
func (s *student) installedLater(st reading.Step, res session.Result) int {
	prog := shell.LooksUp(st.Command.Text)
	if prog == "" || res.TimedOut || res.ExitCode != 1 && res.ExitCode != 127 {
		return 0
	}
	for _, later := range s.keep.steps {
		if later.Kind != reading.StepRun || later.Line <= st.Command.EndLine {
			continue
		}
		for _, pkg := range depend.Installs(later.Command.Text) {
			if pkg == prog || slices.Contains(packages.CommandsOf(pkg), prog) {
				return later.Line
			}
		}
	}
	return 0
}

// statusTestedAt is the line of the command right after st that reads its
// exit status (`if [ $? -ne 0 ]`, `echo $?`), 0 when the next command does
// not or is not next to it.
func (s *student) statusTestedAt(st reading.Step) int {
	for i, other := range s.keep.steps {
		if other.Line != st.Line || other.Kind != reading.StepRun || i+1 >= len(s.keep.steps) {
			continue
		}
		next := s.keep.steps[i+1]
		if next.Kind == reading.StepRun && next.Command.Line-st.Command.EndLine <= 1 && strings.Contains(next.Command.Text, "$?") {
			return next.Command.Line
		}
	}
	return 0
}

// installSettles settles a failure an install explains: a check whether a
// program is there before the page's own install of it (`which lua`, then
// `apt-get install lua`), or a program not found after an install step ran
// out of time. It reports whether it settled it.
func (s *student) installSettles(st reading.Step, res session.Result) bool {
	cmd := st.Command
	if line := s.installedLater(st, res); line > 0 {
		// "not there" is the check's answer, and the page goes on to
		// install it.
		s.last.ok = true
		s.action(fmt.Sprintf("ran line %d: `%s` (exit %d), a check whether `%s` is there: it is not yet, and line %d installs it",
			cmd.Line, mentor.FirstLine(cmd.Text), res.ExitCode, shell.LooksUp(cmd.Text), line))
		return true
	}
	return s.afterCutInstall(cmd, res)
}

// afterCutInstall settles a command that was not found after an install
// step ran out of time (`make` after `apt-get install cmake` was cut: cmake
// recommends make): what the install would have brought is missing for a
// reason the page does not own. It reports whether it settled it.
func (s *student) afterCutInstall(cmd reading.Command, res session.Result) bool {
	if s.cutInstall == 0 || res.TimedOut || res.ExitCode != 127 || mentor.Classify(cmd.Text, res.ExitCode, res.Output, false).Category != status.CategoryMissingDependency {
		return false
	}
	why := fmt.Sprintf("not a gap: the install at line %d did not finish in the step's time, so what it brings may be missing", s.cutInstall)
	s.action(fmt.Sprintf("ran line %d: `%s` (exit 127): %s", cmd.Line, mentor.FirstLine(cmd.Text), why))
	s.listSkipped(cmd.Line, cmd.EndLine, why)
	return true
}
