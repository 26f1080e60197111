package literal

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/coverage"
	"github.com/smile-loop/smile/learner/literal/fence"
	"github.com/smile-loop/smile/learner/literal/reach"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/reading"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// student is one attempt of the literal Student.
type student struct {
	task     *wire.Task
	env      provider.Env
	behavior spec.StudentBehavior
	timeout  time.Duration
	tut      *spec.Tutorial
	sess     *session.Session
	replayed map[int]bool // MentorNotes already replayed, by index

	out   status.StudentOutput
	audit status.Audit
	// last is the latest tutorial command, for output blocks that follow it.
	last *lastRun
	// steps counts the steps followed so far.
	steps int
	// seen maps an output difference already recorded to its line.
	seen map[string]int
	// standIns are the files and folders the Mentor's workarounds made
	// empty in place of the tutorial's (standin.go): what is missing in
	// them, and listings of them, are not new gaps.
	standIns []standIn
	// unplaced are the skipped blocks the Student could not place: a later
	// missing file may be their evidence.
	unplaced []reading.Step
	// programs caches `command -v` answers.
	programs map[string]bool
	// resumed is about checkpoints (resume.go).
	resumed resumeState
	// worked maps a group of ways only one of which may work (its prose
	// line) to the command of the way that worked.
	worked map[int]string
	// optionalFailed maps the prose line of an optional part whose step
	// failed to that step's line: the rest of the part is not followed.
	optionalFailed map[int]int
	// keep is how the walk goes on past failures (keepgoing.go).
	keep keepGoing
	// cov collects what became of each code block (coverage.go).
	cov *coverage.Collector
	// reach checks the addresses steps download from (network.go).
	reach *reach.Checker
	// planned is the page read into steps, once (walk).
	planned []reading.Step
	// filledIn are the variables a syntax template the Student skipped
	// assigns (`export NAME=<your name>`), by its line: a reader fills the
	// template in, so the variable is set for the commands after it.
	filledIn map[string]int
	// cutInstall is the line of the last install step that ran out of
	// time, 0 when none did: what it would have brought is missing for a
	// reason the page does not own.
	cutInstall int
	// stoodIn are the lines whose step a Mentor's workaround did in its own
	// way (mentor.StandsIn: Debian's packages for a registry download, the
	// init script for systemctl), run successfully: the step itself is not
	// run again. By line, the iteration that gave it.
	stoodIn map[int]int
}

// isSet: the session has the variable, or a template the reader fills in
// set it.
func (s *student) isSet(name string) bool {
	return s.sess.State().Set(name) || s.filledIn[name] > 0
}

type lastRun struct {
	command reading.Command
	output  string
	ok      bool
	// differs is the line of the note that says the reader's output of this
	// listing may differ, once a difference was excused by it: the same
	// folder listed again right after is the reader's own too.
	differs int
	// files is how many files the Student had written when it ran.
	files int
	// block is the line of the code block the command is in; blockOutput
	// what the block's commands run so far printed, in order, as a reader
	// who pastes the block sees it; blockRuns how many of them ran, each
	// successfully (a failure starts no block output).
	block       int
	blockOutput string
	blockRuns   int
	// asked names the programs that waited for their reader's typed answer
	// while the command ran with no input from the page: what it printed
	// after the question depends on that answer.
	asked []string
}

// succeeded records that the command ran successfully and printed output,
// which adds to its block's.
func (l *lastRun) succeeded(output string) {
	l.ok = true
	l.blockOutput += output
	l.blockRuns++
}

// runStudent follows the tutorial. Problems are in the result, never errors.
func runStudent(ctx context.Context, task *wire.Task, env provider.Env) *wire.StudentResultRequest {
	s := &student{task: task, env: env, behavior: normalized(task.Behavior), replayed: map[int]bool{}, seen: map[string]int{}, programs: map[string]bool{}, worked: map[int]string{}}
	s.timeout = time.Duration(s.behavior.TimeoutSeconds) * time.Second
	s.out = status.StudentOutput{AttemptedActions: []string{}, FilesCreated: []string{}, CommandsRun: []string{}}
	s.audit = status.Audit{Commands: []status.AuditCommand{}, Files: []status.AuditFile{}, LLMCalls: []status.LLMCall{}}
	s.walk(ctx)
	s.out.Coverage = s.cov.Result(&s.out)
	return &wire.StudentResultRequest{StudentOutput: s.out, Timestamp: time.Now().UTC(), Audit: &s.audit}
}

func normalized(b spec.StudentBehavior) spec.StudentBehavior {
	def := spec.DefaultConfig().StudentBehavior
	if b.MaxRetriesBeforeHelp <= 0 {
		b.MaxRetriesBeforeHelp = def.MaxRetriesBeforeHelp
	}
	if b.TimeoutSeconds <= 0 {
		b.TimeoutSeconds = def.TimeoutSeconds
	}
	if b.PatienceLevel == "" {
		b.PatienceLevel = def.PatienceLevel
	}
	return b
}

// nothingToFollow ends the walk of a page that has no command to run, file
// to write or output to compare (its missing images still reported).
func (s *student) nothingToFollow(steps []reading.Step) bool {
	if slices.ContainsFunc(steps, func(st reading.Step) bool {
		return st.Kind != reading.StepImage && st.Kind != reading.StepSkip && st.Kind != reading.StepOmit
	}) {
		return false
	}
	for _, st := range steps {
		if st.Kind == reading.StepImage {
			s.imageFinding(st)
		}
	}
	s.cannotComplete("There is nothing to follow: the tutorial has no commands to run, files to create or output to check.")
	return true
}

func (s *student) walk(ctx context.Context) {
	tut, err := s.task.LoadTutorial()
	if err != nil {
		s.cannotComplete(fmt.Sprintf("The tutorial cannot be read: %v", err))
		return
	}
	s.tut = tut
	steps, fault, faulty := fence.Read(tut, reading.Options{Runners: s.task.Runners})
	if faulty {
		s.fenceFinding(fault)
	}
	s.planned = steps
	s.cov = coverage.New(tut, steps)
	if s.nothingToFollow(steps) {
		return
	}
	s.sess, err = session.NewAs(ctx, s.env.HandsOrLocal(), s.env.WorkDir, s.env.CommandEnv(), s.task.User)
	if err != nil {
		s.cannotComplete(fmt.Sprintf("Cannot start a shell in the container: %v", err))
		return
	}
	defer s.sess.Close()
	s.env.Log.Info("Following tutorial", "tutorial", s.task.Tutorial, "steps", len(steps), "shell", s.sess.Shell())
	s.restore()
	s.copyPageFiles(ctx)
	s.runSetup(ctx)
	s.plan(steps)

	for i, st := range steps {
		st = s.readAsText(ctx, steps, i)
		if st.Merged {
			continue
		}
		if ctx.Err() != nil {
			s.cannotComplete(fmt.Sprintf("Stopped before line %d: %v", st.Line, ctx.Err()))
			return
		}
		if s.passed(st) {
			continue
		}
		s.cov.Reach(st)
		followed := st.Kind != reading.StepImage && st.Kind != reading.StepSkip && st.Kind != reading.StepOmit && st.Kind != reading.StepAmbiguous
		if followed && s.notReached(i, st) {
			continue
		}
		s.keep.failure = nil
		s.checkpoint(ctx, st)
		if followed {
			s.env.Progress(ctx, stepTitle(st, s.stepName), st.Line)
		}
		if err := s.replayWorkarounds(ctx, st); err != nil {
			s.cannotComplete(err.Error())
			return
		}
		stepErr := s.follow(ctx, i, st)
		if followed {
			s.steps++
		}
		if stepErr != nil {
			s.cannotComplete(stepErr.Error())
			return
		}
		s.failed(i)
	}
	s.finish()
}

// follow does what step i of the plan says.
func (s *student) follow(ctx context.Context, i int, st reading.Step) error {
	switch st.Kind {
	case reading.StepImage:
		s.imageFinding(st)
	case reading.StepSkip, reading.StepOmit:
		s.skip(st)
	case reading.StepAmbiguous:
		s.unplacedBlock(ctx, i, st)
	case reading.StepWrite:
		return s.write(ctx, st)
	case reading.StepCompare:
		return s.compareOrRun(ctx, st)
	case reading.StepRun:
		return s.run(ctx, st)
	}
	return nil
}

// finish ends a walk that reached the end of the tutorial: with the
// question about its first failure that stopped progress, else completed.
func (s *student) finish() {
	if s.keep.question != nil {
		s.ask()
		return
	}
	s.out.Status = status.StudentCompleted
	s.out.CurrentStep = "end of the tutorial"
	recorded := len(s.out.Findings)
	s.out.Summary = fmt.Sprintf("Followed the tutorial to the end in %s: ran %s and wrote %s; %s recorded without asking the Mentor.",
		count(s.steps, "step"), count(len(s.out.CommandsRun), "command"), count(len(s.out.FilesCreated), "file"), count(recorded, "problem"))
	if n := len(s.out.Skipped); n > 0 {
		s.out.Summary += fmt.Sprintf(" Skipped %s that %s not on the path (listed with the reasons).", count(n, "block"), map[bool]string{true: "is", false: "are"}[n == 1])
	}
}

// stepTitle is how progress names a step: a file write by what it does
// ("line 16: write hello.sh"), not by its opening fence; anything else by
// its line (name).
func stepTitle(st reading.Step, name func(line int) string) string {
	if st.Kind == reading.StepWrite && st.File.Path != "" {
		verb := "write"
		if st.File.Append {
			verb = "append to"
		}
		return fmt.Sprintf("line %d: %s %s", st.Line, verb, st.File.Path)
	}
	return name(st.Line)
}

func (s *student) stepName(line int) string {
	return fmt.Sprintf("line %d: %s", line, mentor.Shorten(s.quote(line), 100))
}

func (s *student) quote(line int) string { return strings.TrimSpace(s.tut.LineText(line)) }

func (s *student) action(a string) { s.out.AttemptedActions = append(s.out.AttemptedActions, a) }

func (s *student) cannotComplete(reason string) {
	s.out.Status = status.StudentCannotComplete
	s.out.Reason = reason
	s.out.Problem = reason
	if s.out.CurrentStep == "" {
		s.out.CurrentStep = "start of the tutorial"
	}
	s.out.Summary = fmt.Sprintf("Could not follow the tutorial: %s", reason)
	s.env.Log.Info("Cannot complete", "reason", reason)
}

// note returns the latest Mentor note about any line in [from, to].
func (s *student) note(from, to int) (status.MentorNote, bool) {
	var found status.MentorNote
	ok := false
	for _, n := range s.task.MentorNotes {
		if n.Line >= from && n.Line <= to && n.Line > 0 && (!ok || n.Iteration >= found.Iteration) {
			found, ok = n, true
		}
	}
	return found, ok
}

func (s *student) resolution(from, to int) status.Resolution {
	if n, ok := s.note(from, to); ok {
		return n.Resolution
	}
	return ""
}

// replayWorkarounds runs the Mentor's workarounds for the step's lines just
// before the step, in the session, once each.
func (s *student) replayWorkarounds(ctx context.Context, st reading.Step) error {
	for i, n := range s.task.MentorNotes {
		if s.replayed[i] || n.Resolution != status.ResolutionWorkaround || strings.TrimSpace(n.Workaround) == "" ||
			n.Line < st.Line || n.Line > max(st.EndLine, st.Line) {
			continue
		}
		s.replayed[i] = true
		if s.sess == nil {
			continue
		}
		s.standIns = append(s.standIns, standInWorkaround(n, s.sess.State().Cwd)...)
		step := fmt.Sprintf("line %d: workaround from iteration %d", n.Line, n.Iteration)
		s.env.Progress(ctx, step, n.Line)
		// A workaround is mostly a package install: it gets its own time
		// limit, and reports progress so the controller does not take it for
		// a stuck step.
		limit := max(s.timeout, mentor.WorkaroundTimeout)
		stop := mentor.Heartbeat(ctx, s.env, step, n.Line, s.timeout/3)
		res, err := s.sess.RunPrivileged(ctx, n.Workaround, limit)
		stop()
		if err != nil {
			return err
		}
		s.auditCommand(n.Line, n.Workaround, res, 1, true)
		s.out.CommandsRun = append(s.out.CommandsRun, n.Workaround)
		verdict := "it succeeded"
		switch {
		case res.TimedOut:
			verdict = fmt.Sprintf("it did not finish within its limit of %s and was stopped", limit)
		case res.ExitCode != 0:
			verdict = fmt.Sprintf("it failed with exit code %d: %s", res.ExitCode, mentor.ErrorLine(res.Output))
		}
		if res.ExitCode == 0 && !res.TimedOut && mentor.StandsIn(n.Workaround) {
			if s.stoodIn == nil {
				s.stoodIn = map[int]int{}
			}
			s.stoodIn[n.Line] = n.Iteration
		}
		s.action(fmt.Sprintf("ran the Mentor's workaround from iteration %d before line %d: `%s`; %s", n.Iteration, n.Line, mentor.FirstLine(n.Workaround), verdict))
		s.env.Log.Info("Replayed workaround", "line", n.Line, "iteration", n.Iteration, "exitCode", res.ExitCode)
	}
	return nil
}

func (s *student) auditCommand(line int, command string, res session.Result, attempt int, workaround bool) {
	if !workaround {
		s.cov.Ran(line)
	}
	s.auditOnly(line, command, res, attempt, workaround)
}

// auditOnly adds a command to the audit trail without counting its line as
// run (a program tried on its own counts only when it worked).
func (s *student) auditOnly(line int, command string, res session.Result, attempt int, workaround bool) {
	s.audit.Commands = append(s.audit.Commands, status.AuditCommand{
		Iteration:  s.task.Iteration,
		Role:       status.RoleStudent,
		Line:       line,
		Command:    command,
		ExitCode:   res.ExitCode,
		DurationMs: res.Duration.Milliseconds(),
		Output:     status.Excerpt(res.Output),
		StartedAt:  res.StartedAt.UTC(),
		Workaround: workaround,
		Attempt:    attempt,
		TimedOut:   res.TimedOut,
	})
}

// record adds a finding. With ask, the failure stops what depends on the
// step (keepgoing.go): the Student goes on with the rest, and asks the
// Mentor about the first such failure once the walk is over.
func (s *student) record(f status.Finding, ask bool, subject, detail string) error {
	q := ""
	if ask {
		q = mentor.Question(f, subject, detail, s.behavior.TimeoutSeconds)
	}
	if n, ok := s.note(f.Line, f.Line); ok && n.Resolution == status.ResolutionWorkaround {
		// The failure the workaround answered is another gap: this one,
		// met with the workaround in place, is a gap of its own.
		f.AfterWorkaround = n.Iteration
		q += fmt.Sprintf(" The Mentor's workaround from iteration %d (`%s`) ran before this line, but it still fails.", n.Iteration, mentor.FirstLine(n.Workaround))
	}
	if ask && s.sameLack(f, subject) {
		return nil
	}
	s.out.Findings = slices.DeleteFunc(s.out.Findings, func(g status.Finding) bool {
		return g.Category == f.Category && g.Line == f.Line
	})
	s.out.Findings = append(s.out.Findings, f)
	s.env.Log.Info("Found a gap", "category", string(f.Category), "line", f.Line, "stops", ask)
	if !ask {
		s.action(fmt.Sprintf("noted %s at line %d and went on: %s", f.Category, f.Line, f.Problem))
		return nil
	}
	s.stopsDependents(f, subject, strings.TrimSpace(q))
	return nil
}

func (s *student) finding(c status.Category, line int, problemText, command string) status.Finding {
	return status.Finding{Category: c, Line: line, Quote: s.quote(line), Problem: problemText, Command: command}
}

func (s *student) imageFinding(st reading.Step) {
	f := s.finding(status.CategoryMissingImage, st.Line,
		fmt.Sprintf("the image `%s` does not exist (looked for %s)", st.Image.Reference, st.Image.Path), "")
	f.SuggestedFix = mentor.SuggestedFix(status.CategoryMissingImage, st.Line, st.Image.Reference)
	_ = s.record(f, false, st.Image.Reference, "")
}

// count writes "1 file", "2 files".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// standsIn is a workaround that makes an empty file or folder in place of
// one the tutorial expected to exist.
var standsIn = regexp.MustCompile(`(?m)^\s*(?:mkdir|touch)\b`)
