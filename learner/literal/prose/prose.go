// Package prose splits the prose around a page's code blocks the way every
// reader of it does: into sentences, at a full stop, a question or an
// exclamation mark followed by a space.
package prose

import "regexp"

// sentenceEnd is the end of a sentence inside a line of prose.
var sentenceEnd = regexp.MustCompile(`[.!?]\s+`)

// Sentences splits a line of prose at sentence ends.
func Sentences(s string) []string { return sentenceEnd.Split(s, -1) }

// SentenceEnds gives the byte ranges of the sentence ends in text, in order.
func SentenceEnds(text string) [][]int { return sentenceEnd.FindAllStringIndex(text, -1) }
