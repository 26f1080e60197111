package markdown

import (
	"regexp"
	"strings"
)

// tab is the content tab a line belongs to.
type tab struct {
	label string
	group int
}

var (
	// MkDocs Material: `=== "Linux"` with its content indented by four
	// spaces; admonitions (`!!! note`, `??? tip`) indent the same way.
	mkdocsTab        = regexp.MustCompile(`^===\+?\s+"([^"]*)"`)
	mkdocsAdmonition = regexp.MustCompile(`^(?:!!!|\?\?\?\+?)\s+\w+`)
	// Liquid / Hugo shortcodes and Docusaurus MDX.
	tabOpen = regexp.MustCompile(`(?i)^\s*(?:\{%-?\s*tab\s+"?([^"%]*?)"?\s*-?%\}|\{\{<\s*tab\s+(?:name=)?"?([^">]*?)"?\s*>\}\}|` +
		`<TabItem\b[^>]*?(?:label\s*=\s*["']([^"']*)["']|value\s*=\s*["']([^"']*)["'])[^>]*>)`)
	tabClose   = regexp.MustCompile(`(?i)^\s*(?:\{%-?\s*endtab\s*-?%\}|\{\{<\s*/tab\s*>\}\}|</TabItem>)`)
	groupOpen  = regexp.MustCompile(`(?i)^\s*(?:\{%-?\s*tabs\b[^%]*%\}|\{\{<\s*tabs\b[^>]*>\}\}|<Tabs\b[^>]*>)`)
	groupClose = regexp.MustCompile(`(?i)^\s*(?:\{%-?\s*endtabs\s*-?%\}|\{\{<\s*/tabs\s*>\}\}|</Tabs>)`)
	// VitePress code groups.
	codeGroupOpen  = regexp.MustCompile(`^\s*:::\s*code-group\b`)
	codeGroupClose = regexp.MustCompile(`^\s*:::\s*$`)
	fenceTitle     = regexp.MustCompile("^\\s*(```+|~~~+)[^\\[]*\\[([^\\]]+)\\]")
	// labelAttr prefers a TabItem's label over its value.
	labelAttr = regexp.MustCompile(`(?i)\blabel\s*=\s*["']([^"']*)["']`)
)

// findTabs finds content tabs and returns, by 1-based line, the tab each
// line is in. MkDocs tab and admonition bodies are dedented so that the
// blocks inside parse as blocks, not as indented code; every line keeps its
// number.
func findTabs(source []byte) ([]byte, map[int]tab) {
	lines := strings.SplitAfter(string(source), "\n")
	tabs := map[int]tab{}
	group, lastEnd := 0, -10 // lastEnd: index of the last line of the previous tab
	explicit := false        // inside a <Tabs> / {% tabs %} group
	current := ""            // label of the open shortcode/MDX tab
	open := false
	newGroup := func(i int) {
		if !explicit && !onlyBlank(lines, lastEnd+1, i) {
			group++
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case mkdocsTab.MatchString(l), mkdocsAdmonition.MatchString(l):
			label, isTab := "", false
			if m := mkdocsTab.FindStringSubmatch(l); m != nil {
				label, isTab = m[1], true
				newGroup(i)
			}
			end := i
			for j := i + 1; j < len(lines); j++ {
				body := strings.TrimRight(lines[j], "\r\n")
				if strings.TrimSpace(body) != "" && !strings.HasPrefix(body, "    ") && !strings.HasPrefix(body, "\t") {
					break
				}
				lines[j] = dedent(lines[j])
				if strings.TrimSpace(body) != "" {
					end = j
				}
				if isTab {
					tabs[j+1] = tab{label, group}
				}
			}
			if isTab {
				tabs[i+1] = tab{label, group}
				lastEnd = end
			}
		case codeGroupOpen.MatchString(l):
			// VitePress: ::: code-group, then fences titled ```sh [npm]```,
			// each a tab of the group, up to the closing :::.
			group++
			i = codeGroupTabs(lines, i, group, tabs)
			lastEnd = i
		case groupOpen.MatchString(l):
			group++
			explicit = true
		case groupClose.MatchString(l):
			explicit, open = false, false
		case tabOpen.MatchString(l):
			m := tabOpen.FindStringSubmatch(l)
			current = strings.TrimSpace(m[1] + m[2] + m[3] + m[4])
			if a := labelAttr.FindStringSubmatch(l); a != nil {
				current = a[1]
			}
			newGroup(i)
			open = true
			tabs[i+1] = tab{current, group}
		case tabClose.MatchString(l):
			if open {
				tabs[i+1] = tab{current, group}
				lastEnd = i
			}
			open = false
		case open:
			tabs[i+1] = tab{current, group}
		}
	}
	return []byte(strings.Join(lines, "")), tabs
}

func onlyBlank(lines []string, from, to int) bool {
	if from < 0 {
		return false
	}
	for i := from; i < to && i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return false
		}
	}
	return true
}

// dedent removes one level (four spaces or a tab) of indentation.
func dedent(line string) string {
	if strings.HasPrefix(line, "\t") {
		return line[1:]
	}
	n := len(line) - len(strings.TrimLeft(line, " "))
	return line[min(n, 4):]
}

// codeGroupTabs marks the fences of a VitePress code group that opens at
// line i as tabs of group, and returns the index of its closing line.
func codeGroupTabs(lines []string, i, group int, tabs map[int]tab) int {
	label, fence := "", ""
	for j := i + 1; j < len(lines); j++ {
		l := strings.TrimRight(lines[j], "\r\n")
		switch {
		case fence == "" && codeGroupClose.MatchString(l):
			return j
		case fence == "":
			if m := fenceTitle.FindStringSubmatch(l); m != nil {
				label, fence = strings.TrimSpace(m[2]), m[1]
				tabs[j+1] = tab{label, group}
			}
		default:
			tabs[j+1] = tab{label, group}
			if strings.HasPrefix(strings.TrimSpace(l), fence) && strings.Trim(strings.TrimSpace(l), fence[:1]) == "" {
				fence = ""
			}
		}
	}
	return len(lines) - 1
}
