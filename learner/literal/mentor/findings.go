package mentor

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/status"
)

// Problem describes a failure in one specific sentence that carries the
// error itself.
func Problem(c status.Category, subject, errLine, command string, exitCode, timeoutSeconds int) string {
	withErr := func(s string) string {
		if errLine == "" {
			return s
		}
		return s + ": " + errLine
	}
	switch c {
	case status.CategoryMissingDependency:
		return withErr(fmt.Sprintf("`%s` is not installed", subject))
	case status.CategoryPermissionDenied:
		if subject != "" {
			return withErr(fmt.Sprintf("permission denied on `%s`", subject))
		}
		return withErr("permission denied")
	case status.CategoryMissingFile:
		if subject != "" {
			return withErr(fmt.Sprintf("`%s` does not exist", subject))
		}
		return withErr("a file or folder it needs does not exist")
	case status.CategoryUndefinedVariable:
		return fmt.Sprintf("`$%s` is a variable the tutorial never sets, so `%s` was not run", subject, FirstLine(command))
	case status.CategoryTimeout:
		return fmt.Sprintf("`%s` did not finish within %d seconds and was stopped", FirstLine(command), timeoutSeconds)
	case status.CategoryEnvironment:
		return environmentProblem(subject, errLine)
	case status.CategoryCommandFailure:
		if errLine == "" {
			return fmt.Sprintf("`%s` exited with code %d and printed nothing", FirstLine(command), exitCode)
		}
		return withErr(fmt.Sprintf("`%s` exited with code %d", FirstLine(command), exitCode))
	}
	return errLine
}

// SuggestedFix is a fix for the tutorial, by category.
func SuggestedFix(c status.Category, line int, subject string) string {
	switch c {
	case status.CategoryMissingDependency:
		return fmt.Sprintf("Add a step (or a Prerequisites entry) that installs `%s` before line %d.", subject, line)
	case status.CategoryPermissionDenied:
		if subject != "" {
			return fmt.Sprintf("Make sure the step at line %d is allowed to use `%s` (e.g. add `chmod +x %s` before it if it is a script, or say it needs sudo).", line, subject, subject)
		}
		return fmt.Sprintf("Say which permissions line %d needs (sudo, or a folder the user can write).", line)
	case status.CategoryMissingFile:
		if subject != "" {
			return fmt.Sprintf("Create `%s` before line %d, or change line %d to the name the tutorial actually created.", subject, line, line)
		}
		return fmt.Sprintf("Create the file or folder line %d needs before it.", line)
	case status.CategoryUndefinedVariable:
		return fmt.Sprintf("Set %s before line %d, e.g. `export %s=...`, and say what value it should have.", subject, line, subject)
	case status.CategoryTimeout:
		return fmt.Sprintf("Say how long line %d takes; if it starts something that keeps running (a server, a watcher), say to run it in the background or in a second terminal.", line)
	case status.CategoryOutputMismatch:
		return fmt.Sprintf("Update the output shown at line %d to what the command prints today, or fix the step so it prints it.", line)
	case status.CategoryAmbiguousInstruction:
		return fmt.Sprintf("Say what to do with the block at line %d: name the file to save it to (\"Save this as `app.py`:\"), or say to run it.", line)
	case status.CategoryMissingImage:
		return fmt.Sprintf("Add the image `%s` next to the tutorial, or fix its path at line %d.", subject, line)
	case status.CategoryEnvironment:
		return environmentFix(subject, line)
	case status.CategoryCommandFailure:
		return fmt.Sprintf("Fix the command at line %d, or add the step it depends on before it.", line)
	}
	return ""
}

// Question is what the Student asks the Mentor: the instruction, quoted, and
// what happened. subject is what failed (a command, a file, a variable);
// errLine the error, or for output_mismatch what the command printed.
func Question(f status.Finding, subject, errLine string, timeoutSeconds int) string {
	instr := f.Command
	if instr == "" {
		instr = f.Quote
	}
	says := fmt.Sprintf("At line %d the tutorial says `%s`", f.Line, FirstLine(instr))
	switch f.Category {
	case status.CategoryMissingDependency:
		return fmt.Sprintf("%s; running it printed `%s`. What is missing?", says, errLine)
	case status.CategoryEnvironment:
		return fmt.Sprintf("%s; running it printed `%s`. The container seems to lack %s: can you give it what it needs?", says, errLine, subject)
	case status.CategoryPermissionDenied:
		return fmt.Sprintf("%s; running it printed `%s`. How do I get permission to do this?", says, errLine)
	case status.CategoryMissingFile:
		return fmt.Sprintf("%s; running it printed `%s`. Where should it come from?", says, errLine)
	case status.CategoryUndefinedVariable:
		return fmt.Sprintf("%s, which uses `$%s`, a variable the tutorial never sets, so I did not run it. What value should it have?", says, subject)
	case status.CategoryTimeout:
		return fmt.Sprintf("%s; it was still running after %d seconds, so I stopped it. Is it supposed to keep running, or is something missing?", says, timeoutSeconds)
	case status.CategoryOutputMismatch:
		return fmt.Sprintf("At line %d the tutorial shows the output `%s`, but `%s` printed `%s`. Did I do something wrong, or is the tutorial out of date?", f.Line, f.Quote, FirstLine(f.Command), errLine)
	case status.CategoryAmbiguousInstruction:
		if f.CauseLine > 0 {
			return fmt.Sprintf("%s; running it printed `%s`. The code block at line %d (after \"%s\") is probably that file, but the tutorial does not say where to save it, so I skipped it. Where does it go?",
				says, errLine, f.CauseLine, Shorten(f.CauseQuote, 100))
		}
		return fmt.Sprintf("At line %d the tutorial shows a code block (`%s`) but does not say what to do with it: which file to save it to, or whether to run it. What should I do with it?", f.Line, f.Quote)
	}
	return fmt.Sprintf("%s; running it failed with exit code %d: `%s`. What went wrong?", says, f.ExitCode, errLine)
}

// FirstLine is the first line of s, trimmed, with " ..." when more follow:
// how a finding quotes a command.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " ..."
	}
	return s
}

// Shorten keeps one line of output readable in a sentence.
func Shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}

// FirstLines are the first n non-blank lines of s, trimmed: the output a
// finding quotes.
func FirstLines(s string, n int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, strings.TrimSpace(l))
		}
		if len(out) == n {
			break
		}
	}
	return out
}
