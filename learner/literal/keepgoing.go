package literal

import (
	"fmt"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/depend"
	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/status"
)

// keepGoing is how one walk goes on past failures. A failure that stops
// progress (one the Student asks the Mentor about) stops only the steps
// that depend on it (package depend): they are "not reached" and listed
// with the failed line, and every other step still runs, so one run finds
// every gap it can.
//
// The Mentor is asked about the first of them, once the walk is over: the
// loop is one question and one answer per iteration (the seed's Student
// output has one questionForMentor, its Mentor one answer), and the next
// iteration replays the answer's workaround before that line and meets the
// next failure with the first out of its way. Findings past the first are
// recorded in the same run, so a Mentor that cannot help with the first no
// longer hides them.
type keepGoing struct {
	steps []reading.Step
	deps  *depend.Tracker
	// failure is the current step's failure that stops its dependents, nil
	// while it has none.
	failure *stopFailure
	// question is the first such failure of the walk: what the Student asks
	// the Mentor about at the end.
	question *stopFailure
	// notReached counts the steps not reached.
	notReached int
	// lacks maps what the container lacks (an environment failure's
	// subject) to the line of the finding that first met it.
	lacks map[string]int
}

// stopFailure is a failure that stops the steps depending on it.
type stopFailure struct {
	finding  status.Finding
	question string
	// missing are the programs and variables the failure found missing
	// (depend.Program, depend.Variable): later steps that need one are not
	// reached either.
	missing []string
	// steps, commands and files are how far the walk had come.
	steps, commands, files int
}

// plan derives what each step depends on.
func (s *student) plan(steps []reading.Step) {
	ds := make([]depend.Step, len(steps))
	for i, st := range steps {
		d := depend.Step{Line: st.Line}
		switch st.Kind {
		case reading.StepRun:
			d.Kind, d.Command, d.Background = depend.Run, st.Command.Text, st.Background
		case reading.StepWrite:
			d.Kind, d.Path, d.Append = depend.Write, st.File.Path, st.File.Append
		case reading.StepCompare:
			d.Kind = depend.Compare
		}
		ds[i] = d
	}
	s.keep.steps = steps
	s.keep.deps = depend.NewTracker(depend.Derive(ds))
}

// notReached lists the step as not reached when it depends on a step that
// failed (or was not reached itself), with the failed line.
func (s *student) notReached(i int, st reading.Step) bool {
	if s.keep.deps == nil {
		return false
	}
	b, ok := s.keep.deps.Blocked(i)
	if !ok {
		return false
	}
	failed := s.keep.steps[b.Failed].Line
	why := fmt.Sprintf("not reached: line %d failed, and this step %s", failed, b.Dep.Why)
	if b.Dep.Step != b.Failed {
		why += fmt.Sprintf(" (not reached either: it depends on line %d)", failed)
	}
	s.keep.notReached++
	s.cov.NotReached(st.Line, why)
	s.out.Skipped = append(s.out.Skipped, status.SkippedBlock{Line: st.Line, EndLine: st.EndLine, Reason: why, Quote: s.quote(st.Line), FailedLine: failed})
	s.action(fmt.Sprintf("did not follow line %d: %s", st.Line, why))
	s.env.Log.Info("Not reached", "line", st.Line, "failed", failed)
	return true
}

// stopsDependents notes that the current step failed in a way that stops
// what depends on it; the first such failure is the Mentor's question.
func (s *student) stopsDependents(f status.Finding, subject, question string) {
	fail := &stopFailure{finding: f, question: question, steps: s.steps,
		commands: len(s.out.CommandsRun), files: len(s.out.FilesCreated)}
	switch {
	case f.Category == status.CategoryMissingDependency || f.Category == status.CategoryEnvironment:
		// The program the shell did not find, before any rule said whose
		// gap that is.
		if raw := mentor.Classify(f.Command, f.ExitCode, f.Output, false); raw.Category == status.CategoryMissingDependency &&
			raw.Subject != "" && !strings.ContainsAny(raw.Subject, " /`") {
			fail.missing = []string{depend.Program(raw.Subject)}
		}
	case f.Category == status.CategoryUndefinedVariable:
		for _, n := range shell.UndefinedVariables(f.Command, s.isSet) {
			fail.missing = append(fail.missing, depend.Variable(n))
		}
	}
	s.keep.failure = fail
	if f.Category == status.CategoryEnvironment && subject != "" {
		if s.keep.lacks == nil {
			s.keep.lacks = map[string]int{}
		}
		if _, ok := s.keep.lacks[subject]; !ok {
			s.keep.lacks[subject] = f.Line
		}
	}
	if s.keep.question == nil {
		s.keep.question = fail
		s.action(fmt.Sprintf("recorded %s at line %d; will ask the Mentor about it, and went on with the steps that do not depend on it: %s", f.Category, f.Line, f.Problem))
		return
	}
	s.action(fmt.Sprintf("recorded %s at line %d and went on with the steps that do not depend on it (the Mentor is asked about line %d first): %s",
		f.Category, f.Line, s.keep.question.finding.Line, f.Problem))
}

// failed tells the tracker about the step's failure, if it had one.
func (s *student) failed(i int) {
	if f := s.keep.failure; f != nil && s.keep.deps != nil {
		s.keep.deps.Fail(i, f.missing...)
	}
	s.keep.failure = nil
}

// stopped reports whether a step of the walk failed in a way that stops
// its dependents.
func (s *student) stopped() bool { return s.keep.question != nil }

// ask ends the walk with the question about the first failure that stopped
// progress: that finding alone is marked asked.
func (s *student) ask() {
	q := s.keep.question
	f := q.finding
	for i := range s.out.Findings {
		if g := &s.out.Findings[i]; g.Line == f.Line && g.Category == f.Category {
			g.Asked = true
		}
	}
	s.out.Status = status.StudentAskMentor
	s.out.CurrentStep = fmt.Sprintf("line %d: %s", f.Line, f.Quote)
	s.out.Line = f.Line
	s.out.Quote = f.Quote
	s.out.Problem = f.Problem
	s.out.QuestionForMentor = q.question
	s.out.Summary = fmt.Sprintf("Stuck at line %d (%s) after %s: ran %s and wrote %s.",
		f.Line, f.Category, count(q.steps, "step"), count(q.commands, "command"), count(q.files, "file"))
	if rest := len(s.out.Findings) - 1; rest > 0 || s.keep.notReached > 0 || s.steps > q.steps {
		s.out.Summary += fmt.Sprintf(" Went on with the steps that do not depend on it: followed %s in all and recorded %s more; %s not reached.",
			count(s.steps, "step"), count(rest, "problem"), count(s.keep.notReached, "step"))
	}
}

// sameLack folds a failure into the walk's earlier finding when both are
// what the container lacks, the same thing (the files the page's readers
// get elsewhere, a prerequisite): one finding, with this line among its
// lines, however many steps meet it. The step still stops what depends on
// it.
func (s *student) sameLack(f status.Finding, subject string) bool {
	if f.Category != status.CategoryEnvironment || subject == "" {
		return false
	}
	line, ok := s.keep.lacks[subject]
	if !ok || line == f.Line {
		return false
	}
	for i := range s.out.Findings {
		if g := &s.out.Findings[i]; g.Line == line && g.Category == f.Category && !slices.Contains(g.Lines, f.Line) {
			g.Lines = append(g.Lines, f.Line)
		}
	}
	s.keep.failure = &stopFailure{finding: f}
	s.action(fmt.Sprintf("met at line %d what the container lacks, as at line %d, and went on: %s", f.Line, line, f.Problem))
	return true
}
