package exercise

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/step"
	"github.com/smile-loop/smile/spec/markdown"
)

// TestAnswersFirst: the runs of a script no step writes come after the
// answer's write (and a chmod when they start it by its path); a block
// whose #! line does not fit the file, or a file the page writes, is left.
func TestAnswersFirst(t *testing.T) {
	blocks := markdown.ParseMarkdown([]byte("# x\n\n```\n$ ./count.sh a b\n2\n```\n\n## Answer\n\n```\n#!/bin/bash\necho $#\n```\n")).Blocks
	run := step.Step{Kind: step.Run, Line: 4, Command: step.Command{Line: 4, Text: "./count.sh a b"}}
	answer := step.Step{Kind: step.Skip, Line: 11}
	got := AnswersFirst([]step.Step{run, answer}, blocks)
	if len(got) != 4 || got[0].Kind != step.Write || got[0].File.Path != "count.sh" || got[0].Content != "#!/bin/bash\necho $#\n" ||
		got[1].Command.Text != "chmod +x count.sh" || got[2].Command.Text != "./count.sh a b" || got[3].Kind != step.Write {
		t.Fatalf("got %+v", got)
	}
	if got[0].Line != 4 || got[3].Line != 11 {
		t.Errorf("lines %d and %d, want the run's 4 and the answer's 11", got[0].Line, got[3].Line)
	}
	py := markdown.ParseMarkdown([]byte("# x\n\n```\n$ ./count.sh a b\n```\n\n```\n#!/usr/bin/env python3\nprint(1)\n```\n")).Blocks
	if got := AnswersFirst([]step.Step{run, {Kind: step.Skip, Line: 7}}, py); len(got) != 2 {
		t.Errorf("a python answer for a .sh file: %+v", got)
	}
	written := []step.Step{{Kind: step.Write, Line: 2, File: step.Destination{Path: "count.sh"}}, run, answer}
	if got := AnswersFirst(written, blocks); len(got) != 3 {
		t.Errorf("a script the page writes: %+v", got)
	}
}
