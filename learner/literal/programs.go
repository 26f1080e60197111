package literal

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// compareOrRun compares an output block, unless every line of it starts
// with a program the container has: then it was a command after all.
func (s *student) compareOrRun(ctx context.Context, st reading.Step) error {
	if len(st.AltRun) == 0 || !s.allPrograms(ctx, st.AltRun) {
		return s.compare(st)
	}
	s.action(fmt.Sprintf("read the block at line %d as commands: each line starts with a program the container has", st.Line))
	for _, c := range st.AltRun {
		run := st
		run.Kind, run.Command, run.Line, run.EndLine, run.Tolerant = reading.StepRun, c, c.Line, c.EndLine, false
		if err := s.run(ctx, run); err != nil || s.keep.failure != nil {
			return err // a line that failed stops the rest of the block
		}
	}
	return nil
}

// allPrograms reports whether each command starts with a program on PATH
// (a file, not a shell builtin: `echo` or `test` could as well be output).
func (s *student) allPrograms(ctx context.Context, cmds []reading.Command) bool {
	for _, c := range cmds {
		if !s.hasProgram(ctx, shell.CommandName(c.Text)) {
			return false
		}
	}
	return true
}

// hasProgram reports whether name is a program on the container's PATH.
func (s *student) hasProgram(ctx context.Context, name string) bool {
	if name == "" {
		return false
	}
	known, ok := s.programs[name]
	if !ok {
		res, err := s.sess.Run(ctx, "command -v "+shellQuote(name), 5*time.Second)
		where := strings.TrimSpace(res.Output)
		known = err == nil && res.ExitCode == 0 && strings.HasPrefix(where, "/")
		s.programs[name] = known
	}
	return known
}
