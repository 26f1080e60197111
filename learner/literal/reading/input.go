package reading

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/blockshape"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/servers"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"
)

// What a program waiting for input is, how a transcript is read and how a
// program is fed a page's input are the transcript package's; the planner
// decides which block is input to which step.
var (
	// scriptRun runs a file the tutorial wrote; it reads input if the file does.
	scriptRun  = regexp.MustCompile(`^(?:(?:python[\d.]*|node|ruby|sh|bash|perl|php|go\s+run)\s+([\w./-]+)|(\./[\w./-]+))\s*$`)
	readsInput = regexp.MustCompile(`\binput\(|\breadline\b|\bstdin\b|\bSTDIN\b|\bgets\b|\bread\s+-?\w|\bScanner\b|\bgetline\b|\bscanf\b|\bfgets\b`)
)

// WithInput is the shell text that runs a command with the tutorial's input
// as its standard input (transcript.WithInput).
func WithInput(command, stdin string) string { return transcript.WithInput(command, stdin) }

// InSession is the shell text that types stdin into the page's session of
// the program command starts (transcript.InSession); ok is false when the
// program has none.
func InSession(command, stdin string, fresh bool, id int) (string, bool) {
	return transcript.InSession(command, stdin, fresh, id)
}

// readsStdin reports whether a command starts a program that waits for
// what the user types.
func (p *planner) readsStdin(command string) bool {
	c := strings.TrimSpace(command)
	if transcript.Waits(c) {
		return true
	}
	m := scriptRun.FindStringSubmatch(c)
	if m == nil {
		return false
	}
	file := path.Base(m[1] + m[2])
	for i := len(p.steps) - 1; i >= 0; i-- {
		if s := p.steps[i]; s.Kind == StepWrite && path.Base(s.File.Path) == file {
			return readsInput.MatchString(s.Content)
		}
	}
	return false
}

// feedInput folds block b into the last command as its standard input when
// that command waits for input and the block is typed into it: it shows the
// program's prompts, the sentence before it says to type it, or it is in the
// language of the REPL the command started.
func (p *planner) feedInput(b markdown.Block, ctx blockContext, lang string) bool {
	idx := p.lastRunIndex()
	if idx < 0 {
		return false
	}
	prev := p.steps[idx]
	cmd := strings.TrimSpace(prev.Command.Text)
	// A client opened "in a new terminal" (`redis-cli`, `psql`) is where the
	// next blocks are typed, not a server to leave running.
	if prev.Background && (transcript.Started(cmd) == nil || servers.Known(cmd)) || !p.readsStdin(cmd) {
		return false
	}
	prompted := transcript.Prompted(b.Code, cmd)
	if codelang.Console[lang] && !prompted || !prompted && shownWithPrompts(prev) {
		// A session the page drew with its prompts (`>>> `) is typed only
		// where the page draws them: a later block without them is code
		// of its own.
		return false
	}
	if !prompted && (transcript.HasShellPrompt(b.Code[0].Text) || namesFileOfKind(ctx.before, lang)) {
		// `$ ruby hello.rb` is back at the shell; "create `hello.rb` and
		// write:" gives a file its lines: neither is typed into the program.
		return false
	}
	if prog := transcript.Started(cmd); prog != nil && !prog.Speaks(lang) && transcript.SpokenBy(lang) != nil {
		return false // a block in another REPL's language (a JavaScript session, then an R one)
	}
	if transcript.Left(prev.Stdin) {
		return false // the last line typed in (`exit`, `.quit`) ended the program
	}
	filter := transcript.IsFilter(cmd)
	for _, s := range p.steps[idx+1:] {
		if len(s.AltRun) > 0 {
			return false // a block since then may itself be a command
		}
		if filter && s.Kind == StepCompare {
			return false // the filter printed its result: it has ended
		}
	}
	// A shell block is typed into a file being written, not into a program;
	// but after a client's prompt opened (`redis-cli`), a block tagged shell
	// whose lines start no program the reader knows (`SET key 1`, `expire
	// key 120`) is that client's commands.
	if codelang.Shell[lang] && !transcript.WritesFile(cmd) && (transcript.Started(cmd) == nil || p.startsShellProgram(b.Code, cmd)) {
		return false
	}
	var ev rule.Evidence
	prog := transcript.Started(cmd)
	switch {
	case prompted:
		ev = transcript.RuleAfterStart.At(prev.Line, cmd)
	case prog != nil && (prog.Speaks(lang) || codelang.Shell[lang] || (lang == "" || textLangs[lang]) && prog.Commands(b.Code)):
		// A shell-tagged block here was let through above: its lines start
		// no program, so they are the client's; so are plain lines of its
		// own command language (`PING`, `SELECT ...`).
		ev = transcript.RuleAfterStart.At(prev.Line, cmd)
	case transcript.InputIntro.MatchString(leadin.LastSentence(ctx.before)):
		ev = transcript.RuleIntroduced.At(ctx.beforeLine, transcript.InputIntro.FindString(leadin.LastSentence(ctx.before)))
	default:
		return false
	}
	in, out, ok := transcript.Feed(b.Code, cmd)
	if !ok {
		return false
	}
	s := &p.steps[idx]
	s.Background = false // it reads the blocks, then ends with its input
	s.Stdin += in
	s.Input = append(s.Input, b.Line)
	s.Command.Expected = append(s.Command.Expected, out...)
	s.Why = strings.TrimPrefix(s.Why+"; ", "; ") + fmt.Sprintf("the block at line %d is typed into it", b.Line)
	s.Evidence = append(s.Evidence, ev)
	return true
}

// startsShellProgram: the block reads as commands and one of its lines
// starts a program the reader knows, so it is the shell's, not the program
// cmd started; after a database client, a client's word does not count
// (`set name 1` after redis-cli is the client's; `ls` is the shell's).
func (p *planner) startsShellProgram(code []markdown.CodeLine, cmd string) bool {
	return blockshape.LooksLikeCommands(code) && slices.ContainsFunc(code, func(l markdown.CodeLine) bool {
		name := shell.CommandName(l.Text)
		return (codelang.KnownProgram(name) || p.tools[name]) && !transcript.ClientWord(cmd, name)
	})
}

// namesFileOfKind says whether prose names a file of a block language's
// kind (`hello.rb` for ruby).
func namesFileOfKind(prose, lang string) bool {
	exts := codelang.Extensions[lang]
	return len(exts) > 0 && len(destination.FilesNamed(prose, func(name string) bool { return slices.Contains(exts, path.Ext(name)) })) > 0
}

// replSteps reads a block that opens with a REPL's prompt (`>>> `,
// `sqlite> `, node's `> `), or a root shell's `# `, with no command that
// started the program: each run of prompts starts its program and types the
// lines in, and the lines up to the next prompt are what it printed.
func (p *planner) replSteps(base Step, b markdown.Block, ctx blockContext, lang string) ([]Step, bool) {
	tc := p.transcriptContext(ctx, lang)
	ev, ok := transcript.Starts(b.Code, tc)
	if !ok {
		return nil, false
	}
	if first := ev[0].Rule; (first == "prompt.shell.angle" || first == "prompt.shell.root" || !transcript.PromptSpeaks(first, lang)) && leadin.IntroducesOutput(ctx.before) {
		// Output that happens to open with `> `, `# ` or `>>> ` (a log line
		// a program printed): the prose says it is output, and the block's
		// tag is not the REPL's language.
		return nil, false
	}
	return p.transcriptSteps(base, b.Code, tc), true
}

// proseStart reads a block in a program's language after a sentence that
// starts the program ("open the sqlite3 shell"): the program is run with the
// block typed into it.
func (p *planner) proseStart(base Step, b markdown.Block, ctx blockContext, lang string) (Step, bool) {
	if lang == "" || codelang.IsShellish(lang) {
		return Step{}, false
	}
	cmd, ev, ok := transcript.ProseStart(ctx.before, ctx.beforeLine, lang)
	if !ok {
		return Step{}, false
	}
	s := base
	s.Kind, s.Line = StepRun, blockshape.FirstContentLine(b.Code, b.Line)
	s.Command = Command{Line: s.Line, EndLine: b.EndLine, Text: cmd}
	s.Stdin, _, _ = transcript.Feed(b.Code, cmd)
	s.Why = fmt.Sprintf("the prose at line %d starts %s: the %s block is typed into it", ctx.beforeLine, cmd, codelang.Name(lang))
	s.Evidence = []rule.Evidence{ev}
	return s, true
}

// transcriptContext is what came before a block, for the transcript reader.
func (p *planner) transcriptContext(ctx blockContext, lang string) transcript.Context {
	tc := transcript.Context{Lang: lang, Before: ctx.before, BeforeLine: ctx.beforeLine}
	if i := p.lastRunIndex(); i >= 0 && p.readsStdin(p.steps[i].Command.Text) {
		tc.Running, tc.RunningLine = strings.TrimSpace(p.steps[i].Command.Text), p.steps[i].Line
	}
	return tc
}

// shownWithPrompts: the step is a REPL session read from a transcript that
// shows the program's own prompts, not a command that starts the program.
func shownWithPrompts(s Step) bool {
	return s.Command.Text != "" && len(s.Evidence) > 0 && strings.HasPrefix(s.Evidence[0].Rule, "prompt.") && !strings.HasPrefix(s.Evidence[0].Rule, "prompt.shell")
}

// openedSession reads a block without prompts whose first line starts a
// program and whose next lines are typed into it (transcript.OpensSession):
// one step runs the first line fed the rest; shell lines after the one
// that leaves the program are steps of their own.
func (p *planner) openedSession(base Step, b markdown.Block, lang string) ([]Step, bool) {
	if blockshape.HasPromptLine(b.Code) {
		return nil, false
	}
	o, ok := transcript.OpensSession(b.Code, lang, func(text string) bool {
		name := shell.CommandName(text)
		return codelang.KnownProgram(name) || p.tools[name]
	})
	if !ok {
		return nil, false
	}
	s := base
	s.Kind, s.Line, s.EndLine = StepRun, o.Command.Line, o.Typed[len(o.Typed)-1].Line
	s.Command = Command{Line: s.Line, EndLine: s.EndLine, Text: o.Command.Text}
	s.Stdin, s.Command.Expected, _ = transcript.Feed(o.Typed, o.Command.Text)
	s.Why = fmt.Sprintf("its first line starts %s and the lines after it are typed into it", o.Program.Name)
	s.Evidence = append(s.Evidence, transcript.RuleOpensSession.At(b.Line, o.Command.Text))
	if len(o.After) == 0 {
		return []Step{s}, true
	}
	return append([]Step{s}, commandSteps(base, scriptCommands(o.After), o.After)...), true
}
