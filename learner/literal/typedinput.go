package literal

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/typedinput"
	"github.com/smile-loop/smile/spec/markdown"
	"github.com/smile-loop/smile/status"
)

// typedInputNear is how many lines around a step the page may say how to
// end typed input (Ctrl-D).
const typedInputNear = 6

// typedInputFinding reports a step that waits for text typed at the
// terminal (typedinput.Waits) when the page gives none and never says how
// to end it: the Student's run ends at once with nothing typed, which
// would hide that a reader's terminal seems to hang.
func (s *student) typedInputFinding(st reading.Step) {
	cmd := st.Command
	prog, ok := typedinput.Waits(cmd.Text)
	if !ok || st.Stdin != "" || s.textFollows(cmd.EndLine) {
		return
	}
	var around []string
	for l := max(1, cmd.Line-typedInputNear); l <= cmd.EndLine+typedInputNear; l++ {
		around = append(around, s.tut.LineText(l))
	}
	if typedinput.Told(strings.Join(around, "\n")) {
		return
	}
	f := s.finding(status.CategoryAmbiguousInstruction, cmd.Line, fmt.Sprintf(
		"`%s` waits for text typed at the terminal until the end of input, but the page never says what to type or how to end it (Ctrl-D): a reader's terminal seems to hang", strings.TrimSpace(cmd.Text)), cmd.Text)
	f.SuggestedFix = fmt.Sprintf("Say what to type after line %d and to end it with Ctrl-D on a line of its own, or give the text with a here-document (`%s << 'EOF'`).", cmd.Line, prog)
	_ = s.record(f, false, "", "")
}

// textFollows: the page's next code block after line, within a sentence or
// two of it, is not a shell block (plain text, a config): the text to type,
// which the page does give. A text block further on is another step's.
func (s *student) textFollows(line int) bool {
	for _, b := range s.tut.Blocks {
		if b.Kind == markdown.BlockCode && b.Line > line {
			return b.Line <= line+typedInputNear && !codelang.IsShellish(b.Lang)
		}
	}
	return false
}
