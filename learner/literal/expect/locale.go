package expect

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// A page written in Russian, Japanese or Spanish shows its programs'
// messages as its author's system printed them, in the author's language
// ("script.sh: строка 2: PI: переменная только для чтения"); the container
// prints the same message in English ("script.sh: line 2: PI: readonly
// variable"). Such a line is a diagnostic's fields joined by ": ": the
// program, the place, the subject, the message. The fields the author's
// language leaves alone (the file, the variable) must be the same, and
// the numbers in the translated ones (the line) too; the translated words
// are the locale's, not the page's claim.

// digits are the numbers of a field.
var digits = regexp.MustCompile(`\d+`)

// sameInAnotherLanguage reports whether expected, a diagnostic whose words
// are in another language than English, is actual's message in that
// language.
func sameInAnotherLanguage(expected, actual string) bool {
	exp, act := strings.Split(expected, ": "), strings.Split(actual, ": ")
	if len(exp) < 2 || len(exp) != len(act) {
		return false
	}
	if len(exp) == 2 && (!slices.Equal(quotedNames(exp[1]), quotedNames(act[1])) || !anchored(exp[1], act[1])) {
		// Only the program and its message: what the translation leaves as
		// written (the names it quotes, `***`, a file's name) is all that
		// tells one message from another, and there must be some.
		return false
	}
	same, translated := 0, 0
	for i := range exp {
		e, a := strings.TrimSpace(exp[i]), strings.TrimSpace(act[i])
		switch {
		case foreignWords(e) && !foreignWords(a):
			if !slices.Equal(digits.FindAllString(e, -1), digits.FindAllString(a, -1)) {
				return false
			}
			translated++
		case e == a:
			same++
		default:
			return false
		}
	}
	return same >= 1 && translated >= 1
}

// foreignWords: the text holds letters outside the Latin script, or Latin
// letters with marks English does not use.
func foreignWords(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) && r > unicode.MaxASCII {
			return true
		}
	}
	return false
}

// quoted is a name a message quotes: 'x', `x', "x", ‘x’, «x», 「x」.
var quoted = regexp.MustCompile("[`'\"‘“«「]([^`'\"’”»」\\s]+)[`'\"’”»」]")

// quotedNames are the names a message quotes, sorted.
func quotedNames(s string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	slices.Sort(out)
	return out
}

// anchored: the translated message keeps some words as written (ASCII:
// `***`, a name), and the actual message has each of them.
func anchored(translated, actual string) bool {
	kept := asciiWords(translated)
	have := asciiWords(actual)
	for _, w := range kept {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return len(kept) > 0
}

// asciiWords are the words of s written in ASCII alone, lower-cased, with
// the quotes and punctuation around them stripped (a word of punctuation
// alone, `***`, stays).
func asciiWords(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		if foreignWords(f) {
			continue
		}
		if t := strings.Trim(f, ".,;:!?()'\"`‘’“”"); t != "" {
			f = t
		}
		out = append(out, strings.ToLower(f))
	}
	return out
}
