package failshown

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec/spectest"
)

// page runs a tool twice: the first failure is shown after a sentence
// (skipped as display text), the second right after (compared), and a
// third command is followed by another command, not by its output.
const page = "# Tool\n\nRun it in an empty folder:\n\n```\n$ mkdir empty\n$ tool\n```\n\nAn error appears.\n\n```\ntool: *** nothing to do here.  Stop.\n```\n\n" +
	"Now with a file:\n\n```\n$ touch list\n$ tool list\n```\n\n```\ntool: list: empty list\n```\n\nThen:\n\n```\n$ tool again\n$ ls\n```\n"

func TestNext(t *testing.T) {
	tut := spectest.Tutorial(t, page)
	steps := reading.Plan(tut)
	run := func(cmd string) reading.Step {
		for _, s := range steps {
			if s.Kind == reading.StepRun && s.Command.Text == cmd {
				return s
			}
		}
		t.Fatalf("no run of %q in the plan %+v", cmd, steps)
		return reading.Step{}
	}
	for _, tc := range []struct {
		cmd, output string
		want        bool
	}{
		{"tool", "tool: *** nothing to do here.  Stop.\n", true},         // the block after the sentence
		{"tool", "tool: cannot read the folder\n", false},                // another error than the one shown
		{"tool list", "tool: list: empty list\n", true},                  // the output compared next
		{"tool list", "bash: line 1: tool: command not found\n", false},  // not the tool's error
		{"mkdir empty", "tool: *** nothing to do here.  Stop.\n", false}, // not the block's last command
		{"tool again", "anything at all\n", false},                       // a command follows, no output shown
	} {
		if got := Next(steps, tut.Blocks, run(tc.cmd), tc.output); got != tc.want {
			t.Errorf("Next(%q, %q) = %v, want %v", tc.cmd, tc.output, got, tc.want)
		}
	}
}

func TestThisNeedsWordsOfItsOwn(t *testing.T) {
	tut := spectest.Tutorial(t, "# X\n\n```\n$ tool\n...\n```\n")
	steps := reading.Plan(tut)
	if len(steps) == 0 || This(steps[0].Command.Expected, "tool: failed\n") {
		t.Errorf("an output of only \"...\" shows no failure: %+v", steps)
	}
}
