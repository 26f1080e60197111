package transcript

import (
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
)

// Context is what came before a block: it decides whose a bare `> ` is, and
// whether `# ` is a root prompt or a comment.
type Context struct {
	Lang string // the block's language
	// Before is the prose just before the block, at BeforeLine.
	Before     string
	BeforeLine int
	// Running is the command of the step before when it left a program
	// waiting for input (`node`), "" otherwise; at RunningLine.
	Running     string
	RunningLine int
}

// Run is one thing a transcript has the Student run: a shell command (which
// may start a program and feed it the lines after its prompts), or a REPL's
// program started for a transcript that shows its prompts and no command.
type Run struct {
	Command Command
	// Program is the REPL a run of REPL lines starts, or the shell of
	// another platform (OtherShells) a command is for; "" for a POSIX shell
	// command.
	Program string
	// Stdin is what is typed into the program the run starts.
	Stdin    string
	Evidence []rule.Evidence
}

// Transcript is a block read as a terminal or REPL session.
type Transcript struct {
	// Leading is output before the first prompt: it belongs to the command
	// run before the block.
	Leading []expect.Line
	Runs    []Run
	// Pictured holds the evidence that the block, before any command,
	// shows text printed at a prompt: a picture of the terminal later on
	// (prompt.printed-over), not output of the command run before it.
	Pictured []rule.Evidence
}

// The rules that decide whose a bare `> ` is.
var (
	RuleBareLang = rule.Register(rule.Rule{ID: "prompt.bare.lang", Scope: rule.ScopeBlock,
		Doc: "a bare `> ` in a block of a language whose REPL prints it (javascript, lua, r) is that REPL's prompt"})
	RuleBareStep = rule.Register(rule.Rule{ID: "prompt.bare.step", Scope: rule.ScopeStep,
		Doc: "a bare `> ` right after a command that started a REPL printing it (`node`, `R`) is that REPL's prompt"})
	RuleBareProse = rule.Register(rule.Rule{ID: "prompt.bare.prose", Scope: rule.ScopeBefore,
		Doc: "a bare `> ` after a sentence that names a REPL printing it (\"in the node REPL\") is that REPL's prompt"})
)

// shellContinuation is the shell's `> ` on the lines of a command that is not complete.
var shellContinuation = func() *Prompt {
	for _, p := range Prompts {
		if p.Continuation && p.Program == "" {
			return p
		}
	}
	panic("no shell continuation prompt")
}()

// reader walks a block's lines.
type reader struct {
	ctx  Context
	root bool // `# ` is a root prompt
	// angle: the block is a shell transcript drawn with `> ` prompts.
	angle bool
	out   Transcript
	cur   *Run
	open  bool // the current shell command needs more lines
	// program is the REPL reading the current run's input; inputOpen says
	// its last line was input, so a continuation prompt goes on it.
	program   *Program
	inputOpen bool
	shellSeen bool // a shell prompt came before
	// typing: the current shell command reads what is typed and prints no
	// prompt (`cat > notes.txt`, `sort`, `bc -q`): lines without a prompt
	// are typed into it, up to a Ctrl-D.
	typing  bool
	started bool // a prompt came before
	owner   *rule.Evidence
}

// Read reads a block as a transcript: each prompt's owner runs the line
// after it, and the lines up to the next prompt are what it printed. Lines
// starting with `#` in a shell transcript that is not root's are comments.
func Read(lines []markdown.CodeLine, c Context) Transcript {
	lines = plainTranscript(lines)
	r := &reader{ctx: c, root: rootTranscript(lines, c.Lang), angle: codelang.Shell[c.Lang] && shellAngle(lines)}
	for _, l := range lines {
		r.line(l)
	}
	return r.finish(lines)
}

// Starts reports whether a block is a transcript because of its first
// line: a REPL's prompt, or a bare `> ` the context gives to a REPL or to
// the shell, or a root prompt; with the evidence.
func Starts(lines []markdown.CodeLine, c Context) ([]rule.Evidence, bool) {
	lines = plainTranscript(lines)
	r := &reader{ctx: c, root: rootTranscript(lines, c.Lang), angle: codelang.Shell[c.Lang] && shellAngle(lines)}
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		p, m := r.match(l.Text)
		if p != nil && p.Header {
			continue
		}
		if p == nil || p.Continuation || p.Marker {
			return nil, false
		}
		if p.Program == "" && !p.Bare && !p.Root {
			return nil, false // an ordinary shell prompt: the terminal session's own reading
		}
		if p.Bare && p.Program == "" && !angleTranscript(lines, c.Lang) {
			return nil, false
		}
		ev := []rule.Evidence{p.At(l.Line, m)}
		if r.owner != nil {
			ev = append(ev, *r.owner)
		}
		return ev, true
	}
	return nil, false
}

func (r *reader) line(l markdown.CodeLine) {
	if r.cur != nil && r.cur.Program == "" && r.open {
		t := l.Text
		if s := strings.TrimLeft(t, " \t"); strings.HasPrefix(s, "> ") || s == ">" {
			t = strings.TrimPrefix(strings.TrimPrefix(s, ">"), " ")
			r.note(shellContinuation.At(l.Line, l.Text[:len(l.Text)-len(t)]))
		}
		r.cur.Command.Text += "\n" + t
		r.cur.Command.EndLine = l.Line
		r.open = incomplete(r.cur.Command.Text)
		return
	}
	p, m := r.match(l.Text)
	rest := l.Text[len(m):]
	switch {
	case p != nil && p.Header:
		// A two-line prompt's first line: the command is on the next.
	case p == nil && r.typing:
		r.typed(l)
	case p == nil:
		if strings.HasPrefix(strings.TrimSpace(l.Text), "#") && r.program == nil && !r.printsFile() {
			return // a comment
		}
		if r.program == nil && r.cur != nil && arrowNote.MatchString(l.Text) {
			r.note(RuleArrowNote.At(l.Line, "=>"))
			return // the author's note on the command, not what it printed
		}
		if r.program == nil && slashNote.MatchString(l.Text) && r.afterBlank() {
			if r.cur != nil {
				r.note(RuleSlashNote.At(l.Line, "//"))
			}
			return // the author's heading for the commands below it
		}
		r.output(expect.Line{Line: l.Line, Text: l.Text})
	case p.Marker:
		r.output(expect.Line{Line: l.Line, Text: rest})
	case p.Continuation:
		r.cur.Stdin += rest + "\n"
		r.cur.Command.EndLine = l.Line
	case p.Program == "" && !p.Bare && printedText(strings.TrimSpace(rest)):
		// `$ Hello world!` a minute later: what a background job printed
		// over the prompt, not a command.
		if r.cur == nil {
			// Before any command: the block pictures the terminal later on.
			r.out.Pictured = append(r.out.Pictured, RulePrintedOver.At(l.Line, m))
			return
		}
		r.output(expect.Line{Line: l.Line, Text: rest})
		r.note(RulePrintedOver.At(l.Line, m))
	case p.Program == "" || OtherShells[p.Program] != "":
		r.shellCommand(p, m, l, rest)
	default:
		r.replInput(p, m, l, rest)
	}
}

// RuleArrowNote reads a `=> words` line under a shell command as the
// author's note.
var RuleArrowNote = rule.Register(rule.Rule{ID: "transcript.arrow-note", Scope: rule.ScopeLine,
	Doc: "in a shell transcript, a line that opens with `=>` and goes on in words (`=> the short options come after -o`) is the author's note on the command above, not its output; a REPL's `=> 42` is its result"})

// RuleSlashNote reads a `// words` line after a blank one, in a shell
// transcript, as the author's heading for the commands below it.
var RuleSlashNote = rule.Register(rule.Rule{ID: "transcript.slash-note", Scope: rule.ScopeLine,
	Doc: "in a shell transcript, a line that opens with `//` and words after a blank line (`// Build with make`) is the author's heading for the commands below it, not output of the command above: no shell prints it, and a program's output runs on without a blank line"})

// slashNote is such a line: `//`, then words.
var slashNote = regexp.MustCompile(`^\s*//\s*\pL`)

// afterBlank: no command has printed yet, or the last line the current one
// printed is blank.
func (r *reader) afterBlank() bool {
	if r.cur == nil {
		return true
	}
	out := r.cur.Command.Expected
	return len(out) > 0 && strings.TrimSpace(out[len(out)-1].Text) == ""
}

// arrowNote is such a line: `=>` and three words or more, or words in a
// script other than Latin.
var arrowNote = regexp.MustCompile(`^\s*=>\s+(?:\S+\s+\S+\s+\S+|.*[^\x00-\x7f])`)

// RulePrintedOver reads text after a shell prompt that is no command as
// output.
var RulePrintedOver = rule.Register(rule.Rule{ID: "prompt.printed-over", Scope: rule.ScopeLine,
	Doc: "in a transcript, text after a later shell prompt that does not read as a command (`$ Hello world!`, `$ ...`) is what a background job printed over the prompt, or time passing: output, not a command"})

// printedText: text after a prompt that reads as a sentence someone
// printed, not a command: it starts with a capital letter and ends as a
// sentence ends (`Greetings vagrant!`), or it is an ellipsis.
var printedText = regexp.MustCompile(`^(?:\.{3,}|…+|\p{Lu}\p{Ll}*(?:[\s,]+[\p{L}\d'-]+)*[.!?])$`).MatchString

// note adds evidence to the current run, once a rule.
func (r *reader) note(e rule.Evidence) {
	if !slices.ContainsFunc(r.cur.Evidence, func(x rule.Evidence) bool { return x.Rule == e.Rule }) {
		r.cur.Evidence = append(r.cur.Evidence, e)
	}
}

// endOfInput is how a transcript shows the Ctrl-D that ends what is typed.
var endOfInput = regexp.MustCompile(`(?i)^\s*(?:\^D|<?ctrl[-+]d>?|\[ctrl[-+]d\])\s*$`)

// RuleTypedAfter makes the lines after a command that reads what is typed
// its input.
var RuleTypedAfter = rule.Register(rule.Rule{ID: "input.typed-after", Scope: rule.ScopeLine,
	Doc: "in a transcript, the lines without a prompt after a command that reads what is typed and prints no prompt (`cat > notes.txt`, `sort`, `bc -q`) are typed into it, up to a `^D`; what follows is its output"})

// typed reads a line typed into the current command, or the Ctrl-D that
// ends the typing.
func (r *reader) typed(l markdown.CodeLine) {
	if endOfInput.MatchString(l.Text) {
		r.typing = false
		return
	}
	r.note(RuleTypedAfter.At(l.Line, strings.TrimSpace(r.cur.Command.Text)))
	r.cur.Stdin += l.Text + "\n"
	r.cur.Command.EndLine = l.Line
}

func (r *reader) output(l expect.Line) {
	r.inputOpen = false
	if r.program != nil && strings.TrimSpace(l.Text) == "" {
		return // the space a REPL's transcript leaves between its prompts (IPython's), not printed output
	}
	if r.cur == nil {
		r.out.Leading = append(r.out.Leading, l)
		return
	}
	r.cur.Command.Expected = append(r.cur.Command.Expected, l)
}

// becomesRoot makes the shell root's: `sudo -i`, `sudo su`, `su -`.
var becomesRoot = regexp.MustCompile(`^(?:sudo\s+(?:-[is]\b|su\b)|su(?:\s+-|\s+root|\s*$))`)

func (r *reader) shellCommand(p *Prompt, m string, l markdown.CodeLine, rest string) {
	r.shellSeen, r.started = true, true
	if p.Bare {
		r.angle = true
	}
	run := Run{Command: Command{Line: l.Line, EndLine: l.Line, Text: rest}, Evidence: []rule.Evidence{p.At(l.Line, m)}}
	if OtherShells[p.Program] != "" {
		run.Program = p.Program
	}
	r.out.Runs = append(r.out.Runs, run)
	r.cur = &r.out.Runs[len(r.out.Runs)-1]
	r.program, r.inputOpen = nil, false
	r.typing = false
	if run.Program == "" {
		r.program = Started(rest)
		r.open = incomplete(rest)
		r.typing = r.program == nil && Waits(rest)
		r.root = r.root || becomesRoot.MatchString(strings.TrimSpace(rest))
	}
}

func (r *reader) replInput(p *Prompt, m string, l markdown.CodeLine, rest string) {
	r.started = true
	if r.cur == nil || r.program == nil || r.program.Name != p.Program {
		prog := ProgramNamed(p.Program)
		r.out.Runs = append(r.out.Runs, Run{Command: Command{Line: l.Line, EndLine: l.Line, Text: prog.Command}, Program: p.Program})
		r.cur, r.program = &r.out.Runs[len(r.out.Runs)-1], prog
	}
	if len(r.cur.Evidence) == 0 || r.cur.Program == "" && len(r.cur.Evidence) == 1 {
		r.cur.Evidence = append(r.cur.Evidence, p.At(l.Line, m))
		if r.owner != nil {
			r.cur.Evidence = append(r.cur.Evidence, *r.owner)
		}
	}
	r.cur.Stdin += rest + "\n"
	r.cur.Command.EndLine = l.Line
	r.inputOpen = true
}

// match is the prompt at the start of a line that the context allows, and
// the text it matched; nil when the line has none.
func (r *reader) match(text string) (*Prompt, string) {
	var found *Prompt
	for _, p := range Prompts {
		if p.Match(text) == "" || !r.allows(p) {
			continue
		}
		if r.program != nil && p.Program == r.program.Name && !p.Bare {
			// The running REPL's own prompt, even where a shell prints one
			// like it (tclsh's `% ` is zsh's): what is typed at it is the
			// REPL's until it ends.
			return p, p.Match(text)
		}
		if p.speaks(r.ctx.Lang) {
			return p, p.Match(text) // the block's language settles a shared prompt (`x=> `)
		}
		if found == nil {
			found = p
		}
	}
	if found == nil {
		return nil, ""
	}
	return found, found.Match(text)
}

// allows reports whether the prompt can be one here.
func (r *reader) allows(p *Prompt) bool {
	running := r.program != nil && r.program.Name == p.Program
	switch {
	case p.Root:
		return r.root
	case p.Continuation:
		return p.Program != "" && running && r.inputOpen
	case p.Marker:
		return running
	case p.Bare:
		return r.bareOwner() == p.Program
	case p.Program == "" || OtherShells[p.Program] != "":
		return true
	}
	// A REPL's prompt: the program's while it runs; otherwise only the
	// prompt that opens the block (after a shell command that started no
	// program, or another program's prompt, it is output).
	return running || r.program == nil && !r.started
}

// bareOwner is the program whose prompt a bare `> ` is here ("" the shell),
// "-" when it is none's (output).
func (r *reader) bareOwner() string {
	r.owner = nil
	if r.program != nil {
		if r.program.ownsBare() {
			return r.program.Name
		}
		return "-"
	}
	if r.angle {
		return ""
	}
	if r.shellSeen || r.started || codelang.Shell[r.ctx.Lang] {
		return "-"
	}
	for _, p := range Prompts {
		if p.Bare && p.Program != "" && p.speaks(r.ctx.Lang) {
			r.owner = ptr(RuleBareLang.At(0, r.ctx.Lang))
			return p.Program
		}
	}
	if p := Started(r.ctx.Running); p != nil && p.ownsBare() {
		r.owner = ptr(RuleBareStep.At(r.ctx.RunningLine, r.ctx.Running))
		return p.Name
	}
	for _, p := range Programs {
		if m := p.spoken.FindString(r.ctx.Before); m != "" && p.ownsBare() {
			r.owner = ptr(RuleBareProse.At(r.ctx.BeforeLine, m))
			return p.Name
		}
	}
	return ""
}

func ptr(e rule.Evidence) *rule.Evidence { return &e }

// finish reads a transcript's `cd` into the author's own home as the
// reader's and drops empty commands (a bare `$`).
func (r *reader) finish(lines []markdown.CodeLine) Transcript {
	intoOwnHome(r.out.Runs, lines)
	kept := r.out.Runs[:0]
	for _, run := range r.out.Runs {
		if strings.TrimSpace(run.Command.Text) != "" {
			kept = append(kept, run)
		}
	}
	r.out.Runs = kept
	return r.out
}

// Feed reads a block typed into a program that is already waiting for input
// (the command `running` started it): the lines after the program's prompts
// are typed and the others shown; a block without its prompts is typed
// whole. ok is false when the block holds another program's prompts.
func Feed(lines []markdown.CodeLine, running string) (stdin string, shown []expect.Line, ok bool) {
	prog := Started(running)
	r := &reader{program: prog, cur: &Run{}}
	prompted := false
	for _, l := range lines {
		if p, _ := r.match(l.Text); p != nil && prog != nil && p.Program == prog.Name && !p.Marker {
			prompted = true
		}
	}
	if !prompted {
		// A reader types the lines, not the block's indentation: a dot
		// command (`.tables`) or a statement works only from the line's
		// start, and a nested line keeps its indent relative to the rest.
		var in strings.Builder
		cut := commonIndent(lines)
		for _, l := range lines {
			in.WriteString(strings.TrimPrefix(l.Text, cut) + "\n")
		}
		if prog != nil && prog.typed != nil {
			return prog.typed(in.String()), nil, true
		}
		return in.String(), nil, true
	}
	for _, l := range lines {
		p, m := r.match(l.Text)
		switch {
		case p == nil:
			r.output(expect.Line{Line: l.Line, Text: l.Text})
		case p.Marker:
			r.output(expect.Line{Line: l.Line, Text: l.Text[len(m):]})
		case p.Program == prog.Name:
			r.cur.Stdin += l.Text[len(m):] + "\n"
			r.inputOpen = true
		default:
			return "", nil, false
		}
	}
	return r.cur.Stdin, r.cur.Command.Expected, true
}

// Prompted reports whether a block holds a line with a prompt of the
// program the command started.
func Prompted(lines []markdown.CodeLine, running string) bool {
	prog := Started(running)
	if prog == nil {
		return false
	}
	r := &reader{program: prog, cur: &Run{}}
	for _, l := range lines {
		if p, _ := r.match(l.Text); p != nil && p.Program == prog.Name && !p.Marker && !p.Continuation {
			return true
		}
	}
	return false
}

// angleTranscript reports whether a block that opens with a bare `> ` no
// REPL owns is a shell transcript: a terminal session, or an untagged block
// whose `> ` lines all read as commands (not a quotation).
func angleTranscript(lines []markdown.CodeLine, lang string) bool {
	if codelang.Console[lang] {
		return true
	}
	if codelang.Shell[lang] {
		return shellAngle(lines)
	}
	if lang != "" {
		return false
	}
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l.Text, "> "); ok && !readsAsCommand(strings.TrimSpace(rest)) {
			return false
		}
	}
	return true
}

// shellAngle reports whether a shell-tagged block is a transcript drawn with
// `> ` prompts: its first line opens with one, and every `> ` line reads as a
// command. No shell script starts with a bare redirection of nothing, while
// a script whose later lines start with `> ` continues a command (a here
// document shown as typed) and does not open with one.
func shellAngle(lines []markdown.CodeLine) bool {
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		if !strings.HasPrefix(l.Text, "> ") {
			return false
		}
		break
	}
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l.Text, "> "); ok && !readsAsCommand(strings.TrimSpace(rest)) {
			return false
		}
	}
	return true
}

// rootTranscript reports whether `# ` starts commands in a block: a
// terminal session or an untagged block (never a shell script, whose `#` is
// a comment) with no other prompt, whose first line is a `# ` line, whose
// `# ` lines all read as commands, and that shows output after them or is
// tagged as a session.
func rootTranscript(lines []markdown.CodeLine, lang string) bool {
	if codelang.Shell[lang] || !codelang.Console[lang] && lang != "" && lang != "text" && lang != "txt" && lang != "plain" {
		return false
	}
	hashes, others, first := 0, 0, ""
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		if first == "" {
			first = t
		}
		if HasShellPrompt(l.Text) {
			return false
		}
		if strings.HasPrefix(t, "#") {
			if !readsAsCommand(strings.TrimSpace(strings.TrimPrefix(t, "#"))) || !strings.HasPrefix(t, "# ") {
				return false
			}
			hashes++
			continue
		}
		others++
	}
	return hashes > 0 && strings.HasPrefix(first, "# ") && (others > 0 || codelang.Console[lang])
}

// commandLike is a line that starts as a command: a lower-case program
// name, then arguments or nothing, with no sentence's end.
var commandLike = regexp.MustCompile(`^[a-z][\w.+-]*(?:\s+\S.*)?$`)

// ReadsAsCommand reports whether text (a comment's, a line's) reads as a
// command line rather than words: a program's name, its arguments, no
// sentence's end, and it parses.
func ReadsAsCommand(t string) bool { return readsAsCommand(strings.TrimSpace(t)) }

func readsAsCommand(t string) bool {
	if !commandLike.MatchString(t) || strings.HasSuffix(t, ".") || strings.HasSuffix(t, ":") || strings.HasSuffix(t, "!") || strings.HasSuffix(t, "?") {
		return false
	}
	// `# test.json, the file's content`: a file's name is what a comment
	// over its lines says, not a program to run.
	if name := strings.Fields(t)[0]; codelang.IsFileName(name) && !codelang.KnownProgram(name) {
		return false
	}
	return !incomplete(t) && parses(t)
}

func trimIndent(s string) string { return strings.TrimLeft(s, " \t") }

// filePrinters print a file's lines, whatever they hold: after `$ cat
// script.sh` a line starting with `#` (its #!, its comments) is output.
var filePrinters = map[string]bool{"cat": true, "head": true, "tail": true, "sed": true, "awk": true, "grep": true, "sort": true,
	"uniq": true, "cut": true, "nl": true, "tac": true, "less": true, "more": true, "column": true, "tr": true, "diff": true}

// printsFile: the current command prints a file's lines, and no blank line
// ended them yet: a line starting with `#` under it is more of the file (a
// `#` line after a blank one is the page's note on the listing).
func (r *reader) printsFile() bool {
	if r.cur == nil {
		return false
	}
	if out := r.cur.Command.Expected; len(out) > 0 && strings.TrimSpace(out[len(out)-1].Text) == "" {
		return false
	}
	for _, call := range shell.Calls(r.cur.Command.Text) {
		if len(call) > 1 && filePrinters[path.Base(call[0])] {
			return true
		}
	}
	return false
}

// commonIndent is the leading whitespace every non-blank line shares.
func commonIndent(lines []markdown.CodeLine) string {
	cut, first := "", true
	for _, l := range lines {
		if strings.TrimSpace(l.Text) == "" {
			continue
		}
		lead := l.Text[:len(l.Text)-len(strings.TrimLeft(l.Text, " \t"))]
		if first {
			cut, first = lead, false
		}
		for !strings.HasPrefix(lead, cut) {
			cut = cut[:len(cut)-1]
		}
	}
	return cut
}
