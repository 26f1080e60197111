package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/aside"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prereq"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/spec"
)

// planner reads a tutorial block by block, keeping what a reader keeps in
// mind: the headings above, a rule stated once for a section, the steps so
// far, and which tab of each tab group it follows.
type planner struct {
	blocks   []markdown.Block
	steps    []Step
	headings []markdown.Block // the headings the current block is under, outermost first
	rule     *sectionRule
	browser  int // the line of the last paragraph that sends the reader to a browser
	// tabs is the label followed in each tab group.
	tabs map[int]string
	// asides maps the lines inside an exercise's solution or a challenge
	// (Pandoc fenced divs, as lesson templates use) to the div's class.
	asides map[int]string
	// tools are the programs the tutorial is about or lists as prerequisites:
	// an untagged block that starts with one is a command.
	tools map[string]bool
	// named are the first words of the page's inline code spans
	// (contentlines.go).
	named map[string]bool
	// oneOf is the open group of commands the prose offers as ways of which
	// only one may work, nil when none is open.
	oneOf *oneOfGroup
	// supposed is the file a sentence of the section supposes the reader
	// has ("suppose you have a file named myscript.sh"), with its line.
	supposed     string
	supposedLine int
	// ways maps the commands of the groups of ways to their prose's line.
	ways map[string]int
	// annotations are the author's, by the first line of their block.
	annotations map[int]map[string]spec.Annotation
	// runners maps a block language to the program its unplaced blocks are
	// typed into (smile.json's runners).
	runners map[string]string
	// pageRunners are the page's own, from its front matter at
	// pageRunnersLine: the plan says so where they decide.
	pageRunners     map[string]string
	pageRunnersLine int
}

// sectionRule is "put each example in a file named `Makefile` and run
// `make`": every later block of the section goes to that file.
type sectionRule struct {
	destination.SectionRule
	level int // the heading level of the section it was stated in
	line  int
}

func newPlanner(t *spec.Tutorial) *planner {
	// Only tools the prose names as requirements: a title's words ("status
	// codes") are too loose to make a block a command.
	tools := map[string]bool{}
	titleLine, _ := prereq.Title(t)
	for _, pr := range prereq.Prerequisites(t) {
		if pr.Implied != prereq.ImpliedByTitle && pr.Line != titleLine {
			tools[pr.Tool] = true
		}
	}
	return &planner{blocks: t.Blocks, tabs: platform.ChooseTabs(t.Blocks), asides: aside.Lines(t.Content), tools: tools, named: namedWords(t.Blocks), ways: map[string]int{},
		annotations: byBlock(t.Annotations)}
}

// observe updates the reader's state with block i, before it is read.
func (p *planner) observe(i int) {
	b := p.blocks[i]
	switch b.Kind {
	case markdown.BlockHeading:
		for len(p.headings) > 0 && p.headings[len(p.headings)-1].Level >= b.Level {
			p.headings = p.headings[:len(p.headings)-1]
		}
		p.headings = append(p.headings, b)
		p.oneOf, p.supposed = nil, ""
		if p.rule != nil && b.Level <= p.rule.level {
			p.rule = nil
		}
	case markdown.BlockParagraph:
		if sr, ok := destination.ParseSectionRule(b.Text); ok {
			r := sectionRule{SectionRule: sr, level: p.level(), line: b.Line}
			if n := len(p.headings); n > 0 && examplesHeading.MatchString(p.headings[n-1].Text) {
				r.level = 0 // "## Running the Examples": a rule for every example of the document
			}
			p.rule = &r
		}
		if browserVisit.MatchString(b.Text) {
			p.browser = b.Line
		}
		if leadin.SupposesFile.MatchString(prose.Plain(b.Text)) {
			if names := destination.FilesNamed(b.Text, func(string) bool { return true }); len(names) == 1 {
				p.supposed, p.supposedLine = names[0], b.Line
			}
		}
		if leadin.OneOfNote.MatchString(prose.Plain(b.Text)) {
			p.oneOf = &oneOfGroup{line: b.Line, left: leadin.WaysCounted(b.Text)}
		}
	}
}

// browserVisit: the reader looks at a page in a browser, not at a command.
var browserVisit = regexp.MustCompile(`(?i)\b(?:open|point|visit|navigate|go|browse)\b[^.]{0,40}?\b(?:browser|https?://|localhost|127\.0\.0\.1)`)

// inBrowser: output shown after the reader was sent to a browser, with no
// command run since, is what the page shows; no command printed it.
func (p *planner) inBrowser() bool {
	prev, ok := p.lastRun()
	return p.browser > 0 && (!ok || p.browser > prev.EndLine)
}

// level is the level of the innermost heading, 0 before the first.
func (p *planner) level() int {
	if n := len(p.headings); n > 0 {
		return p.headings[n-1].Level
	}
	return 0
}

func (p *planner) add(steps ...Step) { p.steps = append(p.steps, steps...) }

// lastRun is the latest command step planned so far.
func (p *planner) lastRun() (Step, bool) {
	if i := p.lastRunIndex(); i >= 0 {
		return p.steps[i], true
	}
	return Step{}, false
}

func (p *planner) lastRunIndex() int {
	for i := len(p.steps) - 1; i >= 0; i-- {
		switch p.steps[i].Kind {
		case StepRun:
			return i
		case StepWrite:
			return -1 // a file written since: the program is no longer waiting
		}
	}
	return -1
}

// blockContext is the prose around a code block.
type blockContext struct {
	before string // the paragraph or heading just before (a list item's own paragraph)
	after  string // the paragraph just after, before any other code block
	html   string // an HTML wrapper just before (<Listing file-name="...">)
	// beforeLine and afterLine are where before and after start (0: none).
	beforeLine, afterLine int
	// followsCode: the block comes right after another code block, with no
	// prose, heading or list between them.
	followsCode bool
}

// followsCode: block i comes right after another code block, with only
// HTML comments (an author's notes, SMILE's own annotations) between them.
func (p *planner) followsCode(i int) bool {
	if p.blocks[i].TabGroup > 0 {
		return false
	}
	j := i - 1
	for j >= 0 && p.blocks[j].Kind == markdown.BlockHTML && strings.HasPrefix(strings.TrimSpace(p.blocks[j].Text), "<!--") {
		j--
	}
	return j >= 0 && p.blocks[j].Kind == markdown.BlockCode
}

func (p *planner) context(i int) blockContext {
	var c blockContext
	j := i - 1
	if j >= 0 && p.blocks[j].Kind == markdown.BlockHTML && !tabMarker.MatchString(p.blocks[j].Text) {
		c.html = p.blocks[j].Text
		j--
	}
	// A block in a tab is introduced by the sentence before the tab group.
	for p.blocks[i].TabGroup > 0 && j >= 0 && p.blocks[j].Kind != markdown.BlockCode &&
		(p.blocks[j].TabGroup == p.blocks[i].TabGroup || tabMarker.MatchString(p.blocks[j].Text)) {
		j--
	}
	// A tab's label line (MkDocs' `=== "python"`) with the block not
	// indented under it: the sentence before the label leads into the block.
	if j > 0 && p.blocks[j].Kind == markdown.BlockParagraph && tabMarker.MatchString(p.blocks[j].Text) && !strings.Contains(strings.TrimSpace(p.blocks[j].Text), "\n") {
		j--
	}
	if j >= 0 && (p.blocks[j].Kind == markdown.BlockParagraph || p.blocks[j].Kind == markdown.BlockHeading) {
		c.before, c.beforeLine = p.blocks[j].Text, p.blocks[j].Line
		// Numbered steps split the naming from the code: "1. Create a file
		// named hello.py." "2. Type the following code:". A short lead-in
		// that names no file reads with the step just before it when that
		// one names exactly one.
		if prev := j - 1; prev >= 0 && p.blocks[prev].Kind == markdown.BlockParagraph && len(strings.Fields(c.before)) <= 12 &&
			len(mentionedFile.FindAllString(c.before, -1)) == 0 && len(mentionedFile.FindAllString(p.blocks[prev].Text, -1)) == 1 {
			c.before = p.blocks[prev].Text + "\n" + c.before
		}
	}
	c.followsCode = p.followsCode(i)
	k := i + 1
	if k < len(p.blocks) && p.blocks[k].Kind == markdown.BlockHTML && strings.HasPrefix(strings.TrimSpace(p.blocks[k].Text), "</") {
		k++
	}
	if k < len(p.blocks) && p.blocks[k].Kind == markdown.BlockParagraph {
		c.after, c.afterLine = p.blocks[k].Text, p.blocks[k].Line
	}
	return c
}

// around is the prose quoted when a skipped block is blamed for a later
// failure: the sentence before it, else the one after.
func (c blockContext) around() string {
	if t := strings.TrimSpace(c.before); t != "" {
		return strings.Join(strings.Fields(t), " ")
	}
	return strings.Join(strings.Fields(c.after), " ")
}

var mentionedFile = regexp.MustCompile(destination.FileToken)

// tabMarker is the text of a tab's label or boundary, not prose.
var tabMarker = regexp.MustCompile(`(?i)^\s*(?:===\+?\s+"|\{%-?\s*(?:end)?tabs?\b|\{\{<\s*/?tabs?\b|</?Tabs?(?:Item)?\b)`)

// names are the file names the prose around a block mentions.
func (c blockContext) names() []string {
	var out []string
	for _, t := range []string{c.before, c.after, c.html} {
		for _, m := range mentionedFile.FindAllString(t, -1) {
			if n := destination.CleanFileName(m); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}

// examplesHeading is a section about the document's examples as a whole.
var examplesHeading = regexp.MustCompile(`(?i)\bexamples\b`)

// Intro is the prose that introduces block i of blocks, as a reader finds it:
// the paragraph or heading just before it, then any HTML wrapper around it.
func Intro(blocks []markdown.Block, i int) string {
	c := (&planner{blocks: blocks}).context(i)
	return c.before + "\n" + c.html
}
