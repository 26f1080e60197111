package reading

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/blocklang"
	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/book"
	"github.com/smile-loop/smile/learner/literal/chosenname"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/drawing"
	"github.com/smile-loop/smile/learner/literal/exercise"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/notshell"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/platform"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/servers"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/standalone"
	"github.com/smile-loop/smile/learner/literal/step"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec"
)

// The plan's vocabulary is package step's.
type (
	StepKind    = step.Kind
	Step        = step.Step
	TextReading = step.TextReading
)

// The kinds of step.
const (
	StepRun       = step.Run
	StepWrite     = step.Write
	StepCompare   = step.Compare
	StepAmbiguous = step.Ambiguous
	StepSkip      = step.Skip
	StepOmit      = step.Omit
	StepImage     = step.Image
)

var (
	outputLangs = set("output", "out", "stdout", "result", "results", "error", "stderr", "err", "warning")
	errorLangs  = set("error", "stderr", "err")
	textLangs   = set("", "text", "txt", "plain", "plaintext", "output", "out", "stdout", "log", "none", "nohighlight", "default")
	// dataLangs are the data formats a command prints (`jq -r ... @csv`,
	// `curl` a JSON API): right after its block with nothing said between,
	// such a block is what it printed, not a file to place.
	dataLangs = set("csv", "tsv", "json")
)

func set(names ...string) map[string]bool { return textutil.Set(names...) }

// Plan turns a tutorial into the Student's steps, in document order.
func Plan(t *spec.Tutorial) []Step { return PlanWith(t, Options{}) }

// Options are what the run's settings add to the page: Runners maps a code
// block language to the program its blocks are typed into when nothing on
// the page places them (smile.json's runners; the page's own front matter
// `smile: runners:` wins for the same language).
type Options struct {
	Runners map[string]string
}

// PlanWith is Plan with the run's settings.
func PlanWith(t *spec.Tutorial, o Options) []Step {
	t, fills := chosenname.Fill(t)
	p := newPlanner(t)
	p.runners = spec.MergeRunners(o.Runners, t.Steering.Runners)
	p.pageRunners, p.pageRunnersLine = t.Steering.Runners, t.Steering.Line
	for i, b := range t.Blocks {
		p.observe(i)
		if b.Kind == markdown.BlockParagraph {
			p.placeLater(i)
			p.add(p.proseCommands(i)...)
		}
		if b.Kind != markdown.BlockCode || len(b.Code) == 0 {
			continue
		}
		steps, annotated := p.annotatedSteps(i)
		if !annotated {
			steps = p.blockSteps(i)
		}
		steps = p.modify(i, p.runIn(i, p.namedByItsFile(i, steps)))
		p.inReference(steps)
		p.placeEditedAbove(steps)
		p.add(steps...)
	}
	steps := p.steps
	p.editedWithOwnText(steps)
	p.placeUsedLater(steps)
	steps = p.placeRunAfter(steps)
	steps = p.runWrittenScripts(steps)
	servers.Mark(steps)
	shareSessions(steps)
	for _, f := range fills {
		if k := slices.IndexFunc(steps, func(s Step) bool { return s.Command.Line == f.Line }); k >= 0 {
			steps[k].Evidence = append(steps[k].Evidence, chosenname.Rule.At(f.Maker, strings.Join(f.Tokens, " ")))
		}
	}
	book.UnhideRust(steps)
	for _, img := range t.Images {
		if img.Missing {
			steps = append(steps, Step{Kind: StepImage, Line: img.Line, EndLine: img.Line, Image: img})
		}
	}
	sort.SliceStable(steps, func(i, j int) bool { return steps[i].Line < steps[j].Line })
	return exercise.AnswersFirst(steps, p.blocks)
}

// ruleSession: the blocks of one REPL share its session.
var ruleSession = rule.Register(rule.Rule{ID: "repl.session", Scope: rule.ScopeDocument,
	Doc: "a page's REPL blocks are one session, as for a reader who keeps the interpreter open: what the first defines is there in the next; a block that starts the program with its own command starts a new one"})

// shareSessions keeps a session only where the page has more than one block
// of it (transcript.Shared): a single block runs as before, the program to
// itself.
func shareSessions(steps []Step) {
	names := make([]string, len(steps))
	for i, s := range steps {
		names[i] = s.Session
	}
	shared := transcript.Shared(names)
	for i := range steps {
		if s := &steps[i]; s.Session != "" && !shared[s.Session] {
			s.Session, s.NewSession = "", false
		} else if s.Session != "" {
			s.Evidence = append(s.Evidence, ruleSession.At(s.Line, s.Session))
		}
	}
}

var ruleAfterCommands = rule.Register(rule.Rule{ID: "output.after-commands", Scope: rule.ScopeBlock,
	Doc: "an untagged, text or data (csv, tsv, json) block right after a block of commands, with no prose between them and no look of commands, is what they print (compared tolerantly: nothing says it is exact)"})

// knownCommands: the lines read as commands and one of them starts a
// program the reader knows; bare words (`apples`, `north 120`) read as
// commands too, so the shape alone does not make a block commands.
func (p *planner) knownCommands(code []markdown.CodeLine) bool {
	return blockshape.LooksLikeCommands(code) && slices.ContainsFunc(code, func(l markdown.CodeLine) bool {
		name := shell.CommandName(l.Text)
		return codelang.KnownProgram(name) || p.tools[name]
	})
}

// outputOfCommands: the block comes right after a block the Student runs,
// with nothing said between them, and does not read as commands, so a
// reader sees it as what those commands print.
func (p *planner) outputOfCommands(b markdown.Block, ctx blockContext) bool {
	if !ctx.followsCode || ctx.before != "" || ctx.html != "" && !strings.HasPrefix(strings.TrimSpace(ctx.html), "<!--") || len(p.steps) == 0 {
		return false
	}
	if p.knownCommands(b.Code) {
		return false
	}
	last := p.steps[len(p.steps)-1]
	return last.Kind == StepRun && !last.Background && last.Stdin == "" && len(last.Command.Expected) == 0
}

// blockLang is the language a block is read in (package blocklang).
func (p *planner) blockLang(b markdown.Block, ctx blockContext) (string, []rule.Evidence) {
	return blocklang.Of(b, blocklang.Context{Tools: p.tools, IntroducesOutput: leadin.IntroducesOutput(ctx.before), OutputOfCommands: p.outputOfCommands(b, ctx)})
}

// blockSteps reads one code block. In order: a block not on the path
// (another platform, an alternative, a demonstration) is omitted; a named
// destination makes it a file to write; input for the program just started
// is fed to it; a shell block is commands; a console block is commands with
// their output; prose that introduces output makes it output to compare; an
// untagged block the prose says to run (or that shows `$ ` prompts) is
// commands; any other language is a block the Student cannot place; the rest
// is display text.
func (p *planner) blockSteps(i int) []Step {
	b := p.blocks[i]
	ctx := p.context(i)
	lang, inferred := p.blockLang(b, ctx)
	base := Step{Line: b.Line, EndLine: b.EndLine, Lang: lang, Prose: ctx.around(), Names: ctx.names(), Evidence: inferred}
	if why, ev := p.offPath(i, ctx, lang); why != "" {
		s := omitted(base, why)
		s.Evidence = append(s.Evidence, ev...)
		return []Step{s}
	}
	if d, ok := markdown.MySTDirective(b.Info); ok && !d.Code() {
		s := base
		s.Kind, s.Why = StepSkip, fmt.Sprintf("a MyST {%s} directive: markup for the documentation generator, not code to run", d.Name)
		return []Step{s}
	}
	if steps, ok := p.destinationSteps(base, b, ctx); ok {
		return steps
	}
	if s, ok := p.interpreterScript(base, i); ok {
		return []Step{s}
	}
	if codelang.Shell[lang] && blockshape.StartsWithShebang(b.Text) {
		s := base
		s.Kind, s.Content, s.Why = StepAmbiguous, b.Text, "a shell script (its #! line) whose file the page never names: a whole script, not lines typed at the prompt"
		return []Step{s}
	}
	if (codelang.Shell[lang] || codelang.Console[lang] || lang == "") && placeholder.Answer.MatchString(b.Text) {
		return []Step{omitted(base, "an exercise: a placeholder comment leaves the command for the reader to work out")}
	}
	if !codelang.Shell[lang] && !codelang.Console[lang] && placeholder.MakeTemplate.MatchString(b.Text) {
		// ```makefile holding `targets: prerequisites` after "a rule looks
		// like this:": the form of a file, not output and not a step.
		return []Step{omitted(base, "a syntax template: "+strings.TrimSpace(placeholder.MakeTemplate.FindString(b.Text))+" describes the syntax")}
	}
	if p.feedInput(b, ctx, lang) {
		return nil
	}
	if s, ok := p.quotedLines(base, b); ok && !leadin.IntroducesOutput(ctx.before) {
		return []Step{s}
	}
	if steps, ok := p.replSteps(base, b, ctx, lang); ok {
		return steps
	}
	if steps, ok := p.openedSession(base, b, lang); ok {
		return steps
	}
	if s, ok := p.proseStart(base, b, ctx, lang); ok {
		return []Step{s}
	}
	if p.layout(b) && !blockshape.HasPromptLine(b.Code) {
		s := base
		s.Kind, s.Why = StepSkip, "a drawing of the folder layout, not the output of the command before it"
		return []Step{s}
	}
	steps := p.supposedFile(p.readBlock(base, b, ctx, lang), ctx)
	differs := ctx.differs()
	optional, ifPresent := ctx.optionalLine(p.headings)
	for k := range steps {
		steps[k].Optional, steps[k].IfPresent = optional, ifPresent
		if optional == 0 && steps[k].Kind == StepRun {
			steps[k].Optional = commentOptional(b, steps[k].Command)
			steps[k].IfPresent = steps[k].Optional > 0
		}
		steps[k].Tolerant = steps[k].Tolerant || leadin.Tolerant.MatchString(ctx.before) || differs > 0
		steps[k].Differs = differs
		if steps[k].Kind == StepRun {
			markRun(&steps[k], ctx)
		}
	}
	p.markOneOf(steps)
	p.markScopeWays(steps)
	return steps
}

// labelledOutput reads a block that opens with `# output`: what the command
// before it printed, whatever its tag.
func labelledOutput(base Step, b markdown.Block) Step {
	k := blockshape.LabelledOutput(b.Code)
	s := base
	s.Kind, s.Expected, s.Why = StepCompare, blockshape.ExpectedLines(b.Code[k:]), "its first line labels it as output"
	s.Line = blockshape.FirstContentLine(b.Code[k:], b.Line)
	s.Evidence = append(s.Evidence, ruleLabelledOutput.At(b.Code[k-1].Line, strings.TrimSpace(b.Code[k-1].Text)))
	return s
}

// trailingOutput reads a shell block whose command is followed by what it
// prints: `docker volume inspect x` and its JSON, or a command and a log
// with prompts in it.
func trailingOutput(base Step, b markdown.Block) []Step {
	k := blockshape.TrailingOutput(b.Code)
	cmds := commandSteps(base, scriptCommands(b.Code[:k]), b.Code[:k])
	if n := len(cmds); n > 0 && cmds[n-1].Kind == StepRun {
		cmds[n-1].Command.Expected = blockshape.ExpectedLines(b.Code[k:])
	}
	return cmds
}

var ruleLabelledOutput = rule.Register(rule.Rule{ID: "output.labelled", Scope: rule.ScopeBlock,
	Doc: "a block whose first line is only a label for output (`# output`, `# result:`, `# 결과`, in the page's language) is what the command before it printed, to compare, whatever its tag"})

// markRun reads what the prose around a command's block says about running
// it: that it fails on purpose, that the reader is to observe what it does,
// the answers a reader gives its questions, that it runs in another
// terminal.
func markRun(s *Step, ctx blockContext) {
	s.FailShown = expect.ShowsFailure(s.Command.Expected) // a transcript that shows the run failing
	s.ExpectFail = leadin.AnnouncesFailure(ctx.before) || leadin.FailsAfter(ctx.after) || shell.AlwaysFalse.MatchString(strings.TrimSpace(s.Command.Text)) || s.FailShown
	s.FailNoted = !s.ExpectFail && leadin.CommentSaysFails(shell.TrailingComment(s.Command.Text))
	s.ExpectFail = s.ExpectFail || s.FailNoted
	s.Observe = leadin.AsksWhatHappens(ctx.after)
	if s.Stdin == "" && transcript.AptAsks(s.Command.Text) {
		s.Stdin = "y\n" // a reader answers apt's "Do you want to continue? [Y/n]"
	}
	if s.Stdin == "" && transcript.AsksWithDefaults(s.Command.Text) {
		// ssh-keygen's questions, npm init's: a reader presses Enter for
		// each default.
		s.Stdin = strings.Repeat("\n", 12)
		s.Evidence = append(s.Evidence, ruleDefaults.At(s.Line, shell.CommandName(s.Command.Text)))
	}
	if answer, rest, ok := transcript.ReadAnswer(s.Command.Text, s.Command.Expected); ok {
		// A reader answers `read` at the prompt, as its shown output does.
		s.Stdin, s.Command.Expected = cmp.Or(s.Stdin, answer), rest
	}
	s.Background = leadin.AnotherTerminal.MatchString(ctx.before)
}

// differs is the line of the note, just before the block or in the
// paragraph just after it, that says the reader's output may differ from
// the one shown; 0 when there is none.
func (c blockContext) differs() int {
	switch {
	case leadin.Differs.MatchString(c.before):
		return c.beforeLine
	case leadin.Differs.MatchString(c.after):
		return c.afterLine
	}
	return 0
}

// readBlock reads a block that is neither a file nor input: commands, output
// or display text.
func (p *planner) readBlock(base Step, b markdown.Block, ctx blockContext, lang string) []Step {
	prompted := blockshape.HasPromptLine(b.Code)
	switch {
	case blockshape.LabelledOutput(b.Code) > 0 && p.lastRunIndex() >= 0:
		return []Step{labelledOutput(base, b)}
	case codelang.Shell[lang] && blockshape.TrailingOutput(b.Code) > 0:
		return trailingOutput(base, b)
	case codelang.Console[lang] && !prompted && unpromptedCommands(b, ctx):
		return commandSteps(base, scriptCommands(b.Code), b.Code)
	case codelang.Console[lang], codelang.Shell[lang] && prompted, lang == "" && prompted, blockshape.OpensWithPrompt(b.Code):
		// A `text` block, or one tagged with the language of the program it
		// starts (```python3 over `$ python3` and `>>>` lines), that opens
		// with `$ cmd` is a session: its prompts say what to run.
		return p.transcriptSteps(base, b.Code, p.transcriptContext(ctx, lang))
	case codelang.Shell[lang] && leadin.IntroducesOutput(ctx.before) && !leadin.RunAfterOutput(ctx.before) &&
		(!blockshape.LooksLikeCommands(b.Code) || leadin.ShouldShow(leadin.LastSentence(ctx.before))):
		// ```bash after "you should see:" holding `Hello, World!`, or after
		// "it should return:" holding `ruby 3.1.2p20 ...`: output tagged as
		// shell (the sentence leading into it, not the paragraph).
		s := base
		s.Kind, s.Expected, s.Why = StepCompare, blockshape.ExpectedLines(b.Code), "the prose before it introduces output"
		if blockshape.LooksLikeCommands(b.Code) {
			s.AltRun = scriptCommands(b.Code)
		}
		s.Line = blockshape.FirstContentLine(b.Code, b.Line)
		s.Tolerant = leadin.Tolerant.MatchString(ctx.before)
		return []Step{s}
	case codelang.Shell[lang] && !prompted && p.notCommands(b.Code):
		return p.maybeText(commandSteps(base, scriptCommands(b.Code), b.Code), b, ctx)
	case codelang.Shell[lang]:
		return commandSteps(base, scriptCommands(b.Code), b.Code)
	case leadin.IntroducesOutput(ctx.before) && standalone.Whole(lang, b.Text):
		s := base // "this program prints its size:" over the program: it is no output, and placed nowhere
		s.Kind, s.Why, s.Content = StepAmbiguous, fmt.Sprintf("a whole %s program the prose says what it does, with no file to save it to", lang), b.Text
		return []Step{s}
	case codelang.Extensions[lang] != nil && !outputLangs[lang] && leadin.IntroducesOutput(ctx.before):
		// ```toml after "pyproject.toml will look like this:": a file the
		// command made, shown for reading, not its output.
		s := base
		s.Kind, s.Why = StepSkip, fmt.Sprintf("the content of a %s file the tutorial shows for reading, not a command's output", lang)
		return []Step{s}
	case outputLangs[lang],
		(leadin.IntroducesOutput(ctx.before) || textLangs[lang] && leadin.Example.MatchString(ctx.before)) && !leadin.RunAfterOutput(ctx.before) &&
			!((blockshape.LooksLikeCommands(b.Code) || strings.HasPrefix(strings.TrimSpace(b.Text), "./")) && placeholder.Template(b.Text) != ""): // a general form
		if n := len(p.steps); n > 0 && p.steps[n-1].Kind == StepOmit {
			return []Step{omitted(base, fmt.Sprintf("the output of the block at line %d, which the Student did not follow", p.steps[n-1].Line))}
		}
		p.failsOnPurpose(lang)
		if p.inBrowser() {
			return []Step{omitted(base, "what a browser shows, not the output of a command")}
		}
		s := base
		s.Kind, s.Expected, s.Why = StepCompare, blockshape.ExpectedLines(b.Code), "it is output: its tag or the prose before it says so"
		s.Line = blockshape.FirstContentLine(b.Code, b.Line)
		s.Tolerant = leadin.Tolerant.MatchString(ctx.before)
		if textLangs[lang] && !outputLangs[lang] && !leadin.StrongOutput.MatchString(leadin.LastSentence(ctx.before)) && blockshape.LooksLikeCommands(b.Code) {
			s.AltRun = scriptCommands(b.Code)
		}
		return []Step{s}
	case lang == "" && (leadin.Run.MatchString(ctx.before) || leadin.Command.MatchString(ctx.before) && blockshape.LooksLikeCommands(b.Code) ||
		blockshape.LooksLikeCommands(b.Code) && p.tools[shell.CommandName(b.Code[0].Text)]):
		return commandSteps(base, scriptCommands(b.Code), b.Code)
	case (textLangs[lang] || dataLangs[lang]) && p.outputOfCommands(b, ctx):
		s := base
		s.Kind, s.Expected = StepCompare, blockshape.ExpectedLines(b.Code)
		s.Why = "it follows a block of commands with no prose between them: what they print"
		s.Line = blockshape.FirstContentLine(b.Code, b.Line)
		s.Tolerant = true // nothing says it is exact
		s.Evidence = append(s.Evidence, ruleAfterCommands.At(b.Line, ""))
		return []Step{s}
	case !textLangs[lang]:
		s := base
		s.Kind, s.Why, s.Content = StepAmbiguous, fmt.Sprintf("a %s block with no file to save it to and no instruction to run it", lang), b.Text
		return []Step{s}
	}
	s := base
	s.Kind, s.Why = StepSkip, DisplayText
	return []Step{s}
}

// DisplayText is why a block nothing places is skipped: it is still free
// for what a later command shows it to be (the Makefile `make` reads, the
// error a failed command printed).
const DisplayText = "display text: no file name, no instruction to run it, no output introduced"

var (
	listingRuns = regexp.MustCompile(`^(?:tree|ls|find|du|exa|eza)\b`)
)

// failsOnPurpose: an output block tagged as an error (```error, ```stderr)
// after a command shows it failing on purpose.
func (p *planner) failsOnPurpose(lang string) {
	if n := len(p.steps); errorLangs[lang] && n > 0 && p.steps[n-1].Kind == StepRun {
		p.steps[n-1].ExpectFail = true
	}
}

// layout: a folder tree drawn in prose ("your project now looks like
// this"), unless the command just run draws trees.
func (p *planner) layout(b markdown.Block) bool {
	if !drawing.Tree(b.Text, b.Code) {
		return false
	}
	prev, ok := p.lastRun()
	return !ok || !listingRuns.MatchString(strings.TrimSpace(prev.Command.Text))
}

// commandSteps runs a block's commands; a syntax template among them, or a
// command under a comment for another platform ("# macOS"), is omitted, not
// run.
func commandSteps(base Step, cmds []Command, lines []markdown.CodeLine) []Step {
	scoped := platform.CommentScoped(lines)
	other, otherEv := notshell.OtherSyntax(lines)
	var steps []Step
	elsewhere := "" // why the rest of the block runs in another system's folder
	for _, c := range cmds {
		s := base
		s.Kind, s.Command, s.Line, s.EndLine = StepRun, c, c.Line, c.EndLine
		if elsewhere != "" {
			s = omitted(s, elsewhere)
		} else if otherEv != nil {
			// Display text of another language, as an untagged block would
			// be: nothing in it was meant to run, so nothing is left out.
			s.Kind, s.Why = StepSkip, other
			s.Evidence = append(s.Evidence, *otherEv)
		} else if why, ev := notshell.NotRun(c.Text, c.Line, scoped); why != "" {
			s = omitted(s, why)
			if ev != nil {
				s.Evidence = append(s.Evidence, *ev)
				if shell.CommandName(c.Text) == "cd" {
					elsewhere = fmt.Sprintf("the block is another system's example: line %d enters a folder of that system first", c.Line)
				}
			}
		}
		steps = append(steps, s)
	}
	texts := make([]string, len(cmds))
	for k, c := range cmds {
		texts[k] = c.Text
	}
	for k := range steps {
		steps[k].Reference = blockshape.ReferenceList(texts)
	}
	return steps
}

// unpromptedCommands: a console block drawn without prompts whose every
// line is a command, not right after a command's block nor led in as
// output (a list of program names that `ls /usr/bin` printed).
func unpromptedCommands(b markdown.Block, ctx blockContext) bool {
	return !ctx.followsCode && !leadin.IntroducesOutput(ctx.before) && blockshape.KnownCommands(b.Code)
}

func omitted(s Step, why string) Step {
	s.Kind, s.Why = StepOmit, why
	return s
}

// transcriptSteps reads a terminal or REPL transcript (transcript.Read):
// each prompt's owner runs its lines. A transcript that repeats the command
// just run, only to show its output, is compared, not run again; a command
// for another platform's shell is omitted.
func (p *planner) transcriptSteps(base Step, lines []markdown.CodeLine, tc transcript.Context) []Step {
	t := transcript.Read(lines, tc)
	runs := t.Runs
	var steps []Step
	if len(t.Pictured) > 0 && len(runs) == 0 {
		s := omitted(base, "a picture of the terminal later on: text printed at the prompt, no command to run and no output of the step before")
		s.Evidence = append(s.Evidence, t.Pictured...)
		return []Step{s}
	}
	if len(t.Pictured) > 0 {
		t.Leading = nil // the lines before the picture's prompt belong to it, not to the step before
	}
	if expect.HasExpectation(t.Leading) {
		s := base
		s.Kind, s.Expected, s.Why = StepCompare, t.Leading, "output shown before the block's first prompt"
		s.Line = t.Leading[0].Line
		steps = append(steps, s)
	}
	if prev, ok := p.lastRun(); ok && len(runs) > 0 && runs[0].Program == "" && runs[0].Stdin == "" && prev.Stdin == "" && expect.HasExpectation(runs[0].Command.Expected) &&
		strings.TrimSpace(runs[0].Command.Text) == strings.TrimSpace(prev.Command.Text) && step.OnlyOutputAfter(p.steps, p.lastRunIndex()) {
		s := base
		s.Kind, s.Expected, s.Line = StepCompare, runs[0].Command.Expected, runs[0].Command.Expected[0].Line
		s.Why = fmt.Sprintf("it repeats the command at line %d to show its output", prev.Line)
		s.Evidence = runs[0].Evidence
		steps = append(steps, s)
		runs = runs[1:]
	}
	cmds := make([]Command, len(runs))
	for k, r := range runs {
		cmds[k] = r.Command
	}
	run := commandSteps(base, cmds, lines)
	for k, r := range runs {
		s := &run[k]
		s.Stdin, s.Evidence = r.Stdin, append(s.Evidence, r.Evidence...)
		p.feedProgram(s)
		switch other := transcript.OtherShells[r.Program]; {
		case other != "" && s.Kind == StepRun:
			*s = omitted(*s, fmt.Sprintf("a command for %s (its prompt at line %d), not for a POSIX shell", other, r.Command.Line))
		case r.Program != "" && other == "":
			s.Why = fmt.Sprintf("a session of %s shown with its prompts: its input lines are typed into `%s`", r.Program, r.Command.Text)
			if transcript.HasSession(r.Program) {
				s.Session = r.Program
			}
		case r.Stdin != "":
			s.Why = fmt.Sprintf("it starts %s, and the lines after its prompts are typed into it", strings.TrimSpace(r.Command.Text))
			if prog := transcript.Started(r.Command.Text); prog != nil && transcript.HasSession(prog.Name) {
				s.Session, s.NewSession = prog.Name, true
			}
		}
	}
	return append(steps, p.catShows(run)...)
}

// Some programs ask their reader questions that have defaults (where to
// save a key, a passphrase, a package's name and version); a reader with
// nothing else to say presses Enter for each, and the program goes on.
var ruleDefaults = rule.Register(rule.Rule{ID: "input.defaults", Scope: rule.ScopeLine,
	Doc: "a program known to ask questions with defaults (ssh-keygen without -N, npm or yarn init without -y, adduser) gets Enter for each, as a reader accepting the defaults"})

// AnswersApt reports whether a step's input is the Student's yes to apt's
// question, not a page's input.
func AnswersApt(s Step) bool { return s.Stdin == "y\n" && transcript.AptAsks(s.Command.Text) }
