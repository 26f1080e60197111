package later

import "strings"

// Quoted is the latest write whose content holds every one of lines (each
// trimmed), false when none does: a block made of lines of a file the page
// wrote before quotes that file to explain it.
func Quoted(writes []Write, lines []string) (Write, bool) {
	for k := len(writes) - 1; k >= 0; k-- {
		have := map[string]bool{}
		for _, l := range strings.Split(writes[k].Content, "\n") {
			have[strings.TrimSpace(l)] = true
		}
		all := true
		for _, l := range lines {
			all = all && have[strings.TrimSpace(l)]
		}
		if all {
			return writes[k], true
		}
	}
	return Write{}, false
}
