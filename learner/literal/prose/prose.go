// Package prose splits the prose around a page's code blocks the way every
// reader of it does: into sentences, at a full stop, a question or an
// exclamation mark followed by a space.
package prose

import (
	"regexp"
	"strings"
)

// sentenceEnd is the end of a sentence inside a line of prose.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+`)

// Sentences splits a line of prose at sentence ends.
func Sentences(s string) []string { return sentenceEnd.Split(s, -1) }

// SentenceEnds gives the byte ranges of the sentence ends in text, in order.
func SentenceEnds(text string) [][]int { return sentenceEnd.FindAllStringIndex(text, -1) }

// noteLabel is the label of an admonition sentence ("**Note:** On Windows, ...").
var noteLabel = regexp.MustCompile(`(?i)^(?:\[!?\w+\]\s*)?(?:note|tip|info|important|warning|caution|hint)\s*:\s*`)

// shortcode is a site generator's tag in the prose: Hugo's {{% note %}},
// {{< tab >}}, Liquid's {% include x %}.
var shortcode = regexp.MustCompile(`\{\{[%<].*?[%>]\}\}|\{%.*?%\}`)

// Plain is prose without emphasis marks, shortcodes and an admonition
// label.
func Plain(prose string) string {
	prose = shortcode.ReplaceAllString(prose, "")
	t := strings.TrimSpace(strings.NewReplacer("**", "", "__", "", "*", "").Replace(prose))
	return strings.TrimSpace(noteLabel.ReplaceAllString(t, ""))
}

// FirstSentence is the first sentence of a paragraph: "and hit the tab key
// instead of enter." after a block says what the block was for.
func FirstSentence(prose string) string {
	prose = strings.Join(strings.Fields(prose), " ")
	if i := strings.IndexAny(prose, ".!?"); i >= 0 {
		return prose[:i+1]
	}
	return prose
}
