package reading

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/spec"
)

// An author's annotation always wins over what the prose suggests. Some
// annotations decide what a block is (skip, file, output, stdin, run-in):
// the planner does not read the block at all. The others change how its
// steps run (exit, cwd, background, ready, timeout), whatever they are.

// decidingKeys are the annotations that say what a block is.
var decidingKeys = []string{spec.AnnotateSkip, spec.AnnotateFile, spec.AnnotateOutput, spec.AnnotateStdin, spec.AnnotateRunIn}

// byBlock groups a page's annotations by the code block they apply to.
func byBlock(anns []spec.Annotation) map[int]map[string]spec.Annotation {
	out := map[int]map[string]spec.Annotation{}
	for _, a := range anns {
		if a.Block == 0 {
			continue
		}
		if out[a.Block] == nil {
			out[a.Block] = map[string]spec.Annotation{}
		}
		out[a.Block][a.Key] = a
	}
	return out
}

// annotatedSteps reads block i as its annotation says, when one decides
// what the block is; ok is false when none does.
func (p *planner) annotatedSteps(i int) (steps []Step, ok bool) {
	b := p.blocks[i]
	anns := p.annotations[b.Line]
	var a spec.Annotation
	for _, k := range decidingKeys {
		if found, has := anns[k]; has {
			a, ok = found, true
			break
		}
	}
	if !ok {
		return nil, false
	}
	base := Step{Line: b.Line, EndLine: b.EndLine, Lang: codelang.InfoLang(b.Info), Annotation: describeAnnotation(a)}
	switch a.Key {
	case spec.AnnotateSkip:
		base.Kind, base.Why = StepSkip, fmt.Sprintf("the author's annotation at line %d says to skip it", a.Line)
	case spec.AnnotateFile:
		dest := Destination{Path: a.Value, Append: anns[spec.AnnotateAppend].Key != ""}
		base.Kind, base.File, base.Content, base.Why = StepWrite, dest, b.Text, fmt.Sprintf("the author's annotation at line %d names %s", a.Line, a.Value)
		if dest.Append {
			base.Annotation += ", append"
		}
	case spec.AnnotateOutput:
		base.Kind, base.Expected, base.Why = StepCompare, blockshape.ExpectedLines(b.Code), fmt.Sprintf("the author's annotation at line %d says it is the output of the command before it", a.Line)
		base.Line = blockshape.FirstContentLine(b.Code, b.Line)
	case spec.AnnotateStdin:
		if k := p.lastRunIndex(); k >= 0 {
			p.steps[k].Stdin += b.Text
			p.steps[k].Why = strings.TrimSpace(p.steps[k].Why + fmt.Sprintf("; the block at line %d is typed into it (the author's annotation at line %d)", b.Line, a.Line))
			return nil, true
		}
		base.Kind, base.Why = StepSkip, fmt.Sprintf("the author's annotation at line %d says it is input to the command before it, but no command comes before it", a.Line)
	case spec.AnnotateRunIn:
		base.Kind, base.Stdin = StepRun, b.Text
		base.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: a.Value}
		base.Why = fmt.Sprintf("the author's annotation at line %d says it is typed into `%s`", a.Line, a.Value)
	}
	return []Step{base}, true
}

// modify applies the annotations that change how a block's steps run.
func (p *planner) modify(i int, steps []Step) []Step {
	anns := p.annotations[p.blocks[i].Line]
	if len(anns) == 0 {
		return steps
	}
	for k := range steps {
		s := &steps[k]
		if s.Kind != StepRun {
			continue
		}
		var said []string
		if a, ok := anns[spec.AnnotateExit]; ok {
			code, _ := strconv.Atoi(a.Value) // checked when the page was loaded
			s.ExpectFail, s.ExpectExit = code != 0, code
			said = append(said, describeAnnotation(a))
		}
		if a, ok := anns[spec.AnnotateCwd]; ok {
			s.Dir = a.Value
			said = append(said, describeAnnotation(a))
		}
		if a, ok := anns[spec.AnnotateBackground]; ok {
			s.Background = true
			said = append(said, describeAnnotation(a))
			if r, ok := anns[spec.AnnotateReady]; ok {
				rd, _ := spec.ParseReady(r.Value) // checked at load
				s.ReadyPort, s.ReadyURL = rd.Port, rd.URL
				if rd.Output != "" {
					s.Shown = []expect.Line{{Line: r.Line, Text: rd.Output}}
				}
				said = append(said, describeAnnotation(r))
			}
		}
		if a, ok := anns[spec.AnnotateTimeout]; ok {
			s.TimeoutSeconds, _ = strconv.Atoi(a.Value)
			said = append(said, describeAnnotation(a))
		}
		if len(said) > 0 {
			s.Annotation = strings.TrimPrefix(s.Annotation+", "+strings.Join(said, ", "), ", ")
		}
	}
	return steps
}

// InFolder is the shell text that runs a command in a folder without moving
// the session there, as a notebook cell with its own working folder does;
// the command itself when dir is "".
func InFolder(dir, command string) string {
	if dir == "" {
		return command
	}
	return fmt.Sprintf("( cd -- %s || exit\n%s\n)", shellQuote(dir), command)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// describeAnnotation says an annotation as the author wrote it, with where.
func describeAnnotation(a spec.Annotation) string {
	if a.Value != "" {
		return fmt.Sprintf("line %d: %s=%s", a.Line, a.Key, a.Value)
	}
	return fmt.Sprintf("line %d: %s", a.Line, a.Key)
}

// runIn types a block the reader could not place into the program the run's
// settings name for its language (smile.json's runners, or the page's
// own front matter, which wins): a block the page
// names a file for, or introduces as output, keeps that reading.
func (p *planner) runIn(i int, steps []Step) []Step {
	if len(steps) != 1 || steps[0].Kind != StepAmbiguous {
		return steps
	}
	b := p.blocks[i]
	prog, from := p.runners[steps[0].Lang], "smile.json's runners"
	if prog == "" {
		prog, from = codelang.Clients[steps[0].Lang], "its commands are its client's input: readers"
	}
	if prog == "" {
		return steps
	}
	s := steps[0]
	s.Kind, s.Stdin = StepRun, b.Text
	s.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: prog}
	if p.pageRunners[s.Lang] == prog {
		from = fmt.Sprintf("the page's front matter (line %d)", p.pageRunnersLine)
	}
	s.Why = fmt.Sprintf("%s type %s blocks into `%s`", from, codelang.Name(s.Lang), prog)
	return []Step{s}
}
