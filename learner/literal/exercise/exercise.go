// Package exercise reads an exercise sheet the way the student who does it
// does: the sheet asks for a script, shows runs of the finished one
// (`./webserver.sh start` and what it prints), and gives the answer further
// down, often folded or under an "Answer" heading, as a script no sentence
// names. The student writes the script, from the answer, before running
// the examples, and checks that it prints what they show: a difference is
// the sheet's gap. Read in page order instead, every example fails for want
// of a file the page gives only later, which is no gap at all.
package exercise

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/step"
	"github.com/smile-loop/smile/spec/markdown"
)

// RuleAnswerFirst is that reading.
var RuleAnswerFirst = rule.Register(rule.Rule{ID: "exercise.answer-first", Scope: rule.ScopeSection,
	Doc: "a script the page runs (`./webserver.sh start`) before any step writes it, when a later block no sentence places is a script of its kind (its #! line), is that block: it is written before the first run, as the student who did the exercise has it, and the runs check it against the output they show"})

// AnswersFirst finds each script run before any step writes it whose answer
// a later unplaced block is, and writes the answer right before the first
// run (at that run's line) as well as where it stands. blocks are the
// page's, for the answer's text.
func AnswersFirst(steps []step.Step, blocks []markdown.Block) []step.Step {
	for i := 0; i < len(steps); i++ {
		file, ok := runScript(steps[i])
		if !ok || written(steps[:i], file) || written(steps[i:], file) {
			continue
		}
		k, text := answer(steps, blocks, i, file)
		if k < 0 {
			continue
		}
		ev := RuleAnswerFirst.At(steps[k].Line, "#!")
		answerAt := steps[k].Line
		steps[k].Kind, steps[k].File, steps[k].Content = step.Write, step.Destination{Path: file}, text
		steps[k].Why = fmt.Sprintf("the answer to the exercise whose runs (line %d) use %s: its script", steps[i].Line, file)
		steps[k].Evidence = append(steps[k].Evidence, ev)
		first := step.Step{Kind: step.Write, Line: steps[i].Line, EndLine: steps[i].Line, Lang: steps[k].Lang,
			File: step.Destination{Path: file}, Content: text, Evidence: []rule.Evidence{ev},
			Why: fmt.Sprintf("the answer at line %d, written before the exercise's first run of %s, as the student who did it has it", answerAt, file)}
		added := []step.Step{first}
		if byPath(steps[i:], file) {
			// The student who wrote the script makes it executable, to
			// start it by its path as the runs do.
			added = append(added, step.Step{Kind: step.Run, Line: steps[i].Line, EndLine: steps[i].Line, Lang: "bash",
				Command: step.Command{Line: steps[i].Line, EndLine: steps[i].Line, Text: "chmod +x " + file}, Evidence: []rule.Evidence{ev},
				Why: fmt.Sprintf("the runs start %s by its path: the student who wrote it makes it executable", file)})
		}
		steps = slices.Insert(steps, i, added...)
		i += len(added)
	}
	return steps
}

// byPath: a run starts file by its path (`./x.sh`), which needs it
// executable.
func byPath(steps []step.Step, file string) bool {
	return slices.ContainsFunc(steps, func(s step.Step) bool {
		calls := shell.Calls(s.Command.Text)
		return s.Kind == step.Run && len(calls) > 0 && len(calls[0]) > 0 && path.Clean(calls[0][0]) == file && strings.Contains(calls[0][0], "/")
	})
}

// runScript is the script file a run step runs (`./x.sh`, `bash x.sh`,
// `source x.sh`).
func runScript(s step.Step) (string, bool) {
	if s.Kind != step.Run {
		return "", false
	}
	if file, _, ok := shell.RunsScript(s.Command.Text); ok && path.Ext(file) != "" {
		return path.Clean(file), true
	}
	calls := shell.Calls(s.Command.Text)
	if len(calls) == 1 && len(calls[0]) >= 2 && (calls[0][0] == "source" || calls[0][0] == ".") && path.Ext(calls[0][1]) != "" {
		return path.Clean(strings.TrimPrefix(calls[0][1], "./")), true
	}
	return "", false
}

// written: a step writes file.
func written(steps []step.Step, file string) bool {
	return slices.ContainsFunc(steps, func(s step.Step) bool { return s.Kind == step.Write && path.Clean(s.File.Path) == file })
}

// answer is the index of the first unplaced block after step i that is a
// script of file's kind, with its text; -1 when there is none.
func answer(steps []step.Step, blocks []markdown.Block, i int, file string) (int, string) {
	for k := i + 1; k < len(steps); k++ {
		s := steps[k]
		if s.Kind != step.Skip && s.Kind != step.Ambiguous {
			continue
		}
		text := blockText(blocks, s.Line)
		if text == "" || !strings.HasPrefix(text, "#!") || !fits(strings.SplitN(text, "\n", 2)[0], file) {
			continue
		}
		return k, text
	}
	return -1, ""
}

// fits: a #! line runs a file of this kind (a shell for .sh, python for
// .py...).
func fits(shebang, file string) bool {
	prog := path.Base(strings.Fields(strings.TrimPrefix(shebang, "#!") + " x")[0])
	if prog == "env" {
		if f := strings.Fields(shebang); len(f) > 1 {
			prog = f[len(f)-1]
		}
	}
	switch path.Ext(file) {
	case ".sh", ".bash":
		return shell.IsShell(prog)
	case ".py":
		return strings.HasPrefix(prog, "python")
	case ".rb":
		return prog == "ruby"
	case ".pl":
		return prog == "perl"
	}
	return false
}

// blockText is the text of the code block starting at line, or of the one
// holding it.
func blockText(blocks []markdown.Block, line int) string {
	for _, b := range blocks {
		if b.Kind == markdown.BlockCode && line >= b.Line && line <= b.EndLine {
			return b.Text
		}
	}
	return ""
}
