package reading

import (
	"path"
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/aside"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/notshell"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/prose"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec/markdown"
)

// Pages give short commands in the sentence itself as often as in a block:
// "Start the server with `node app.js`", "Ejecuta `cargo run`". A reader
// runs them where the sentence stands. The sentence must ask for it (a verb
// of running, typing or executing, in the page's language), and the code
// span must be a whole command line: a program the page's readers have (a
// well-known one, or one the page names) with its arguments, and no
// placeholder in it. A command a code block of the page also holds is left
// to that block, and a sentence that only supposes ("if you run ...") asks
// for nothing.
var (
	ruleProseCommand = rule.Register(rule.Rule{ID: "prose.command", Scope: rule.ScopeBefore,
		Doc: "a sentence that asks the reader to run a whole command written inline (\"start it with `node app.js`\") is a step where the sentence stands, unless a code block of the page holds the same command"})

	ruleCommandAlone = rule.Register(rule.Rule{ID: "prose.command-alone", Scope: rule.ScopeBefore,
		Doc: "a paragraph that is nothing but one whole command written inline (maybe after a course's step marker such as `[EC]`) is a step, as a code block holding it would be"})

	localURL = regexp.MustCompile(`(?i)\b(?:localhost|127\.0\.0\.1|0\.0\.0\.0):\d{2,5}\b`)
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// spanPlaceholder: a span that is a template, not a command.
	spanPlaceholder = regexp.MustCompile(`<[^>]*>|\[[^\]]*\]|\{\{|\.\.\.|…|\b(?:your|my)[_/-]|\bYOUR_|\bfoo\b|\bexample\.(?:com|org)\b`)
)

// proseCommands are the steps the sentences of paragraph i ask for.
func (p *planner) proseCommands(i int) []Step {
	b := p.blocks[i]
	if b.Kind != markdown.BlockParagraph || p.offPathProse(i) {
		return nil
	}
	if _, ok := destination.ParseSectionRule(b.Text); ok {
		return nil // "save each example as step.sh and run `sh step.sh`": a rule for the blocks, run with each
	}
	if steps := p.promptedLines(b); len(steps) > 0 {
		return steps
	}
	if s, ok := p.commandAlone(b); ok {
		return []Step{s}
	}
	var steps []Step
	offset := 0
	for _, sentence := range prose.Sentences(b.Text) {
		at := strings.Index(b.Text[offset:], sentence)
		if at < 0 {
			continue
		}
		start := offset + at
		offset = start + len(sentence)
		if s, ok := p.proseEdit(b, sentence, b.Line+strings.Count(b.Text[:start], "\n")); ok {
			steps = append(steps, s)
			continue
		}
		plainSentence := prose.Plain(strings.TrimSpace(codeSpan.ReplaceAllString(sentence, "X")))
		verb := leadin.AsksToRun(plainSentence)
		if verb == "" {
			continue
		}
		prevEnd := -1
		for _, m := range codeSpan.FindAllStringSubmatchIndex(sentence, -1) {
			cmd := strings.TrimSpace(sentence[m[2]:m[3]])
			instead := prevEnd >= 0 && leadin.Disjunction.MatchString(sentence[prevEnd:m[0]])
			prevEnd = m[1]
			if instead || !p.wholeCommand(cmd) || p.inABlock(cmd) || leadin.ConditionalClause.MatchString(sentence[:m[0]]) || leadin.ExampleName.MatchString(sentence) || p.noSuchFileYet(cmd) || leadin.NamesAnExample(p.blocks, cmd) {
				continue
			}
			line := b.Line + strings.Count(b.Text[:start+m[2]], "\n")
			steps = append(steps, inlineRun(b, line, cmd, "the sentence asks the reader to run it", ruleProseCommand.At(line, verb)))
		}
	}
	return steps
}

// commandAlone reads a paragraph that holds nothing but one whole command
// written inline, maybe after a course's marker for a step (`[EC]`, `→`,
// `$`): a command on a line of its own, as a code block would hold it.
func (p *planner) commandAlone(b markdown.Block) (Step, bool) {
	t := strings.TrimSpace(leadin.StepMarker.ReplaceAllString(strings.TrimSpace(b.Text), ""))
	if label := leadin.StepLabel.FindString(t); platform.ForOther(label) {
		return Step{}, false // "Windows: `python app.py`": another system's way
	} else if !leadin.ExampleLabel.MatchString(label) {
		t = strings.TrimSpace(strings.TrimPrefix(t, label)) // "Install: `apt-get install make`"
	}
	t = strings.ReplaceAll(t, "```", "`") // a span fenced with three backticks on one line is inline code too
	if m := referenceEntry.FindStringSubmatch(t); m != nil {
		cmd := strings.TrimSpace(strings.TrimPrefix(m[1], "$ "))
		if !p.wholeCommand(cmd) || p.inABlock(cmd) {
			return Step{}, false
		}
		s := inlineRun(b, b.Line, cmd, "an entry of a command reference: the command, then what it does", ruleReferenceEntry.At(b.Line, "`"+m[1]+"`"))
		s.Reference = true
		return s, true
	}
	m := codeSpan.FindStringSubmatch(t)
	if m == nil || strings.TrimRight(t, ".:;!") != m[0] {
		return Step{}, false
	}
	cmd := strings.TrimSpace(strings.TrimPrefix(m[1], "$ "))
	// Unlike a sentence's, its script need not be written yet: a paragraph
	// of its own is this page's step, not a way of working in general.
	if !p.wholeCommand(cmd) || p.inABlock(cmd) || leadin.NamesAnExample(p.blocks, cmd) {
		return Step{}, false
	}
	return inlineRun(b, b.Line, cmd, "the paragraph is the command alone, written inline", ruleCommandAlone.At(b.Line, m[0])), true
}

// A page that lists commands, each followed by what it does ("`ls -a`: show
// hidden files"), is a command reference: each entry is one of its forms,
// run on the page's sample names, where a failure for want of them is no
// gap (Step.Reference).
var (
	ruleReferenceEntry = rule.Register(rule.Rule{ID: "prose.reference-entry", Scope: rule.ScopeBefore,
		Doc: "a paragraph or list item that is one whole command inline followed by what it does (\"`ls -a`: show hidden files\") is an entry of a command reference: run, on sample names"})
	referenceEntry = regexp.MustCompile("^`([^`\n]+)`\\s*(?:[:：]|[-–—]\\s)\\s*\\S")
)

var rulePromptedLine = rule.Register(rule.Rule{ID: "prose.prompted-line", Scope: rule.ScopeLine,
	Doc: "a paragraph whose every line starts with a shell prompt (`$ make`, `(venv)$ pip3 list`) holds commands the page wrote without a code block: each line is a step"})

// promptedLines reads a paragraph whose every line starts with a shell
// prompt (transcript.PromptedParagraph): commands the page forgot to put in
// a code block. The prompt is the evidence, so the command need not be a
// program the reader knows.
func (p *planner) promptedLines(b markdown.Block) []Step {
	var steps []Step
	for _, pl := range transcript.PromptedParagraph(b.Text) {
		if p.inABlock(pl.Command) {
			return nil
		}
		line := b.Line + pl.Offset
		s := inlineRun(b, line, pl.Command, "the paragraph's line starts with a shell prompt: a command written without a code block",
			rulePromptedLine.At(line, pl.Prompt))
		if why, ev := notshell.Why(pl.Command, line); ev != nil {
			s = omitted(s, why) // `$ esc`: a keystroke, not a command
			s.Evidence = append(s.Evidence, *ev)
		}
		steps = append(steps, s)
	}
	return steps
}

// inlineRun is the step of a command written inline in paragraph b, at
// line. "run `ruby app.rb`, then open localhost:4567": it serves.
func inlineRun(b markdown.Block, line int, cmd, why string, ev rule.Evidence) Step {
	return Step{Kind: StepRun, Line: line, EndLine: line, Lang: "bash", Prose: b.Text,
		Command: Command{Line: line, EndLine: line, Text: cmd}, Why: why, Evidence: []rule.Evidence{ev},
		Background: localURL.MatchString(b.Text)}
}

// leadin.StepMarker is a mark a course puts before each step: a bracketed tag
// (`[EC]`, `[ER]`), an arrow or a bullet.

// noSuchFileYet: the command runs a script when the page has written no
// file of its kind yet: a way of working described in general ("start
// your program with `python program.py`"), not this page's step. A script
// of the kind written under another name is the page's step, misnamed.
func (p *planner) noSuchFileYet(cmd string) bool {
	for _, w := range strings.Fields(cmd)[1:] {
		if !shell.ScriptArg(w) {
			continue
		}
		ext := path.Ext(w)
		for _, s := range p.steps {
			if s.Kind == StepWrite && path.Ext(s.File.Path) == ext {
				return false
			}
		}
		return true
	}
	return false
}

// wholeCommand: a program the page's readers have, with its arguments, and
// no placeholder.
func (p *planner) wholeCommand(cmd string) bool {
	fields := strings.Fields(strings.TrimPrefix(cmd, "$ "))
	if len(fields) < 2 || spanPlaceholder.MatchString(cmd) || strings.ContainsAny(cmd, "`") || placeholder.Template(cmd) != "" {
		return false
	}
	prog := fields[0]
	if prog == "sudo" {
		prog = fields[1]
	}
	return codelang.KnownProgram(prog) || p.tools[prog]
}

// inABlock: a code block of the page holds the command, which the block's
// own reading runs (or not).
func (p *planner) inABlock(cmd string) bool {
	for _, b := range p.blocks {
		if b.Kind == markdown.BlockCode && strings.Contains(b.Text, cmd) {
			return true
		}
	}
	return false
}

// offPathProse: the paragraph sits where a block would be omitted: under a
// heading or in a section for another system, or in an exercise's aside.
func (p *planner) offPathProse(i int) bool {
	b := p.blocks[i]
	if _, ok := p.asides[b.Line]; ok {
		return true
	}
	for _, h := range p.headings {
		if aside.ExerciseHeading(h.Text) {
			return true // "Exercises": the commands are the reader's answers
		}
	}
	if b.Section != "" && platform.ForOther(b.Section) {
		return true
	}
	if b.TabGroup > 0 && p.tabs[b.TabGroup] != b.Tab {
		return true
	}
	for _, h := range p.headings {
		if platform.ForOther(h.Text) {
			return true
		}
	}
	if item := prose.Plain(b.Item); item != "" && platform.ForOther(item) {
		return true
	}
	return false
}
