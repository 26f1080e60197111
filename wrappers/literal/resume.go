package literal

import (
	"context"
	"fmt"
	"time"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/wrappers/literal/reading"
	"github.com/smile-loop/smile/wrappers/session"
)

// checkpointAfter is how long the steps since the last checkpoint (or the
// start) must have run before the Student keeps another: a snapshot costs
// one to two seconds, so only a slower stretch of steps is worth one.
const checkpointAfter = 2 * time.Second

// resumeState is what the Student keeps about checkpoints in one attempt.
type resumeState struct {
	// since is when the steps a checkpoint would save began.
	since time.Time
	// background: a server or other detached command was started; a
	// snapshot does not keep running processes, so no checkpoint after it.
	background bool
}

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
	for _, n := range s.task.MentorNotes {
		if n.Line > 0 && n.Line < line && n.Resolution == status.ResolutionWorkaround &&
			(n.Category == status.CategoryMissingFile || n.Category == status.CategoryEnvironment) && standsIn.MatchString(n.Workaround) {
			s.standIn = max(s.standIn, n.Line)
		}
	}
	s.action(fmt.Sprintf("started from the checkpoint kept before line %d: the steps above it are in the container as an earlier iteration left them", line))
	s.env.Log.Info("Resumed from a checkpoint", "line", line)
}

// passed reports whether the step lies before the checkpoint the attempt
// starts from: it is not followed again. Blocks that were not followed are
// still listed, as a replay from the top would list them.
func (s *student) passed(st reading.Step) bool {
	if st.Line >= s.resumeLine() {
		return false
	}
	switch st.Kind {
	case reading.StepSkip, reading.StepAmbiguous, reading.StepOmit:
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
	if !s.task.Checkpoints || s.env.Checkpoint == nil || s.resumed.background || st.Kind == reading.StepCompare ||
		time.Since(s.resumed.since) < checkpointAfter {
		return
	}
	switch st.Kind {
	case reading.StepRun, reading.StepWrite:
	default:
		return
	}
	s.env.Progress(ctx, fmt.Sprintf("line %d: keeping a checkpoint", st.Line), st.Line)
	if err := s.env.Checkpoint(ctx, st.Line, s.stepsKey(st.Line), s.sess.State().Saved()); err != nil {
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
