package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/destination"
)

// Destination is a file a code block is to be written to.
type Destination = destination.Destination

var (
	sectionRuleRe = regexp.MustCompile(`(?i)\b(?:each|every|all(?:\s+(?:the|of\s+the))?|these|the\s+following)\s+(?:code\s+)?` +
		`(?:examples?|snippets?|listings?|blocks?|programs?|samples?)\b[^.!?]{0,80}?\b(?:file|as|to|into)\s+(?:(?:named|called)\s+)?` + destination.FileToken)
	ruleCommand = regexp.MustCompile("(?i)\\b(?:run|execute|type)\\s+(?:the\\s+command\\s+)?(`[^`]+`)")
)

// parseSectionRule reads a rule stated once for a section: "put each example
// in a file named `Makefile` and run `make`".
func parseSectionRule(paragraph string) (sectionRule, bool) {
	prose := strings.Join(strings.Fields(paragraph), " ")
	m := sectionRuleRe.FindStringSubmatchIndex(prose)
	if m == nil {
		return sectionRule{}, false
	}
	name := destination.CleanFileName(prose[m[2]:m[3]])
	if name == "" {
		return sectionRule{}, false
	}
	r := sectionRule{dest: Destination{Path: name}}
	if c := ruleCommand.FindStringSubmatch(prose[m[1]:]); c != nil {
		r.command = strings.Trim(c[1], "`")
	}
	return r, true
}
