// Package explain says, for a page's author, how the literal Student reads
// each step of their page: what it does with each block, on what, and the
// rules that made it so. `smile plan` prints it; it runs nothing.
package explain

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/standalone/planned"
)

// Reading is how the literal Student reads one step of a page, said for its
// author: what it does with the block (Action), on what (Target), and why
// (Why: the reading's evidence). `smile plan` prints these; the report's
// skipped blocks say the same.
type Reading struct {
	Line    int    `json:"line"`
	EndLine int    `json:"endLine"`
	Lang    string `json:"lang,omitempty"`
	// Action is run, input, background, write, compare, skip, omit,
	// ambiguous, try (an unplaced whole program tried on its own) or image.
	Action string `json:"action"`
	// Target is the command (its first line), the program fed input, the
	// file written and how, the output compared and how, or the image.
	Target string `json:"target,omitempty"`
	// Flags are what the prose made of the step: expected to fail, optional,
	// one of several ways, one of a section's examples.
	Flags []string `json:"flags,omitempty"`
	Why   string   `json:"why,omitempty"`
	// Evidence are the named rules the reading rests on, with the line and
	// the phrase each matched.
	Evidence []rule.Evidence `json:"evidence,omitempty"`
}

// Describe says how the Student reads each planned step, in order.
func Describe(steps []reading.Step) []Reading {
	out := make([]Reading, 0, len(steps))
	for i, s := range steps {
		r := Reading{Line: s.Line, EndLine: max(s.EndLine, s.Line), Lang: s.Lang, Action: string(s.Kind), Why: s.Why, Evidence: s.Evidence}
		switch s.Kind {
		case reading.StepRun:
			r.Target = textutil.Shorten(textutil.FirstLine(s.Command.Text), 80)
			switch {
			case s.Stdin != "" && reading.AnswersApt(s):
				r.Target += " (answering yes)"
			case s.Stdin != "" && strings.Trim(s.Stdin, "\n") == "":
				r.Target += " (pressing Enter for each question)"
			case s.Stdin != "":
				r.Action, r.Target = "input", fmt.Sprintf("typed into `%s` (%d lines)", r.Target, strings.Count(strings.TrimRight(s.Stdin, "\n"), "\n")+1)
			case s.Background:
				r.Action = "background"
			}
			if n := len(s.Command.Expected); n > 0 {
				r.Target += fmt.Sprintf("; its output (%d lines) compared%s", n, how(s))
			}
			if s.Text != nil {
				text := "skipped"
				if s.Text.Dest.Path != "" {
					text = "written to " + s.Text.Dest.Path
				}
				r.Why = strings.TrimPrefix(r.Why+"; ", "; ") + fmt.Sprintf("read as text (%s) when no program its lines start with is in the container", text)
				if s.Line == s.Text.BlockLine || len(r.Evidence) == 0 {
					r.Evidence = append(r.Evidence, s.Text.Evidence)
				}
			}
		case reading.StepWrite:
			mode := "replace"
			if s.File.Append {
				mode = "append"
			}
			r.Target = fmt.Sprintf("%s (%s)", s.File.Path, mode)
		case reading.StepCompare:
			r.Target = "output" + how(s)
			if prog, ok := planned.ProgramBefore(steps, i); ok && s.Line-max(prog.EndLine, prog.Line) <= planned.Near {
				r.Target = fmt.Sprintf("output of the program at line %d%s", prog.Line, how(s))
			} else if ok {
				r.Target = fmt.Sprintf("not compared: the program at line %d stands between it and any command", prog.Line)
			} else if prev := lastRunBefore(steps, i); prev != nil {
				r.Target = fmt.Sprintf("output of line %d%s", prev.Line, how(s))
			}
		case reading.StepImage:
			r.Target = s.Image.Reference + " (missing)"
		case reading.StepAmbiguous:
			if p, ok := planned.Tried(steps, i); ok {
				r.Action, r.Target = "try", fmt.Sprintf("%s, on its own: `%s` in a folder of its own", p.File, p.Run)
				r.Why = strings.TrimPrefix(r.Why+"; ", "; ") + "a whole program, tried on its own: a failure is no gap"
			}
		}
		r.Flags = flags(s)
		out = append(out, r)
	}
	return out
}

// how says whether shown output is compared exactly or tolerantly.
func how(s reading.Step) string {
	if s.Tolerant {
		return ", tolerant"
	}
	return ", exact"
}

// lastRunBefore is the command step a comparison at i checks.
func lastRunBefore(steps []reading.Step, i int) *reading.Step {
	for j := i - 1; j >= 0; j-- {
		if steps[j].Kind == reading.StepRun {
			return &steps[j]
		}
	}
	return nil
}

func flags(s reading.Step) []string {
	var f []string
	switch {
	case s.FailNoted:
		f = append(f, "may fail: its comment says it fails")
	case s.ExpectFail:
		f = append(f, "expected to fail")
	}
	if s.Reference {
		f = append(f, "a line of a reference list, on sample names: only a misused command is a gap")
	}
	if s.Observe {
		f = append(f, "an experiment the page asks about: any outcome")
	}
	if s.Optional > 0 && s.IfPresent {
		f = append(f, fmt.Sprintf("optional, for a machine that has its program (line %d)", s.Optional))
	} else if s.Optional > 0 {
		f = append(f, fmt.Sprintf("optional (line %d)", s.Optional))
	}
	if s.OneOf > 0 {
		f = append(f, fmt.Sprintf("one of several ways (line %d)", s.OneOf))
	}
	if s.Example {
		f = append(f, "one of a section's examples")
	}
	if s.Annotation != "" {
		f = append(f, "annotated ("+s.Annotation+")")
	}
	return f
}
