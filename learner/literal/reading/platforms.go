package reading

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
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

	// gitbookSection opens a GitBook collapsible section; its title may
	// sit on the line after.
	gitbookSection = regexp.MustCompile(`(?is)^\s*<!--\s*sec\b.*?\bdata-title\s*=\s*"([^"]*)"`)
	gitbookEnd     = regexp.MustCompile(`(?i)<!--\s*endsec\s*-->`)
	// onPlatform is a platform named as a scope: "on Fedora", "for macOS
	// users", "with Homebrew", "under Windows".
	onPlatform = regexp.MustCompile(`(?i)\b(?:on|for|under|in|with|using|via|from)\s+(?:a\s+|the\s+|your\s+)?(?:[\w-]+\s+)?` + anyPlatform + `\b|` +
		`\b(?:amazon|oracle|kali|rocky|alma)\s+linux\b|\b(?:fedora|centos|rhel|arch|alpine|opensuse|suse|macos|windows)\b`)
	// distroLinux is a distribution's name that ends in "Linux" (Arch
	// Linux, Amazon Linux): it names that distribution, not Linux at large.
	distroLinux = regexp.MustCompile(`(?i)\b(?:amazon|arch|alpine|rocky|alma|oracle|kali|void|gentoo|red\s?hat\s+enterprise)\s+linux\b`)
)

// platformSectionLines maps each line inside a collapsed section (details
// or GitBook sec) to the section's title.
func platformSectionLines(lines []string) map[int]string {
	out := map[int]string{}
	for i := 0; i < len(lines); i++ {
		head := strings.Join(lines[i:min(len(lines), i+3)], "\n")
		var title string
		var end func(string) bool
		switch {
		case detailsOpen.MatchString(lines[i]):
			m := summary.FindStringSubmatch(head)
			if m == nil {
				continue
			}
			title, end = m[1], detailsEnd.MatchString
		case gitbookSection.MatchString(head) && strings.HasPrefix(strings.TrimSpace(lines[i]), "<!--"):
			title, end = gitbookSection.FindStringSubmatch(head)[1], gitbookEnd.MatchString
		default:
			continue
		}
		j := i + 1
		for ; j < len(lines) && !end(lines[j]); j++ {
			out[j+1] = strings.TrimSpace(stripTags(title))
		}
		i = j
	}
	return out
}

var htmlTag = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string { return htmlTag.ReplaceAllString(s, "") }

// sectionForOtherPlatform is the evidence that line is inside a collapsed
// section titled for another system, or nil.
func (p *planner) sectionForOtherPlatform(line int) (string, *rule.Evidence) {
	title, ok := p.platformSections[line]
	if !ok || !forOtherPlatform(title) {
		return "", nil
	}
	ev := ruleSectionPlatform.At(line, title)
	return fmt.Sprintf("inside the collapsed section %q, for another system", title), &ev
}

// itemForOtherPlatform is the evidence that the list item a block is
// nested in is labelled for another system ("- For RHEL-based
// distributions:" with the block indented under it), or nil.
func itemForOtherPlatform(item string, line int) (string, *rule.Evidence) {
	label := plain(item)
	if label == "" || !isLabel(label) {
		return "", nil
	}
	scope := scopingClause(label)
	if scope == "" || !forOtherPlatform(label) {
		return "", nil
	}
	ev := ruleLabelPlatform.At(line, strings.TrimSpace(scope))
	return "in the list item for another system: " + textutil.Shorten(label, 80), &ev
}

// isLabel: a short phrase, or a sentence that ends in a colon to lead into
// what follows.
func isLabel(s string) bool {
	n := len(strings.Fields(s))
	return n <= 8 || (n <= 16 && strings.HasSuffix(strings.TrimSpace(s), ":"))
}

// scopeOpening: a clause that opens with the scope ("If you use Fedora",
// "On macOS").
var (
	scopeOpening = regexp.MustCompile(`(?i)^(?:if|on|for|under|in|with|using|when)\b`)
	clauseBreak  = regexp.MustCompile(`[,;]`)
)

// scopingClause is the platform phrase of a label when it scopes the
// label's action: named in its last clause ("Install jq on Fedora:") or in
// an opening clause that sets the scope ("On Fedora, run:"); not a remark in
// passing ("This also works on macOS; now format the script:").
func scopingClause(label string) string {
	clauses := clauseBreak.Split(label, -1)
	if m := onPlatform.FindString(clauses[len(clauses)-1]); m != "" {
		return m
	}
	if first := strings.TrimSpace(clauses[0]); scopeOpening.MatchString(first) {
		return onPlatform.FindString(first)
	}
	return ""
}

// labelForOtherPlatform is the evidence that the label leading into a
// block (the prose's last sentence, ending in a colon) scopes it to
// another system, or nil.
func labelForOtherPlatform(before string, line int) (string, *rule.Evidence) {
	last := plain(lastSentence(before))
	if !strings.HasSuffix(strings.TrimSpace(last), ":") || !isLabel(last) {
		return "", nil
	}
	scope := scopingClause(last)
	if scope == "" || !forOtherPlatform(last) {
		return "", nil
	}
	ev := ruleLabelPlatform.At(line, strings.TrimSpace(scope))
	return "led in as the variant for another system: " + last, &ev
}
