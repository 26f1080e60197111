package literal

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/learner/literal/mentor"
	"github.com/smile-loop/smile/learner/literal/shell"

	"github.com/smile-loop/smile/learner/literal/reading"
)

// scriptError is a shell's error inside a script file, which names the
// script and the script's own line: dash's `./colours.sh: 2: Syntax error:
// "(" unexpected`, bash's `./run.sh: line 3: tar: command not found`.
var scriptError = regexp.MustCompile(`(?m)^(\.{0,2}/?[\w./-]+\.(?:sh|bash)|\./[\w.-]+): (?:line )?(\d+): (.+)$`)

// inWrittenFile is the page line an error in the output points at, when it
// is in a script the page wrote before line (the latest write of it): the
// fault is in the script's text there, not in the command that ran it. 0
// when the output names no such line.
func (s *student) inWrittenFile(output string, line int) (at int, file string) {
	m := scriptError.FindStringSubmatch(output)
	if m == nil {
		return 0, ""
	}
	n, err := strconv.Atoi(m[2])
	if err != nil || n < 1 {
		return 0, ""
	}
	for k := len(s.keep.steps) - 1; k >= 0; k-- {
		w := s.keep.steps[k]
		if w.Kind != reading.StepWrite || w.Line >= line || path.Base(w.File.Path) != path.Base(m[1]) {
			continue
		}
		// The block's first line is its fence; the file's line n is the
		// page's line n below it, within the block.
		if at := w.Line + n; at < w.EndLine {
			return at, w.File.Path
		}
		return 0, ""
	}
	return 0, ""
}

// shebangLine is the page line of the #! line of the script cmd runs, when
// the failure is that line's (classify): the fault is there, not in the
// command that ran it. 0 otherwise, or when the page did not write it.
func (s *student) shebangLine(cmd reading.Command, fail mentor.Failure) int {
	file, _, ok := shell.RunsScript(cmd.Text)
	if !ok || !strings.HasPrefix(fail.ErrorLine, "its #! line") {
		return 0
	}
	for k := len(s.keep.steps) - 1; k >= 0; k-- {
		w := s.keep.steps[k]
		if w.Kind == reading.StepWrite && w.Line < cmd.Line && path.Base(w.File.Path) == path.Base(file) {
			return w.Line + 1
		}
	}
	return 0
}
