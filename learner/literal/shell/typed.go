package shell

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/spec/markdown"
)

// A script block that writes a file from the keyboard (`cat > fruits.txt`
// on a line of its own, no heredoc, no input redirected) goes on with what
// the reader types into it: the lines after it, up to a `^D`, a blank line
// before a known program's command, or the end of the block, are the file's
// text, not commands. Split keeps them with the
// command as the heredoc a reader's typing amounts to, so that `apple` is
// written to fruits.txt rather than run.

// keyboardWriter is a command that writes what is typed to a file.
var keyboardWriter = regexp.MustCompile(`^\s*(?:sudo\s+)?(?:cat\s*>>?\s*[^\s<>|&;]+|tee\s+(?:-a\s+)?[^\s<>|&;-][^\s<>|&;]*)\s*$`)

// endOfTyping is how a page shows the Ctrl-D that ends the typing.
var endOfTyping = regexp.MustCompile(`(?i)^\s*(?:\^D|<?ctrl[-+ ]?d>?|\[ctrl[-+ ]?d\])\s*$`)

// typedEnd marks the end of the heredoc that stands for typed lines; no
// page line is it.
const typedEnd = "SMILE_TYPED_END"

// A page that has the reader make a file in vi writes the keystrokes in the
// block: `vi notes.txt`, then `i` (insert), the text, and Esc or `:wq`. The
// text is the file's, not commands; with nothing after the text the block's
// end is where the reader leaves vi.
var (
	viOpen    = regexp.MustCompile(`^\s*(?:sudo\s+)?(?:vi|vim|nvim)\s+([^\s<>|&;-][^\s<>|&;]*)\s*$`)
	insertKey = regexp.MustCompile(`^\s*[iaoIAO]\s*$`)
	leaveVi   = regexp.MustCompile(`(?i)^\s*(?:<?esc>?|\[esc\]|\^\[|:wq!?|:x!?|zz|:w)\s*$`)
)

// typedInput finds the first keyboard writer (or vi in insert mode) of
// lines that has lines typed after it: its index, the index just past the
// typed lines (and the ^D, Esc or :wq that ends them, if any), and the span
// that writes them. ok is false when there is none.
func typedInput(lines []markdown.CodeLine) (at, next int, span Span, ok bool) {
	for i, l := range lines {
		writer, from, ends := strings.TrimRight(l.Text, " \t"), i+1, endOfTyping
		if m := viOpen.FindStringSubmatch(l.Text); m != nil && i+1 < len(lines) && insertKey.MatchString(lines[i+1].Text) {
			writer, from, ends = "cat > "+m[1], i+2, leaveVi
		} else if !keyboardWriter.MatchString(l.Text) {
			continue
		}
		typed, end, j := typedFrom(lines, from, ends, writtenFile(writer))
		if len(typed) == 0 || strings.Contains(strings.Join(typed, "\n"), typedEnd) {
			continue
		}
		text := writer + " <<'" + typedEnd + "'\n" + strings.Join(typed, "\n") + "\n" + typedEnd
		return i, j, Span{Line: l.Line, EndLine: max(end, l.Line), Text: text}, true
	}
	return 0, 0, Span{}, false
}

// typedFrom reads the lines typed from index from on: up to a line ends
// matches (and any more such lines right after it: Esc, then :wq), a blank
// line before a known program's command, or the end. It returns the lines,
// the page line of the last one read (the end mark, or the last line typed),
// and the index just past them.
func typedFrom(lines []markdown.CodeLine, from int, ends *regexp.Regexp, file string) (typed []string, end, next int) {
	j := from
	for ; j < len(lines); j++ {
		if j > from && strings.TrimSpace(lines[j-1].Text) == "" && codelang.KnownProgram(CommandName(lines[j].Text)) {
			break // a blank line, then a command: the typing ended (Ctrl-D the page did not show)
		}
		if j > from && aboutFile(lines[j].Text, file) {
			break // `split -b5 notes.txt`: a command on the file is no line of it
		}
		if ends.MatchString(lines[j].Text) {
			for ; j < len(lines) && ends.MatchString(lines[j].Text); j++ {
				end = lines[j].Line
			}
			break
		}
		typed = append(typed, lines[j].Text)
		if strings.TrimSpace(lines[j].Text) != "" {
			end = lines[j].Line // the last line typed, not the blank lines after it
		}
	}
	for len(typed) > 0 && strings.TrimSpace(typed[len(typed)-1]) == "" {
		typed = typed[:len(typed)-1]
	}
	return typed, end, j
}

// writtenFile is the file a keyboard writer writes (`cat>notes.txt`, `tee
// -a log`).
func writtenFile(writer string) string {
	f := strings.Fields(strings.NewReplacer(">>", " ", ">", " ").Replace(writer))
	if len(f) == 0 {
		return ""
	}
	return f[len(f)-1]
}

// aboutFile: the line is a known program's command (or cd) that names the
// file: the reader has stopped typing into the file and works on it.
func aboutFile(line, file string) bool {
	name := CommandName(line)
	if file == "" || name == "" || !codelang.KnownProgram(name) && name != "cd" {
		return false
	}
	for _, w := range strings.Fields(line)[1:] {
		if strings.Trim(w, `'"`) == file {
			return true
		}
	}
	return false
}
