package literal

import (
	"fmt"
	"path"

	"github.com/smile-loop/smile/spec"
)

// destinationSteps writes a block to the file the tutorial names for it, in
// the first place a reader would look: the info string, an HTML wrapper, a
// caption or sentence before it, a caption after it, a rule stated for the
// whole section.
func (p *planner) destinationSteps(base Step, b spec.Block, ctx blockContext) ([]Step, bool) {
	write := func(d Destination, why string) []Step {
		s := base
		s.Kind, s.File, s.Content, s.Why = StepWrite, d, b.Text, why
		return []Step{s}
	}
	shellish := shellLangs[base.Lang] || consoleLangs[base.Lang]
	captionFits := func(d Destination) bool { return !shellish || shellFile(d.Path) }
	if d, ok := infoDestination(b.Info); ok {
		return write(d, fmt.Sprintf("the info string names %s", d.Path)), true
	}
	if d, ok := htmlDestination(ctx.html); ok {
		return write(d, fmt.Sprintf("the HTML around it names %s", d.Path)), true
	}
	if d, ok := captionDestination(ctx.before); ok && captionFits(d) {
		return write(d, fmt.Sprintf("the caption before it names %s", d.Path)), true
	}
	if d, ok := proseDestination(ctx.before); ok {
		return write(d, fmt.Sprintf("the prose before it names %s", d.Path)), true
	}
	if d, ok := captionDestination(ctx.after); ok && captionFits(d) {
		return write(d, fmt.Sprintf("the caption after it names %s", d.Path)), true
	}
	if r := p.rule; r != nil && !shellish && !outputIntro.MatchString(ctx.before) {
		if why := template(b.Text); why != "" {
			return []Step{omitted(base, why)}, true
		}
		steps := write(r.dest, fmt.Sprintf("the rule at line %d puts each example of the section in %s", r.line, r.dest.Path))
		if r.command != "" {
			s := base
			s.Kind, s.Why = StepRun, fmt.Sprintf("the rule at line %d runs `%s` after each example", r.line, r.command)
			s.Command = Command{Line: b.Line, EndLine: b.EndLine, Text: r.command}
			steps = append(steps, s)
		}
		return steps, true
	}
	return nil, false
}

func shellFile(name string) bool {
	switch path.Ext(name) {
	case ".sh", ".bash", ".zsh", ".ksh":
		return true
	}
	return false
}
