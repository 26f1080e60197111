package literal

import (
	"context"
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/session"
)

// readAsText decides, once per block, whether a shell block whose lines no
// known program starts is text after all (reading.TextReading): when not one
// of the programs its commands start is on the container's PATH (nor a
// function, path or assignment of the session), its first step becomes the
// write of the file its lead-in names (or a skip) and the others skips. It
// returns the step to follow at i.
func (s *student) readAsText(ctx context.Context, steps []reading.Step, i int) reading.Step {
	t := steps[i].Text
	if t == nil || steps[i].Kind != reading.StepRun {
		return steps[i]
	}
	var group []int
	for j := i; j < len(steps) && steps[j].Text == t; j++ {
		group = append(group, j)
	}
	for _, j := range group {
		name := shell.CommandName(steps[j].Command.Text)
		if name == "" || strings.ContainsAny(name, "/=$") {
			return clearText(steps, group)
		}
		if found, err := session.LookPath(ctx, s.sess.Hands(), name, s.env.CommandEnv()); err == nil && found != "" {
			return clearText(steps, group)
		}
	}
	steps[i] = t.AsText(steps[i])
	for _, j := range group[1:] {
		steps[j].Kind, steps[j].Why, steps[j].Text, steps[j].Merged = reading.StepSkip, fmt.Sprintf("part of the text at line %d", t.BlockLine), nil, true
	}
	s.action(fmt.Sprintf("read the block at line %d as text: no line of it starts with a program the container has", t.BlockLine))
	return steps[i]
}

// clearText keeps the block's commands as commands.
func clearText(steps []reading.Step, group []int) reading.Step {
	for _, j := range group {
		steps[j].Text = nil
	}
	return steps[group[0]]
}
