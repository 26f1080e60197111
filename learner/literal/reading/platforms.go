package reading

import (
	"fmt"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// Pages that serve readers on several systems scope a step to one of them
// in more ways than headings and tabs: a collapsed section titled for the
// system (<details><summary>Windows</summary>, GitBook's
// <!--sec data-title="macOS" ... --> ... <!--endsec-->), or a label that
// ends in a colon and leads into the block ("Install jq on Fedora:", "For
// RHEL-based distributions:"). Whatever the form, the scope is the fact: a
// block scoped to another system than the container's (Debian Linux) is
// that system's variant of the step, and the reader on Debian follows the
// Debian or the generic one.
var (
	ruleSectionPlatform = rule.Register(rule.Rule{ID: "platform.section", Scope: rule.ScopeSection,
		Doc: "a block inside a collapsed section titled for another system (Windows, macOS, Fedora) is that system's variant; the Debian reader skips it"})
	ruleLabelPlatform = rule.Register(rule.Rule{ID: "platform.label", Scope: rule.ScopeBefore,
		Doc: "a block led in by a label naming another system (\"Install it on Fedora:\") is that system's variant; the Debian reader skips it"})
)

// sectionAt is the title of the collapsed section the code block at line
// is in (markdown.Block.Section), "" when none.
func (p *planner) sectionAt(line int) string {
	for _, b := range p.blocks {
		if b.Line == line {
			return b.Section
		}
	}
	return ""
}

// sectionForOtherPlatform is the evidence that line is inside a collapsed
// section titled for another system, or nil.
func (p *planner) sectionForOtherPlatform(line int) (string, *rule.Evidence) {
	title := p.sectionAt(line)
	if title == "" || !platform.ForOther(title) {
		return "", nil
	}
	ev := ruleSectionPlatform.At(line, title)
	return fmt.Sprintf("inside the collapsed section %q, for another system", title), &ev
}

// itemForOtherPlatform is the evidence that the list item a block is
// nested in is labelled for another system ("- For RHEL-based
// distributions:" with the block indented under it), or nil.
func itemForOtherPlatform(item string, line int) (string, *rule.Evidence) {
	label := prose.Plain(item)
	scope := platform.OtherScope(label)
	if scope == "" {
		return "", nil
	}
	ev := ruleLabelPlatform.At(line, scope)
	return "in the list item for another system: " + textutil.Shorten(label, 80), &ev
}

// labelForOtherPlatform is the evidence that the label leading into a
// block (the prose's last sentence, ending in a colon) scopes it to
// another system, or nil.
func labelForOtherPlatform(before string, line int) (string, *rule.Evidence) {
	last := prose.Plain(leadin.LastSentence(before))
	scope := platform.OtherScope(last)
	if !strings.HasSuffix(strings.TrimSpace(last), ":") || scope == "" {
		return "", nil
	}
	ev := ruleLabelPlatform.At(line, scope)
	return "led in as the variant for another system: " + last, &ev
}
