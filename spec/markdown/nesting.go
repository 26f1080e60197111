package markdown

import "bytes"

// MaxNesting is the deepest nesting of lists and block quotes a line may
// open. Pages nest a handful of levels; goldmark's time grows with the square
// of the depth, so a page of one line holding 49,000 list markers (98 KB)
// took seconds to parse. Capped, any page up to the size limit parses in
// about a tenth of a second.
const MaxNesting = 64

// Nesting is the deepest nesting of list items and block quotes one line
// opens with its leading markers (`- - - x`, `> > x`, `1. - x`), and the
// first line (1-based) that reaches it. It reads each byte once.
func Nesting(source []byte) (depth, line int) {
	n := 0
	for len(source) > 0 {
		n++
		end := bytes.IndexByte(source, '\n')
		if end < 0 {
			end = len(source)
		}
		if d := lineNesting(source[:end]); d > depth {
			depth, line = d, n
		}
		source = source[min(end+1, len(source)):]
	}
	return depth, line
}

// lineNesting counts the container markers a line opens with.
func lineNesting(l []byte) int {
	d := 0
	for {
		l = bytes.TrimLeft(l, " \t")
		switch {
		case len(l) >= 1 && l[0] == '>':
			l = l[1:]
		case len(l) >= 2 && (l[0] == '-' || l[0] == '*' || l[0] == '+') && (l[1] == ' ' || l[1] == '\t'):
			l = l[2:]
		default:
			k := 0
			for k < len(l) && k < 9 && l[k] >= '0' && l[k] <= '9' {
				k++
			}
			if k == 0 || k+1 >= len(l) || (l[k] != '.' && l[k] != ')') || (l[k+1] != ' ' && l[k+1] != '\t') {
				return d
			}
			l = l[k+2:]
		}
		d++
	}
}
