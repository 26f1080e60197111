package reading

import (
	"github.com/smile-loop/smile/learner/literal/later"
)

// placeUsedLater writes each unplaced block that a later Makefile names as
// a prerequisite of its language, or that the paragraph after it names and
// a later command uses (later.NamedAfter), and no step writes, to that file.
func (p *planner) placeUsedLater(steps []Step) {
	page := later.Page{Blocks: p.blocks, Kind: WritesKind, Writes: writesOf(steps), Runs: runsOf(steps)}
	sources := append(later.Sources(page.Writes, unplacedOf(steps), WritesKind), later.NamedAfter(page, unplacedOf(steps))...)
	for _, src := range append(sources, later.Wrapped(page, textOf(steps))...) {
		for k := range steps {
			if s := &steps[k]; (s.Kind == StepAmbiguous || s.Kind == StepSkip && src.Rule.ID == later.RuleWrapped.ID) && s.Line == src.Line {
				if s.Content == "" {
					s.Content = p.blockText(s.Line)
				}
				s.Kind, s.File = StepWrite, Destination{Path: src.File}
				s.Why = src.Why(s.Lang)
				s.Evidence = append(s.Evidence, src.Rule.At(src.User, src.File))
			}
		}
	}
}

// writesOf lists the files steps write, with their text.
func writesOf(steps []Step) []later.Write {
	var out []later.Write
	for _, s := range steps {
		if s.Kind == StepWrite {
			out = append(out, later.Write{Line: s.Line, Path: s.File.Path, Content: s.Content})
		}
	}
	return out
}

// textOf lists the untagged blocks read as display text.
func textOf(steps []Step) []later.Unplaced {
	var out []later.Unplaced
	for _, s := range steps {
		if s.Kind == StepSkip && s.Lang == "" && s.Command.Text == "" {
			out = append(out, later.Unplaced{Line: s.Line, Content: s.Content})
		}
	}
	return out
}

// unplacedOf lists the blocks steps could not place, with their code.
func unplacedOf(steps []Step) []later.Unplaced {
	var out []later.Unplaced
	for _, s := range steps {
		if s.Kind == StepAmbiguous {
			out = append(out, later.Unplaced{Line: s.Line, Lang: s.Lang, Content: s.Content})
		}
	}
	return out
}
