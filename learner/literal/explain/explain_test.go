package explain

import (
	"reflect"
	"testing"

	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/reading"
)

func TestDescribe(t *testing.T) {
	steps := []reading.Step{
		{Kind: reading.StepRun, Line: 3, Lang: "bash", Command: reading.Command{Text: "python3\nmore"}, Stdin: "1+1\n2+2\n", Why: "a python session"},
		{Kind: reading.StepRun, Line: 7, Lang: "bash", Command: reading.Command{Text: "make serve", Expected: []expect.Line{{Line: 8, Text: "up"}}}, Background: true, Tolerant: true},
		{Kind: reading.StepWrite, Line: 10, EndLine: 14, File: reading.Destination{Path: "app.py", Append: true}},
		{Kind: reading.StepCompare, Line: 16, Tolerant: true, ExpectFail: true, Optional: 15},
	}
	want := []Reading{
		{Line: 3, EndLine: 3, Lang: "bash", Action: "input", Target: "typed into `python3 ...` (2 lines)", Why: "a python session"},
		{Line: 7, EndLine: 7, Lang: "bash", Action: "background", Target: "make serve; its output (1 lines) compared, tolerant"},
		{Line: 10, EndLine: 14, Action: "write", Target: "app.py (append)"},
		{Line: 16, EndLine: 16, Action: "compare", Target: "output of line 7, tolerant", Flags: []string{"expected to fail", "optional (line 15)"}},
	}
	if got := Describe(steps); !reflect.DeepEqual(got, want) {
		t.Errorf("Describe:\n got %+v\nwant %+v", got, want)
	}
}
