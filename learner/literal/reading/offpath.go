package reading

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"

	"github.com/smile-loop/smile/internal/textutil"
)

// The container is Linux: blocks for other platforms, alternatives to the
// step just taken, demonstrations and syntax templates are not the path.
// They are omitted and listed, never run and never reported.
var (
	windowsLangs = set("cmd", "powershell", "pwsh", "ps1", "ps", "bat", "batch", "dos", "doscon", "winbatch", "posh")

	altIntro = regexp.MustCompile(`(?i)^(?:alternatively|or,?\s+if\s+you\s+prefer|or\s+you\s+(?:can|could)|` +
		`another\s+(?:way|option)|instead,?\s+you\s+(?:can|could)|instead\s+of\s+\w+ing\b|if\s+you\s+prefer|` +
		// "Option 2: ...", "Method B.": the first option is the path, later ones alternatives.
		`(?:option|method|approach|alternative)\s+(?:[2-9]|[b-h]|two|three|four)|` +
		`if\s+you(?:'re|\s+are)\s+(?:running|using)\b[^.]*\b(?:docker|podman|a\s+container))\b`)
	// readersOwn addresses readers with a setup of their own (a
	// virtualenv they manage, their own sources to build): what follows is
	// for that setup, not a step of the page.
	readersOwn = regexp.MustCompile(`(?i)\bif\s+(?:you(?:'re|\s+are)?\s+)?(?:manag(?:e|es|ing)|maintain(?:s|ing)?|us(?:e|es|ing)|ha(?:ve|s|ving)|run(?:s|ning)?|work(?:s|ing)?\s+with)\s+your\s+own\b|` +
		// "All you have to do is put your C/C++ files in the src/ folder."
		"\\b(?:put|place|drop|keep)\\s+your\\s+(?:own\\s+)?(?:[\\w/+#.-]+\\s+){0,2}(?:files|sources|source\\s+files|code)\\s+(?:in|into|under)\\b")
	tabDemo     = regexp.MustCompile(`(?i)tab[- ]complet|\b(?:press|hit)(?:ing)?\s+(?:the\s+)?<?tab>?\b|\bauto-?complet`)
	tabKeyShown = regexp.MustCompile(`<TAB>|<Tab>|\[TAB\]|\[Tab\]|⇥`)
)

// offPath says why block i is not on the Linux reader's path, or "", with
// the evidence of the rule that said so when it is a named rule.
func (p *planner) offPath(i int, ctx blockContext, lang string) (string, []rule.Evidence) {
	b := p.blocks[i]
	if why, ev := bookInclude(b.Text, b.Line); ev != nil {
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
	}
	last := prose.Plain(leadin.LastSentence(ctx.before))
	for _, s := range []string{prose.Plain(ctx.before), last} {
		if platform.SentenceForOther(s) {
			return "the prose before it is for another platform: " + textutil.Shorten(s, 80)
		}
		if altIntro.MatchString(s) {
			return "an alternative, not the path: " + textutil.Shorten(s, 80)
		}
	}
	if m := readersOwn.FindString(prose.Plain(ctx.before)); m != "" {
		return "for the reader's own setup, not a step of the page: " + textutil.Shorten(strings.TrimSpace(m), 80)
	}
	if tabDemo.MatchString(last) || tabKeyShown.MatchString(b.Text) || tabDemo.MatchString(prose.FirstSentence(ctx.after)) {
		return "a tab-completion demonstration"
	}
	return ""
}
