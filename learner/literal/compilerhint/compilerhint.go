// Package compilerhint reads what a compiler says a program lacks. A whole
// program the page shows that does not compile is usually a fragment the
// page never meant to build; but when the compiler itself names the header
// the program forgot (g++'s "did you forget to '#include <iostream>'?"),
// the program is complete and wrong: the page's reader copies it and meets
// the same error.
package compilerhint

import "regexp"

// forgotten is the compiler's note naming the header a program uses
// without including it (GCC 8 and later, in either quote style).
var forgotten = regexp.MustCompile(`did you forget to [‘'"]#include (<[^>\s]+>)[’'"]\?|probably fixable by adding [‘'"]#include (<[^>\s]+>)[’'"]`)

// MissingInclude is the header the compiler says the program forgot, and
// the line of output that says so.
func MissingInclude(output string) (header, said string, ok bool) {
	loc := forgotten.FindStringSubmatchIndex(output)
	if loc == nil {
		return "", "", false
	}
	m := forgotten.FindStringSubmatch(output)
	start, end := loc[0], loc[1]
	for start > 0 && output[start-1] != '\n' {
		start--
	}
	for end < len(output) && output[end] != '\n' {
		end++
	}
	return m[1] + m[2], output[start:end], true
}
