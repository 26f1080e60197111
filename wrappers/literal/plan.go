package literal

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/smile-loop/smile/spec"
)

// StepKind says what the Student does with a step.
type StepKind string

// The kinds of step.
const (
	StepRun       StepKind = "run"       // run a command in the session
	StepWrite     StepKind = "write"     // write a code block to a file
	StepCompare   StepKind = "compare"   // compare shown output with the last command's
	StepAmbiguous StepKind = "ambiguous" // a code block the tutorial says nothing about
	StepSkip      StepKind = "skip"      // display text
	StepImage     StepKind = "image"     // a referenced image that is missing
)

// Step is one thing the tutorial asks for, at its tutorial line.
type Step struct {
	Kind StepKind
	// Line is where a finding about the step points: the command's first
	// line, the opening fence of a block, the first expected output line,
	// the image reference.
	Line    int
	EndLine int
	Lang    string
	// Command is the command of a StepRun.
	Command Command
	// Expected is the output of a StepCompare.
	Expected []ExpectedLine
	// File and Content are the destination and text of a StepWrite.
	File    Destination
	Content string
	// Image is the missing image of a StepImage.
	Image spec.Image
	// Why says how the block was read (for the audit and the Mentor).
	Why string
}

var (
	shellLangs   = set("sh", "bash", "shell", "zsh", "ksh", "shellscript", "posix")
	consoleLangs = set("console", "shell-session", "shellsession", "sh-session", "bash-session", "terminal")
	textLangs    = set("", "text", "txt", "plain", "plaintext", "output", "out", "stdout", "log", "none", "nohighlight")

	outputIntro = regexp.MustCompile(`(?i)you should (?:now )?see|you(?:'ll| will) see|should (?:now )?(?:print|output|display|show|return|look like)|` +
		`\bprints?\b|\boutputs?\b|\bthe output\b|expected output|\breturns?\b|\bdisplays?\b|\bresults? (?:is|should be|looks like)|\bresult:|looks like this`)
	runIntro = regexp.MustCompile(`(?i)\b(?:run|type|execute|enter)\b`)
)

func set(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Plan turns a tutorial into the Student's steps, in document order.
func Plan(t *spec.Tutorial) []Step {
	var steps []Step
	for i, b := range t.Blocks {
		if b.Kind != spec.BlockCode || len(b.Code) == 0 {
			continue
		}
		steps = append(steps, blockSteps(b, proseBefore(t.Blocks, i))...)
	}
	for _, img := range t.Images {
		if img.Missing {
			steps = append(steps, Step{Kind: StepImage, Line: img.Line, EndLine: img.Line, Image: img})
		}
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].Line < steps[j].Line })
	return steps
}

// proseBefore is the paragraph or heading just before block i (a list
// item's own paragraph when the block is inside the item), or "" when
// another code block comes between them.
func proseBefore(blocks []spec.Block, i int) string {
	for j := i - 1; j >= 0; j-- {
		switch blocks[j].Kind {
		case spec.BlockParagraph, spec.BlockHeading:
			return blocks[j].Text
		case spec.BlockCode:
			return ""
		}
	}
	return ""
}

// blockSteps reads one code block. In order: a named destination makes it a
// file to write; a shell block is commands; a console block is commands with
// their output; prose that introduces output makes it output to compare; an
// untagged block the prose says to run (or that shows `$ ` prompts) is
// commands; any other language is an ambiguous instruction; the rest is
// display text.
func blockSteps(b spec.Block, prose string) []Step {
	lang := infoLang(b.Info)
	base := Step{Line: b.Line, EndLine: b.EndLine, Lang: lang}
	if dest, ok := infoDestination(b.Info); ok {
		s := base
		s.Kind, s.File, s.Content, s.Why = StepWrite, dest, b.Text, fmt.Sprintf("the info string names %s", dest.Path)
		return []Step{s}
	}
	if dest, ok := proseDestination(prose); ok {
		s := base
		s.Kind, s.File, s.Content, s.Why = StepWrite, dest, b.Text, fmt.Sprintf("the prose before it names %s", dest.Path)
		return []Step{s}
	}
	prompted := false
	for _, l := range b.Code {
		if hasPrompt(l.Text) {
			prompted = true
			break
		}
	}
	switch {
	case consoleLangs[lang], shellLangs[lang] && prompted, lang == "" && prompted:
		return consoleSteps(base, b.Code)
	case shellLangs[lang]:
		return runSteps(base, scriptCommands(b.Code))
	case outputIntro.MatchString(prose):
		s := base
		s.Kind, s.Expected, s.Why = StepCompare, expectedLines(b.Code), "the prose before it introduces output"
		s.Line = firstContentLine(b.Code, b.Line)
		return []Step{s}
	case lang == "" && runIntro.MatchString(prose):
		return runSteps(base, scriptCommands(b.Code))
	case !textLangs[lang]:
		s := base
		s.Kind, s.Why = StepAmbiguous, fmt.Sprintf("a %s block with no file to save it to and no instruction to run it", lang)
		return []Step{s}
	}
	s := base
	s.Kind, s.Why = StepSkip, "display text: no file name, no instruction to run it, no output introduced"
	return []Step{s}
}

func runSteps(base Step, cmds []Command) []Step {
	var steps []Step
	for _, c := range cmds {
		s := base
		s.Kind, s.Command, s.Line, s.EndLine = StepRun, c, c.Line, c.EndLine
		steps = append(steps, s)
	}
	return steps
}

func consoleSteps(base Step, lines []spec.CodeLine) []Step {
	leading, cmds := consoleCommands(lines)
	var steps []Step
	if hasExpectation(leading) {
		s := base
		s.Kind, s.Expected, s.Why = StepCompare, leading, "output shown before the block's first prompt"
		s.Line = leading[0].Line
		steps = append(steps, s)
	}
	return append(steps, runSteps(base, cmds)...)
}

func firstContentLine(lines []spec.CodeLine, fallback int) int {
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			return l.Line
		}
	}
	return fallback
}

// expectedLines converts code lines to expected output lines.
func expectedLines(lines []spec.CodeLine) []ExpectedLine {
	out := make([]ExpectedLine, len(lines))
	for i, l := range lines {
		out[i] = ExpectedLine(l)
	}
	return out
}
