// Package fence finds the code fences a page got wrong, which break the page
// for its readers in any CommonMark renderer and make its lines impossible
// to tell apart:
//
//   - a fence never closed that swallows most of the page (every heading,
//     sentence and command after it renders as one code block);
//   - a shorter unclosed fence that swallows the page's own Markdown (a
//     table, a heading): a stray fence that turns text into code;
//   - a program's fence closed too late: the fence after the program is
//     missing, so the page's explanation and the terminal session that
//     builds and runs the program (`$ gcc hello.c`) render inside the
//     program's block, up to the next fence, which was meant to open the
//     session's own block.
//
// Each is one finding at its opening fence. Nothing a swallowing or stray
// block holds is followed; a program closed too late is followed as the
// program alone (its lines up to where the prose starts).
package fence

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/markdown"
)

// Kind is what is wrong with a fence.
type Kind int

const (
	// Swallowing: never closed, it swallows the rest of the page.
	Swallowing Kind = iota + 1
	// Stray: never closed, it swallows the page's tables and headings.
	Stray
	// Late: a program's block closed only after the page's prose and
	// commands that follow the program.
	Late
)

// Fault is a fence the page got wrong.
type Fault struct {
	Kind  Kind
	Block markdown.Block
	// ProgramEnd is, for Late, the program's last line: what follows it up
	// to the closing fence is the page's prose and commands.
	ProgramEnd int
	// Session is, for Late, the first command of the swallowed session.
	Session string
}

// RuleLate and RuleUnclosed are the readings of a faulty fence, as the
// plan shows them.
var (
	RuleLate = rule.Register(rule.Rule{ID: "fence.closed-late", Scope: rule.ScopeBlock,
		Doc: "a program's block whose closing fence comes only after the page's prose and terminal session is the program alone (up to where the prose starts), and a finding at its opening line"})
	RuleUnclosed = rule.Register(rule.Rule{ID: "fence.unclosed", Scope: rule.ScopeBlock,
		Doc: "a fence never closed that swallows most of the page, or its tables and headings, is a finding at its opening line, and nothing in it is followed"})
)

// Read plans the page as the Student follows it: with its fence fault, if
// it has one, applied (Follow, Skip) and marked on the block's steps.
func Read(tut *spec.Tutorial, o reading.Options) ([]reading.Step, Fault, bool) {
	f, ok := Find(tut)
	if !ok {
		return reading.PlanWith(tut, o), f, false
	}
	steps := reading.PlanWith(f.Follow(tut), o)
	f.Skip(steps)
	r := RuleUnclosed
	if f.Kind == Late {
		r = RuleLate
	}
	for i := range steps {
		if steps[i].Line >= f.Block.Line && steps[i].Line <= f.Block.EndLine {
			steps[i].Evidence = append(steps[i].Evidence, r.At(f.Block.Line, "```"+f.Block.Info))
		}
	}
	return steps, f, true
}

// minSwallowed is the least number of lines an unclosed block must run
// over to swallow the page, and it must also hold at least half of its
// lines.
const minSwallowed = 20

// Find is the page's first fence fault: one that swallows the page before
// a stray one, before a program's block closed too late.
func Find(tut *spec.Tutorial) (Fault, bool) {
	total := strings.Count(strings.TrimRight(tut.Content, "\n"), "\n") + 1
	for _, b := range tut.Blocks {
		if b.Kind != markdown.BlockCode || !b.Unclosed || b.Item != "" {
			continue
		}
		if span := b.EndLine - b.Line + 1; b.EndLine >= total && span >= minSwallowed && 2*span >= total {
			return Fault{Kind: Swallowing, Block: b}, true
		}
	}
	for _, b := range tut.Blocks {
		if b.Kind == markdown.BlockCode && b.Unclosed && b.Item == "" && markdownLines(b) >= 2 {
			return Fault{Kind: Stray, Block: b}, true
		}
	}
	for _, b := range tut.Blocks {
		if end, session, ok := closedLate(b); ok {
			return Fault{Kind: Late, Block: b, ProgramEnd: end, Session: session}, true
		}
	}
	return Fault{}, false
}

// markdownLine is a line only Markdown text has: a table's row, a heading
// of level two or more, a thematic break.
var markdownLine = regexp.MustCompile(`^\s*(?:\|.*\|\s*$|#{2,6}\s+\S|(?:-{3,}|\*{3,}|_{3,})\s*$)`)

func markdownLines(b markdown.Block) int {
	n := 0
	for _, l := range b.Code {
		if markdownLine.MatchString(l.Text) {
			n++
		}
	}
	return n
}

// Follow applies the fault to the page's reading: a swallowing or stray
// block's steps are skipped; a late-closed program is read as the program
// alone (cut, the tutorial to plan instead of tut).
func (f Fault) Follow(tut *spec.Tutorial) (cut *spec.Tutorial) {
	if f.Kind != Late {
		return tut
	}
	c := *tut
	c.Blocks = append([]markdown.Block(nil), tut.Blocks...)
	for i, b := range c.Blocks {
		if b.Line != f.Block.Line || b.Kind != markdown.BlockCode {
			continue
		}
		var code []markdown.CodeLine
		var text []string
		for _, l := range b.Code {
			if l.Line <= f.ProgramEnd {
				code = append(code, l)
				text = append(text, l.Text)
			}
		}
		b.Code, b.Text, b.EndLine = code, strings.Join(text, "\n")+"\n", f.ProgramEnd
		c.Blocks[i] = b
	}
	return &c
}

// Skip marks the steps a swallowing or stray block holds as not followed.
func (f Fault) Skip(steps []reading.Step) {
	if f.Kind == Late {
		return
	}
	b := f.Block
	for i := range steps {
		if steps[i].Line >= b.Line && steps[i].Line <= b.EndLine {
			steps[i].Kind = reading.StepSkip
			steps[i].Why = fmt.Sprintf("inside the code block opened at line %d, which is never closed: its commands cannot be told from the page's text", b.Line)
		}
	}
}

// Problem says what is wrong, for the finding.
func (f Fault) Problem() string {
	b := f.Block
	fence := "```" + b.Info
	switch f.Kind {
	case Stray:
		return fmt.Sprintf("the code block opened at line %d (%s) is never closed: the %d lines after it, the page's own tables and headings, render as code", b.Line, fence, b.EndLine-b.Line)
	case Late:
		return fmt.Sprintf("the code block opened at line %d (%s) is not closed where its program ends (line %d): the page's explanation and its terminal session (`%s`) render inside the program's block, down to line %d, and a reader cannot tell where the program ends",
			b.Line, fence, f.ProgramEnd, f.Session, b.EndLine)
	}
	return fmt.Sprintf("the code block opened at line %d (%s) is never closed: the rest of the page, %d lines of headings, prose and code, renders as one code block, and a reader cannot tell its commands from its text",
		b.Line, fence, b.EndLine-b.Line)
}

// Fix is the suggested fix.
func (f Fault) Fix() string {
	if f.Kind == Late {
		return fmt.Sprintf("Close the block after line %d with ```, and put the commands (`%s` and the rest) in a shell block of their own.", f.ProgramEnd, f.Session)
	}
	return fmt.Sprintf("Close the block opened at line %d with ``` after its last command, and open and close a fence around each later block of code.", f.Block.Line)
}

// notPrograms are the info-string languages whose blocks are not a
// program's source: sessions, output, data and prose.
var notPrograms = map[string]bool{"": true, "text": true, "txt": true, "plaintext": true, "plain": true, "output": true,
	"log": true, "diff": true, "markdown": true, "md": true, "powershell": true, "ps1": true, "cmd": true, "bat": true,
	"batch": true, "json": true, "yaml": true, "yml": true, "xml": true, "html": true, "csv": true, "toml": true, "ini": true}

// prompt is a line that starts a command after a shell prompt.
var prompt = regexp.MustCompile(`^\s*\$ +(\S.*)$`)

// closedLate finds a program's block that runs on past the program: code
// lines first, then at least three lines of prose and a command after a
// prompt. It returns the program's last line and the first command.
func closedLate(b markdown.Block) (programEnd int, session string, ok bool) {
	if b.Kind != markdown.BlockCode || !b.Fenced || b.Item != "" || notPrograms[b.Lang] || codelang.IsShellish(b.Lang) {
		return 0, "", false
	}
	first := -1
	code := 0
	var c commentState
	for i, l := range b.Code {
		if !c.inside(l.Text) && isProse(l.Text) {
			first = i
			break
		}
		if strings.TrimSpace(l.Text) != "" {
			code++
			programEnd = l.Line
		}
	}
	if first < 0 || code < 2 {
		return 0, "", false
	}
	prose := 0
	for _, l := range b.Code[first:] {
		if m := prompt.FindStringSubmatch(l.Text); m != nil && session == "" {
			session = strings.TrimSpace(m[1])
		} else if isProse(l.Text) {
			prose++
		}
	}
	return programEnd, session, prose >= 3 && session != ""
}

// comment starts a line of code that is a comment.
var comment = regexp.MustCompile(`^\s*(?://|/\*|\*|#|--|;|%|')`)

// quoted is a string literal, whose words are not the page's prose, and
// trailing a comment at the end of a line of code.
var (
	quoted   = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	trailing = regexp.MustCompile(`//.*$|/\*.*?\*/|\s#.*$|\s--\s.*$`)
)

// commentState follows the block comments and docstrings of a program
// (/* ... */, """ ... """), whose lines are not the page's prose.
type commentState struct{ block, doc bool }

// inside says whether the line is in, opens or closes a block comment or a
// docstring.
func (c *commentState) inside(line string) bool {
	was := c.block || c.doc
	if c.block {
		c.block = !strings.Contains(line, "*/")
		return true
	}
	if n := strings.Count(line, `"""`) + strings.Count(line, "'''"); n%2 == 1 {
		c.doc = !c.doc
		return true
	}
	if c.doc {
		return true
	}
	if i := strings.LastIndex(line, "/*"); i >= 0 && !strings.Contains(line[i:], "*/") {
		c.block = true
		return true
	}
	return was
}

// isProse says a line of a program's block reads as the page's own
// sentence: not a comment, and outside its string literals either four or
// more letters of a script written without spaces (Chinese, Japanese,
// Korean), or six or more words with no code punctuation.
func isProse(line string) bool {
	if strings.TrimSpace(line) == "" || comment.MatchString(line) || prompt.MatchString(line) {
		return false
	}
	bare := trailing.ReplaceAllString(quoted.ReplaceAllString(line, ""), "")
	wide := 0
	for _, r := range bare {
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) {
			wide++
		}
	}
	if wide >= 4 {
		return true
	}
	if strings.ContainsAny(bare, ";{}=()[]<>") {
		return false
	}
	words := 0
	for _, w := range strings.Fields(bare) {
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !strings.ContainsRune(".,:'’-", r) }) < 0 {
			words++
		}
	}
	return words >= 6
}
