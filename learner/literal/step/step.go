// Package step is the literal Student's plan vocabulary: a step is one
// thing the tutorial asks for at one of its lines (a command to run, a file
// to write, output to compare, a block to skip or omit) with why it was read
// so. Package reading reads a page into steps; the Student follows them.
package step

import (
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec"
)

// Command is a command line of the page, with the output it shows.
type Command = transcript.Command

// Destination is a file a block is written to.
type Destination = destination.Destination

// Kind says what the Student does with a step.
type Kind string

// The kinds of step.
const (
	Run     Kind = "run"     // run a command in the session
	Write   Kind = "write"   // write a code block to a file
	Compare Kind = "compare" // compare shown output with the last command's
	// StepAmbiguous is a code block the Student cannot place: it is skipped
	// and listed, and reported only if a later step fails for want of it.
	Ambiguous Kind = "ambiguous"
	Skip      Kind = "skip"  // display text
	Omit      Kind = "omit"  // a block not on the path (another platform, an alternative, a template): listed
	Image     Kind = "image" // a referenced image that is missing
)

// Step is one thing the tutorial asks for, at its tutorial line.
type Step struct {
	Kind Kind
	// Line is where a finding about the step points: the command's first
	// line, the opening fence of a block, the first expected output line,
	// the image reference.
	Line     int
	EndLine  int
	Lang     string
	Command  Command       // the command of a StepRun
	Expected []expect.Line // the output of a StepCompare
	// File and Content are the destination and text of a StepWrite.
	File    Destination
	Content string
	Image   spec.Image // the missing image of a StepImage
	// Why says how the block was read (for the audit and the Mentor); for a
	// StepOmit or StepAmbiguous, why it was not followed.
	Why string

	// Tolerant: the prose says the output is only "something like" this.
	Tolerant bool
	// Differs is the line of a note, just before or just after the output,
	// that says the reader's own output may differ ("your results may be
	// slightly different"): a difference that even the tolerant comparison
	// finds is listed, not reported. 0 when there is none.
	Differs int
	// OneOf is the line of the prose that offers the commands after it as
	// ways of which only one may work ("depending on your system, only one
	// of these works"); OneOfMore says a later way follows. 0 when none.
	OneOf      int
	OneOfMore  bool
	ExpectFail bool // the prose says the command fails; success is the finding
	// FailShown: the failure is expected because the transcript shows the
	// run failing (a test's failure, a compiler's error): a failure of
	// another kind (a missing file or program) is still the page's.
	FailShown bool
	// FailNoted: the command's own comment says it fails ("# error:
	// read-only"): its failure is no gap, and its success none either.
	FailNoted bool
	// Observe: the prose after the block asks the reader what its commands
	// do (leadin.AsksWhatHappens): whatever they do is the answer, never a
	// gap.
	Observe bool
	// ExpectExit is the exit code an author's annotation expects (`exit=2`),
	// 0 when none does: a failure with another code is a finding.
	ExpectExit int
	// TimeoutSeconds is the limit an author's annotation gives the step's
	// commands, 0 for the learner's own.
	TimeoutSeconds int
	// Dir is the folder an author's annotation runs the step in (`cwd=`),
	// without moving the session there; "" for the session's own.
	Dir string
	// Annotation says which of the author's annotations decided or changed
	// the step ("line 12: skip"), "" when the reader inferred it all.
	Annotation string
	// Optional is the line of the prose that makes the step optional ("you
	// can also", "if you want a PDF, also install"): when it fails, the
	// failure is a minor note and the Student goes on. 0 when none does.
	Optional int
	// IfPresent: the optional step is for a machine that has what it uses
	// ("you may need to open the port", "# may not be installed"): a
	// reader without its program passes it over, no gap at all.
	IfPresent bool
	// Example: the step runs one of a section's independent examples (a
	// rule such as "put each example in a Makefile and run make"): a
	// failure is recorded, and the next example, which replaces the file,
	// goes on.
	Example bool
	// Reference: the step is one line of a reference list (a block whose
	// every command carries a comment saying what it does), on sample
	// names: a failure for want of them is no gap, a misused command is.
	Reference bool
	// Background: a server, or a command for another terminal: started
	// detached, its log watched, and left running.
	Background bool
	Shown      []expect.Line // what a background command shows when it is up
	// ReadyPort and ReadyURL are what the author's ready annotation waits
	// for instead: a port that accepts connections, a URL that answers.
	ReadyPort int
	ReadyURL  string
	Stdin     string // input the tutorial types into the program (a REPL, `cat >`)
	// Input are the first lines of the blocks typed into the program as
	// Stdin: they are run when it runs (the Student's coverage).
	Input []int
	// Session names the REPL whose one running session the page's blocks
	// share (transcript.InSession): its Stdin is typed into the session
	// the blocks before started. NewSession: this block starts the program
	// with its own command, so a new session. "" when the block has the
	// program to itself.
	Session    string
	NewSession bool
	// Text: the block may be text, not commands (contentlines.go); the
	// Student reads it so when no program its lines start with exists.
	Text *TextReading
	// Merged: the step was folded into the one before it (the rest of a
	// block read as text): nothing of its own to do or list.
	Merged bool
	// AltRun is the block read as commands, for a StepCompare whose first
	// words may be commands in the container (checked when it runs).
	AltRun []Command
	// Prose is the text around the block, and Names the file names it
	// mentions: a skipped block is blamed for a missing file by them.
	Prose string
	Names []string
	// Evidence is what the reading rests on: the rules that decided it, the
	// lines they looked at and what they matched there.
	Evidence []rule.Evidence
}

// Because is why the step was read as it was, with the rules behind it.
func (s Step) Because() string {
	if len(s.Evidence) == 0 {
		return s.Why
	}
	return strings.TrimPrefix(s.Why+" ", " ") + "[rules: " + rule.Explain(s.Evidence) + "]"
}

// TextReading is how a shell block reads when no program its lines start
// with turns out to exist where they run: as text, written to Dest when its
// lead-in names a file in the reader's folder, else skipped. Steps of one
// block share one TextReading (the Student decides once, for the block).
type TextReading struct {
	BlockLine, EndLine int
	Dest               Destination // Path "" when the lead-in names no file
	Content            string
	Evidence           rule.Evidence
}

// AsText is the step a block's first command becomes when its block reads
// as text: the write of its file, or a skip.
func (t *TextReading) AsText(st Step) Step {
	st.Line, st.EndLine, st.Command, st.Text = t.BlockLine, t.EndLine, Command{}, nil
	st.Evidence = append(st.Evidence, t.Evidence)
	if t.Dest.Path != "" {
		st.Kind, st.File, st.Content = Write, t.Dest, t.Content
		st.Why = "none of its lines starts with a program the container has; the sentence before names " + t.Dest.Path + ", whose content it is"
		return st
	}
	st.Kind, st.Why = Skip, "none of its lines starts with a program the container has: text to read (a file's lines, a key, a setting)"
	return st
}

// OnlyOutputAfter: every step of steps after the one at i shows output. A
// command shown again after another block (a file's new version, a step
// skipped as text) runs again: what it reads may have changed.
func OnlyOutputAfter(steps []Step, i int) bool {
	for _, s := range steps[i+1:] {
		if s.Kind != Compare {
			return false
		}
	}
	return true
}
