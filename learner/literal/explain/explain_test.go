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

// An unplaced whole program is tried on its own, and the output after it is
// its output; a fragment of a program stays unplaced, yet still owns the
// output shown after it.
func TestDescribeProgramsTriedAlone(t *testing.T) {
	steps := []reading.Step{
		{Kind: reading.StepRun, Line: 3, Lang: "bash", Command: reading.Command{Text: "mkdir demo"}},
		{Kind: reading.StepAmbiguous, Line: 6, EndLine: 12, Lang: "go", Content: "package main\n\nfunc main() {\n\tprintln(1)\n}\n", Why: "unplaced"},
		{Kind: reading.StepCompare, Line: 15},
		{Kind: reading.StepAmbiguous, Line: 18, EndLine: 20, Lang: "go", Content: "x := 1\n", Why: "unplaced"},
		{Kind: reading.StepCompare, Line: 23},
	}
	got := Describe(steps)
	if got[1].Action != "try" || got[1].Target != "main.go, on its own: `go run main.go` in a folder of its own" {
		t.Errorf("the whole program: %+v", got[1])
	}
	if got[2].Target != "output of the program at line 6, exact" || got[4].Target != "output of the program at line 18, exact" {
		t.Errorf("the outputs: %q, %q", got[2].Target, got[4].Target)
	}
	if got[3].Action != "ambiguous" {
		t.Errorf("the fragment: %+v, want it left ambiguous", got[3])
	}
	far := Describe([]reading.Step{steps[0], steps[1], {Kind: reading.StepCompare, Line: 40}})
	if far[2].Target != "not compared: the program at line 6 stands between it and any command" {
		t.Errorf("output far from the program: %q", far[2].Target)
	}
}
