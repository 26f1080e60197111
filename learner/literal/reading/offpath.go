package reading

import (
	"fmt"

	"github.com/smile-loop/smile/learner/literal/aside"
	"github.com/smile-loop/smile/learner/literal/book"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/offpath"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/transcript"

	"github.com/smile-loop/smile/internal/textutil"
)

// The container is Linux: blocks for other platforms, alternatives to the
// step just taken, demonstrations and syntax templates are not the path.
// They are omitted and listed, never run and never reported.
var (
	windowsLangs = set("cmd", "powershell", "pwsh", "ps1", "ps", "bat", "batch", "dos", "doscon", "winbatch", "posh")
)

// offPath says why block i is not on the Linux reader's path, or "", with
// the evidence of the rule that said so when it is a named rule.
func (p *planner) offPath(i int, ctx blockContext, lang string) (string, []rule.Evidence) {
	b := p.blocks[i]
	if why, ev := book.IncludeReason(b.Text, b.Line); ev != nil {
		return why, ev
	}
	if why, ev := p.sectionForOtherPlatform(b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	if why, ev := itemForOtherPlatform(b.Item, b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	if why, ev := labelForOtherPlatform(ctx.before, b.Line); ev != nil {
		return why, []rule.Evidence{*ev}
	}
	return p.offPathWhy(i, ctx, lang), nil
}

// offPathWhy is offPath's older half, whose reasons carry no rule yet.
func (p *planner) offPathWhy(i int, ctx blockContext, lang string) string {
	b := p.blocks[i]
	if windowsLangs[lang] {
		return fmt.Sprintf("a Windows %s block", lang)
	}
	if why := placeholder.Explained(b.Text, len(b.Code), ctx.before, ctx.after); why != "" {
		return why
	}
	if class, ok := p.asides[b.Line]; ok {
		return fmt.Sprintf("inside a %q section (an exercise or an aside), not the lesson's path", class)
	}
	exercise := len(p.headings) > 0 && aside.ExerciseHeading(p.headings[len(p.headings)-1].Text)
	if why := offpath.ExerciseTarget(exercise, len(b.Code) > 0 && transcript.HasShellPrompt(b.Code[0].Text), prose.Plain(ctx.before)); why != "" {
		return why
	}
	if b.TabGroup > 0 && p.tabs[b.TabGroup] != b.Tab {
		if chosen := p.tabs[b.TabGroup]; chosen != "" {
			return fmt.Sprintf("the %q tab; the Student follows the %q tab of the same group", b.Tab, chosen)
		}
		return fmt.Sprintf("the %q tab, for another platform", b.Tab)
	}
	for _, h := range p.headings {
		if platform.ForOther(h.Text) {
			return fmt.Sprintf("under the heading %q, for another platform", h.Text)
		}
		if offpath.LaterVariant(h.Text) {
			return fmt.Sprintf("an alternative, not the path: under the heading %q, a later variant of the step", h.Text)
		}
	}
	last := prose.Plain(leadin.LastSentence(ctx.before))
	for _, s := range []string{prose.Plain(ctx.before), last} {
		if platform.SentenceForOther(s) {
			return "the prose before it is for another platform: " + textutil.Shorten(s, 80)
		}
		if offpath.Alternative(s) {
			return "an alternative, not the path: " + textutil.Shorten(s, 80)
		}
	}
	if m := offpath.ReadersOwn(prose.Plain(ctx.before)); m != "" {
		return "for the reader's own setup, not a step of the page: " + textutil.Shorten(m, 80)
	}
	if offpath.TabDemo(last, prose.FirstSentence(ctx.after), b.Text) {
		return "a tab-completion demonstration"
	}
	return ""
}
