package destination

import (
	"regexp"
	"strings"
)

// SectionRule is a rule a page states once for the blocks of a section:
// "put each example in a file named `Makefile` and run `make`". Command is
// "" when it names none.
type SectionRule struct {
	Dest    Destination
	Command string
}

var (
	sectionRuleRe = regexp.MustCompile(`(?i)\b(?:each|every|all(?:\s+(?:the|of\s+the))?|these|the\s+following)\s+(?:code\s+)?` +
		`(?:examples?|snippets?|listings?|blocks?|programs?|samples?)\b[^.!?]{0,80}?\b(?:file|as|to|into)\s+(?:(?:named|called)\s+)?` + FileToken)
	ruleCommand = regexp.MustCompile("(?i)\\b(?:run|execute|type)\\s+(?:the\\s+command\\s+)?(`[^`]+`)")
)

// ParseSectionRule reads the rule a paragraph states for a section's
// blocks, false when it states none.
func ParseSectionRule(paragraph string) (SectionRule, bool) {
	prose := strings.Join(strings.Fields(paragraph), " ")
	m := sectionRuleRe.FindStringSubmatchIndex(prose)
	if m == nil {
		return SectionRule{}, false
	}
	name := CleanFileName(prose[m[2]:m[3]])
	if name == "" {
		return SectionRule{}, false
	}
	r := SectionRule{Dest: Destination{Path: name}}
	if c := ruleCommand.FindStringSubmatch(prose[m[1]:]); c != nil {
		r.Command = strings.Trim(c[1], "`")
	}
	return r, true
}
