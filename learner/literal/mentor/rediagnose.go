package mentor

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/status"
)

// againstEarlierNotes weighs a fresh diagnosis against the workarounds
// earlier iterations gave for the same line. The same problem again, or the
// same fix again, means the workaround did not help: a blocker. A different
// error is a new problem: the fresh diagnosis stands, never a copy of the
// old fix.
func (m *mentor) againstEarlierNotes(f status.Finding, fresh advice) advice {
	fail := Classify(f.Command, f.ExitCode, f.Output, f.Category == status.CategoryTimeout)
	key := textutil.FirstNonEmpty(fail.Subject, fail.ErrorLine)
	var latest *status.MentorNote
	for i := range m.task.MentorNotes {
		n := &m.task.MentorNotes[i]
		if n.Line != f.Line || n.Resolution != status.ResolutionWorkaround {
			continue
		}
		sameFix := fresh.Resolution == status.ResolutionWorkaround && sameScript(fresh.Workaround, n.Workaround)
		sameProblem := (n.Category == "" || n.Category == f.Category) &&
			mentions(n.Question+"\n"+n.Answer+"\n"+n.Workaround, key)
		if sameFix || sameProblem {
			return m.didNotHelp(f, *n)
		}
		if latest == nil || n.Iteration >= latest.Iteration {
			latest = n
		}
	}
	if latest != nil {
		fresh.Explanation = fmt.Sprintf("This is a new problem: after the workaround from iteration %d (`%s`), line %d now fails differently. ",
			latest.Iteration, FirstLine(latest.Workaround), f.Line) + fresh.Explanation
	}
	return fresh
}

func (m *mentor) didNotHelp(f status.Finding, n status.MentorNote) advice {
	base := wire.MentorAdvice{Line: f.Line, Category: f.Category, Resolution: status.ResolutionUnresolvable}
	base.SuggestedFix = textutil.FirstNonEmpty(n.SuggestedFix, SuggestedFix(f.Category, f.Line, ""))
	return advice{MentorAdvice: base, Explanation: fmt.Sprintf(
		"The workaround from iteration %d (`%s`) did not help: the Student ran it before line %d and the step still fails the same way (%s). I have nothing else to suggest, so this is a blocker until the tutorial is fixed.",
		n.Iteration, FirstLine(n.Workaround), f.Line, f.Problem)}
}

var spaces = regexp.MustCompile(`\s+`)

func sameScript(a, b string) bool {
	return strings.TrimSpace(spaces.ReplaceAllString(a, " ")) == strings.TrimSpace(spaces.ReplaceAllString(b, " "))
}

// mentions says whether text names key as a word of its own: "jq" is in
// "install jq" but not in "python3-jq"; an error line must appear whole.
func mentions(text, key string) bool {
	if key == "" {
		return false
	}
	word := func(r byte) bool {
		return r == '-' || r == '_' || r == '.' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], key)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(key)
		if (start == 0 || !word(text[start-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = start + 1
	}
}
