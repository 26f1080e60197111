package literal

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// checkpointAfter is how long the steps since the last checkpoint (or the
// start) must have run before the Student keeps another: a snapshot costs
// one to two seconds, so only a slower stretch of steps is worth one. A
// variable so that a test can keep one before every step.
var checkpointAfter = 2 * time.Second

// resumeState is what the Student keeps about checkpoints in one attempt.
type resumeState struct {
	// since is when the steps a checkpoint would save began.
	since time.Time
	// background: a server or other detached command was started; a
	// snapshot does not keep running processes, so no checkpoint after it.
	background bool
	// recalled: the attempt started with what the Student had learned
	// above the checkpoint (its skipped blocks among it).
	recalled bool
	// note is the number of the action that says the attempt started from
	// a checkpoint (0: none): a resume fact, not something learned.
	note int
}

// maxCarriedOutput bounds the output of the latest command a checkpoint
// carries for a later output block to compare: before a step that follows
// a longer one, no checkpoint is kept.
const maxCarriedOutput = 64 << 10

// resumeLine is the line of the step this attempt starts at (0: the top).
func (s *student) resumeLine() int {
	if s.task.Resume == nil {
		return 0
	}
	return s.task.Resume.Line
}

// restore gives the session the shell state of the checkpoint the attempt
// starts from, and what the steps before it left the Student knowing.
func (s *student) restore() {
	s.resumed.since = time.Now()
	line := s.resumeLine()
	if line == 0 {
		return
	}
	s.sess.SetState(session.FromSaved(s.task.Resume.Shell))
	if l := s.task.Resume.Learned; l != nil {
		s.recall(l)
		s.cov.Resume(line, l.Blocks)
	} else {
		s.cov.Resume(line, nil)
	}
	for _, n := range s.task.MentorNotes {
		if n.Line > 0 && n.Line < line && n.Resolution == status.ResolutionWorkaround {
			// replayed by an earlier attempt, in a folder this one cannot know
			s.standIns = append(s.standIns, standInWorkaround(n, "")...)
		}
	}
	s.action(fmt.Sprintf("started from the checkpoint kept before line %d: the steps above it are in the container as an earlier iteration left them", line))
	s.resumed.note = len(s.out.AttemptedActions)
	s.env.Log.Info("Resumed from a checkpoint", "line", line, "learned", s.resumed.recalled)
}

// recall takes up what the Student had learned above the checkpoint: the
// result so far, the output differences already recorded, the ways that
// worked and the latest command.
func (s *student) recall(l *status.Learned) {
	s.resumed.recalled = true
	s.steps = l.Steps
	s.out.AttemptedActions = append(s.out.AttemptedActions, l.Actions...)
	s.out.CommandsRun = append(s.out.CommandsRun, l.CommandsRun...)
	s.out.FilesCreated = append(s.out.FilesCreated, l.FilesCreated...)
	s.out.Findings = append(s.out.Findings, l.Findings...)
	s.out.Skipped = append(s.out.Skipped, l.Skipped...)
	maps.Copy(s.seen, l.Seen)
	maps.Copy(s.worked, l.Worked)
	if c := l.Last; c != nil {
		s.last = &lastRun{command: reading.Command{Line: c.Line, EndLine: c.EndLine, Text: c.Text},
			output: c.Output, ok: c.OK, differs: c.Differs, files: c.Files}
	}
}

// learned is what the Student knows just before the step, for a
// checkpoint there; false when it cannot be carried whole.
func (s *student) learned(st reading.Step) (*status.Learned, bool) {
	actions := s.out.AttemptedActions
	if n := s.resumed.note; n > 0 && n <= len(actions) {
		actions = append(append([]string{}, actions[:n-1]...), actions[n:]...)
	}
	l := status.Learned{Steps: s.steps, Actions: actions, CommandsRun: s.out.CommandsRun, FilesCreated: s.out.FilesCreated,
		Findings: s.out.Findings, Skipped: s.out.Skipped, Seen: s.seen, Worked: s.worked, Blocks: s.cov.Above(st.Line)}
	if s.last != nil {
		c := s.last.command
		l.Last = &status.LastCommand{Line: c.Line, EndLine: c.EndLine, Text: c.Text, OK: s.last.ok, Differs: s.last.differs, Files: s.last.files}
		if st.Kind != reading.StepRun {
			// A run replaces the latest command; anything else leaves its
			// output for an output block after it.
			if len(s.last.output) > maxCarriedOutput {
				return nil, false
			}
			l.Last.Output = s.last.output
		}
	}
	// A copy: the walk goes on changing its own.
	data, err := json.Marshal(l)
	if err != nil {
		return nil, false
	}
	var out status.Learned
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, false
	}
	return &out, true
}

// passed reports whether the step lies before the checkpoint the attempt
// starts from: it is not followed again. Blocks that were not followed are
// still listed, as a replay from the top would list them: they came with
// what the checkpoint carried, or are listed again from the plan.
func (s *student) passed(st reading.Step) bool {
	if st.Line >= s.resumeLine() {
		return false
	}
	switch {
	case s.resumed.recalled:
		// Listed already, in what the checkpoint carried; an unplaced block
		// may still be what a later missing file needed.
		if st.Kind == reading.StepAmbiguous {
			s.unplaced = append(s.unplaced, st)
		}
	case st.Kind == reading.StepSkip || st.Kind == reading.StepAmbiguous || st.Kind == reading.StepOmit:
		s.skip(st)
	}
	return true
}

// checkpoint keeps a snapshot just before the step when the run asks for
// checkpoints and the steps since the last one took long enough.
func (s *student) checkpoint(ctx context.Context, st reading.Step) {
	if st.Background {
		defer func() { s.resumed.background = true }()
	}
	// Past a failure that stops progress, the walk is not what a replay with
	// the Mentor's answer would do: no checkpoint there.
	if !s.task.Checkpoints || s.env.Checkpoint == nil || s.resumed.background || st.Kind == reading.StepCompare ||
		s.stopped() || time.Since(s.resumed.since) < checkpointAfter {
		return
	}
	switch st.Kind {
	case reading.StepRun, reading.StepWrite:
	default:
		return
	}
	learned, ok := s.learned(st)
	if !ok {
		return
	}
	s.env.Progress(ctx, fmt.Sprintf("line %d: keeping a checkpoint", st.Line), st.Line)
	if err := s.env.Checkpoint(ctx, st.Line, s.stepsKey(st.Line), s.sess.State().Saved(), learned); err != nil {
		s.env.Log.Info("No checkpoint", "line", st.Line, "error", err.Error())
		return
	}
	s.resumed.since = time.Now()
}

// stepsKey digests what led to the line (status.StepsKey): the same key
// means the same steps.
func (s *student) stepsKey(line int) string {
	return status.StepsKey(s.tut.Content, line, s.task.MentorNotes)
}
