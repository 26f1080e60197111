package planned

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
)

// Output shown right after a whole program is its output; output further on
// (after a heading, or a paragraph naming another command) is not, and a
// fragment of a program is never tried.
func TestTriedAndItsOutput(t *testing.T) {
	prog := reading.Step{Kind: reading.StepAmbiguous, Line: 10, EndLine: 14, Lang: "perl", Content: "print \"hi\\n\";\n"}
	near := []reading.Step{prog, {Kind: reading.StepCompare, Line: 18}}
	far := []reading.Step{prog, {Kind: reading.StepCompare, Line: 40}}
	if _, ok := Tried(near, 0); !ok || !OutputShownNext(near, 0) {
		t.Error("a script with its output right after it is tried")
	}
	if _, ok := Tried(far, 0); ok || OutputShownNext(far, 0) {
		t.Error("a script whose 'output' stands 26 lines further on is not tried")
	}
	if p, ok := ProgramBefore(far, 1); !ok || p.Line != 10 {
		t.Error("the program still stands between the far output and any command")
	}
	main := reading.Step{Kind: reading.StepAmbiguous, Line: 3, EndLine: 8, Lang: "go", Content: "package main\n\nfunc main() {}\n"}
	if p, ok := Tried([]reading.Step{main}, 0); !ok || !p.Entry {
		t.Error("a Go main package is tried even with no output shown")
	}
	frag := reading.Step{Kind: reading.StepAmbiguous, Line: 3, EndLine: 5, Lang: "go", Content: "x := 1\n"}
	if _, ok := Tried([]reading.Step{frag, {Kind: reading.StepCompare, Line: 7}}, 0); ok {
		t.Error("a fragment is never tried")
	}
	run := reading.Step{Kind: reading.StepRun, Line: 1}
	if _, ok := ProgramBefore([]reading.Step{run, {Kind: reading.StepSkip, Line: 3}, {Kind: reading.StepCompare, Line: 5}}, 2); ok {
		t.Error("output after a command is the command's")
	}
}
