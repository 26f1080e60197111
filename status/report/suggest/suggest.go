// Package suggest says how to fix a gap: as a change of its own tutorial
// line (the GitHub suggestion block on that line and the SARIF fix that
// replaces it), and as the recommendation it calls for (FixFor: its kind and
// what it names, which the report groups).
package suggest

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/status/report/mdtext"

	"github.com/smile-loop/smile/status"

	"github.com/smile-loop/smile/spec"
)

// Suggestion is a gap's fix written as a change to the gap's line: what a
// GitHub suggestion block on that line proposes, and what a SARIF fix
// replaces.
type Suggestion struct {
	// Line is the tutorial line the change replaces.
	Line int
	// Original is that line as it is.
	Original string
	// Lines replace it: the inserted lines followed by the original line, or
	// the corrected line.
	Lines []string
	// Description says what the change does, in one sentence.
	Description string
}

// Text is the replacement, one line after another.
func (s Suggestion) Text() string { return strings.Join(s.Lines, "\n") }

// For derives a suggested change from a gap, or false when its fix
// is not a change of its own line (a prerequisites section, a question to
// answer, a step to move). line is the tutorial's text of the gap's line, ""
// when unknown (the gap's quote stands in for it); inCode says whether that
// line is inside a fenced code block, nil when unknown.
//
// Three fixes become suggestions: a command to run before the line ("Add
// `chmod +x count.sh` before line 30.", "Install jq before this step:" and a
// fenced block), and a wrong name ("Line 12 refers to `conifg.yaml`, but the
// tutorial created `config.yaml`", "Replace `a` with `b`").
func For(g status.Gap, line string, inCode *bool) (Suggestion, bool) {
	if g.Category == status.CategoryEnvironment {
		return Suggestion{}, false // the run's settings change, not the page
	}
	n := g.Location.LineNumber
	quote := strings.TrimSpace(FirstCommandLine(g.Location.Quote))
	if line == "" {
		// Without the tutorial's text, only a one-line quote can stand for
		// the line.
		if strings.ContainsAny(strings.TrimSpace(g.Location.Quote), "\r\n") {
			return Suggestion{}, false
		}
		line = quote
	}
	if n <= 0 || strings.TrimSpace(line) == "" || strings.ContainsAny(line, "\r\n") {
		return Suggestion{}, false
	}
	// A quote the line does not hold means the tutorial changed since the
	// run (or the quote is not the line): do not guess.
	if quote != "" && !strings.Contains(line, quote) {
		return Suggestion{}, false
	}
	prose, blocks := mdtext.SplitFences(g.SuggestedFix)
	if s, ok := replacement(n, line, prose); ok {
		return s, true
	}
	// A line inserted above must land in the same code block: the gap's line
	// must be a command in one (known from the tutorial, else from the gap
	// having a command that failed).
	if (inCode != nil && !*inCode) || (inCode == nil && strings.TrimSpace(g.Command) == "") {
		return Suggestion{}, false
	}
	insert, ok := insertion(g, n, prose, blocks)
	if !ok {
		return Suggestion{}, false
	}
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	prompt := ""
	if rest := strings.TrimLeft(line, " \t"); strings.HasPrefix(rest, "$ ") {
		prompt = "$ "
	}
	s := Suggestion{Line: n, Original: line}
	for _, l := range insert {
		if strings.TrimSpace(l) == strings.TrimSpace(line) {
			return Suggestion{}, false
		}
		s.Lines = append(s.Lines, indent+prompt+l)
	}
	s.Lines = append(s.Lines, line)
	what := "`" + insert[0] + "`"
	if len(insert) > 1 {
		what = strconv.Itoa(len(insert)) + " lines"
	}
	s.Description = "Insert " + what + " above line " + strconv.Itoa(n) + "."
	return s, true
}

var (
	// "before line 12", "before it", "before running it", "first".
	beforeWords = regexp.MustCompile(`(?i)\b(before|first)\b`)
	beforeLine  = regexp.MustCompile(`(?i)\bbefore line (\d+)`)
	// "Add `cmd`", "run `cmd`", "insert `cmd`": the command right after the verb.
	addCommand = regexp.MustCompile("(?i)\\b(?:add|run|insert)\\s+(`+)([^`]+?)`+")
	codeSpan   = regexp.MustCompile("(`+)([^`]+?)`+")
	// Text a reader must fill in: "export API_URL=...", "<your-key>".
	placeholder = regexp.MustCompile(`\.\.\.|…|<[A-Za-z][A-Za-z0-9 _-]*>|\bYOUR[_-]`)
	// Wrong names, as the Mentor and people write them.
	renames = []*regexp.Regexp{
		regexp.MustCompile("(?i)refers to `([^`]+)`, but the tutorial (?:created|creates|uses|names|wrote) `([^`]+)`"),
		regexp.MustCompile("(?i)\\b(?:replace|change|rename) `([^`]+)` (?:with|to|by) `([^`]+)`"),
		regexp.MustCompile("(?i)\\buse `([^`]+)` instead of `([^`]+)`"),
	}
	// "Replace line 12 with `cmd`", "Change this line to `cmd`".
	wholeLine = regexp.MustCompile("(?i)\\b(?:replace|change) (?:line (\\d+)|this line|the line) (?:with|to) `([^`]+)`")
	shellLang = map[string]bool{"": true, "sh": true, "bash": true, "shell": true, "zsh": true, "console": true, "shell-session": true, "terminal": true}
)

// insertion is the command(s) a fix says to run before the gap's line.
func insertion(g status.Gap, n int, prose string, blocks []mdtext.CodeBlock) ([]string, bool) {
	if !beforeWords.MatchString(prose) {
		return nil, false
	}
	if m := beforeLine.FindStringSubmatch(prose); m != nil && m[1] != strconv.Itoa(n) {
		return nil, false // the fix is about another line
	}
	var lines []string
	if m := addCommand.FindStringSubmatch(prose); m != nil {
		lines = []string{strings.TrimSpace(m[2])}
	} else if g.Category == status.CategoryPermissionDenied {
		for _, m := range codeSpan.FindAllStringSubmatch(prose, -1) {
			if c := strings.TrimSpace(m[2]); strings.HasPrefix(c, "chmod +x ") {
				lines = []string{c}
				break
			}
		}
	}
	if lines == nil && len(blocks) == 1 && shellLang[strings.ToLower(mdtext.InfoString(blocks[0].Lang))] {
		for _, l := range strings.Split(strings.TrimSpace(blocks[0].Body), "\n") {
			l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "$ "))
			if l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
	}
	if len(lines) == 0 {
		return nil, false
	}
	for _, l := range lines {
		if placeholder.MatchString(l) || strings.TrimSpace(l) == "" {
			return nil, false
		}
	}
	return lines, true
}

// replacement is the gap's line with a wrong name corrected, or replaced as
// the fix says.
func replacement(n int, line, prose string) (Suggestion, bool) {
	if m := wholeLine.FindStringSubmatch(prose); m != nil && (m[1] == "" || m[1] == strconv.Itoa(n)) {
		to := strings.TrimSpace(m[2])
		if to == "" || placeholder.MatchString(to) || to == strings.TrimSpace(line) {
			return Suggestion{}, false
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		return Suggestion{Line: n, Original: line, Lines: []string{indent + to},
			Description: "Replace line " + strconv.Itoa(n) + " with `" + to + "`."}, true
	}
	for i, re := range renames {
		m := re.FindStringSubmatch(prose)
		if m == nil {
			continue
		}
		from, to := m[1], m[2]
		if i == 2 { // "use NEW instead of OLD"
			from, to = to, from
		}
		to = renamed(from, to)
		if to == "" || from == to || placeholder.MatchString(to) || !strings.Contains(line, from) {
			return Suggestion{}, false
		}
		return Suggestion{Line: n, Original: line, Lines: []string{strings.ReplaceAll(line, from, to)},
			Description: "Replace `" + from + "` with `" + to + "` on line " + strconv.Itoa(n) + "."}, true
	}
	return Suggestion{}, false
}

// renamed is what to write instead of from: to, or when the two name
// different folders, from's folder with to's file name (the line's own path
// stays; only the misspelt name changes). When only the folders differ that
// is from itself: no change to suggest.
func renamed(from, to string) string {
	if path.Dir(from) == path.Dir(to) {
		return to
	}
	return strings.TrimSuffix(from, path.Base(from)) + path.Base(to)
}

// GapLines reads, from the tutorial's text, each gap's line and whether it
// is inside a fenced code block.
func GapLines(content string, gaps []status.Gap) (map[int]string, map[int]bool) {
	code := map[int]bool{}
	for _, b := range markdown.ParseMarkdown([]byte(content)).Blocks {
		if b.Kind != markdown.BlockCode || !b.Fenced {
			continue
		}
		for _, l := range b.Code {
			code[l.Line] = true
		}
	}
	lines, inCode := map[int]string{}, map[int]bool{}
	for _, g := range gaps {
		if n := g.Location.LineNumber; n > 0 {
			lines[n] = spec.LineText(content, n)
			inCode[n] = code[n]
		}
	}
	return lines, inCode
}

// FirstCommandLine is the first line of a command (or a quote), trimmed:
// how a gap names the command it is about.
func FirstCommandLine(cmd string) string {
	cmd = strings.TrimSpace(cmd)
	if i := strings.IndexByte(cmd, '\n'); i >= 0 {
		cmd = strings.TrimSpace(cmd[:i])
	}
	return cmd
}
