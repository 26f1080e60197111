package markdown

import (
	"regexp"
	"strings"
)

// Pages fold a step for one reader away in a collapsed section: a <details>
// with its <summary>, or GitBook's <!--sec data-title="macOS" ... --> up to
// <!--endsec-->. The section's title says what the blocks inside are for.
var (
	detailsOpen    = regexp.MustCompile(`(?i)^\s*(?:>\s*)*<details\b`)
	detailsEnd     = regexp.MustCompile(`(?i)</details\s*>`)
	summaryTitle   = regexp.MustCompile(`(?is)<summary\b[^>]*>(.*?)</summary>`)
	gitbookSection = regexp.MustCompile(`(?is)^\s*<!--\s*sec\b.*?\bdata-title\s*=\s*"([^"]*)"`)
	gitbookEnd     = regexp.MustCompile(`(?i)<!--\s*endsec\s*-->`)
	htmlTag        = regexp.MustCompile(`<[^>]*>`)
)

// sectionTitles maps each 1-based line inside a collapsed section to the
// section's title, without its markup.
func sectionTitles(lines []string) map[int]string {
	out := map[int]string{}
	for i := 0; i < len(lines); i++ {
		head := strings.Join(lines[i:min(len(lines), i+3)], "\n")
		var title string
		var end func(string) bool
		switch {
		case detailsOpen.MatchString(lines[i]):
			m := summaryTitle.FindStringSubmatch(head)
			if m == nil {
				continue
			}
			title, end = m[1], detailsEnd.MatchString
		case gitbookSection.MatchString(head) && strings.HasPrefix(strings.TrimSpace(lines[i]), "<!--"):
			title, end = gitbookSection.FindStringSubmatch(head)[1], gitbookEnd.MatchString
		default:
			continue
		}
		title = strings.TrimSpace(htmlTag.ReplaceAllString(title, ""))
		j := i + 1
		for ; j < len(lines) && !end(lines[j]); j++ {
			out[j+1] = title
		}
		i = j
	}
	return out
}
