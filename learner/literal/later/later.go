// Package later places a code block by what the page does after it: the
// command right after an example runs the file the example is (`bash
// script.sh`, or `make`, which reads the Makefile), by the page's
// convention for its examples (Scripts); a
// Makefile the page writes later builds from the file a program is
// (Sources); a sentence refers back to code shown above as what to save
// (RefersBack, with LastUnplaced the block it means); a sentence after a
// script says what running it does, and the reader runs it as the page ran
// its scripts before (RunsInWords); a block made of lines of a file written
// before quotes it (Quoted). The reading (package reading) asks it once its steps are known and turns each placement into
// the file's write (or, for RunsInWords, the run), with the rules
// file.run-after, file.used-later, file.named-later and file.run-as-before.
package later

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/makerule"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec/markdown"
)

// Pages of script examples set a convention once ("scripts end in .sh:
// `touch script.sh`") and then show each example as code followed by the
// run that prints its output (`$ bash script.sh`). The code is not typed
// at the prompt: it is the script the run runs, each example replacing the
// last. What depends on what places the block: the command right after it
// runs a file no step writes, and the code is of a kind that file holds.
// It is the page's convention, not a forgotten name, when the page names
// the file before the block or runs it the same way after another block;
// a name used once and never given stays the page's gap.

// Page is what Scripts looks at: the page's blocks and the steps read so far.
type Page struct {
	Blocks []markdown.Block
	Runs   []Run   // the commands the reader runs, in order
	Writes []Write // the files the page writes
	// Free reports whether every step read from block b is a command or
	// unplaced: a block placed already (a file, output, a template) is not
	// free.
	Free func(b markdown.Block) bool
	// Kind reports whether a block of the language holds the file's kind
	// of code (by its extension).
	Kind func(lang, file string) bool
}

// Run is a command the reader runs, at its line.
type Run struct {
	Line    int
	Command string
}

// Write is a file the page writes, at the line of its block, with its text.
type Write struct {
	Line    int
	Path    string
	Content string
}

// Placement says block Block is the file File, which the command at line
// Run runs with Runner ("" for `./file`); How says how the page sets the
// convention.
type Placement struct {
	Block  markdown.Block
	File   string
	Runner string
	Run    int
	How    string
}

// Scripts finds the blocks the command after them runs as a file, where
// the page's convention says so.
func Scripts(p Page) []Placement {
	var found []Placement
	for _, r := range p.Runs {
		if targets, ok := readsMakefile(r.Command); ok {
			if b, ok := blockBefore(p.Blocks, r.Line, "Makefile"); ok && p.isMakefile(b, targets, r.Line) &&
				!slices.ContainsFunc(found, func(f Placement) bool { return f.Block.Line == b.Line }) {
				found = append(found, Placement{Block: b, File: "Makefile", Runner: "make", Run: r.Line, How: makeReads})
			}
			continue
		}
		file, runner, ok := shell.RunsScript(r.Command)
		if !ok || path.IsAbs(file) {
			continue
		}
		b, ok := blockBefore(p.Blocks, r.Line, file)
		if ok && slices.ContainsFunc(found, func(f Placement) bool { return f.Block.Line == b.Line }) {
			continue // run again (with other input): the first run placed it
		}
		if ok && p.runsAsFile(b, file, runner, r.Line) {
			found = append(found, Placement{Block: b, File: path.Clean(file), Runner: runner, Run: r.Line})
		}
	}
	var out []Placement
	for _, f := range found {
		if f.How == makeReads {
			out = append(out, f) // make's own convention: nothing for the page to say
			continue
		}
		if f.How = p.conventionSaid(f, found); f.How != "" {
			out = append(out, f)
		}
	}
	return out
}

// Why says why the block is the file the command after it runs.
func (f Placement) Why() string {
	if f.Runner == "make" {
		return fmt.Sprintf("line %d runs make right after it: this block is the Makefile it reads (%s)", f.Run, f.How)
	}
	return fmt.Sprintf("line %d runs %s right after it and no step writes it: this block is that file (%s)", f.Run, f.File, f.How)
}

// makeReads is why a block before `make` is the Makefile.
const makeReads = "make, given no -f, reads the Makefile of the folder it runs in"

// readsMakefile: the command is `make` (with targets or variables) reading
// the folder's own Makefile: no -f, -C or --file. targets are the targets
// it names.
func readsMakefile(command string) (targets []string, ok bool) {
	calls := shell.Calls(command)
	if len(calls) != 1 || len(calls[0]) == 0 || calls[0][0] != "make" {
		return nil, false
	}
	for _, w := range calls[0][1:] {
		if strings.HasPrefix(w, "-f") || strings.HasPrefix(w, "-C") || strings.HasPrefix(w, "--file") || strings.HasPrefix(w, "--directory") || w == "--makefile" {
			return nil, false
		}
		if !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
			targets = append(targets, w)
		}
	}
	return targets, true
}

// isMakefile: block b, just before a `make` asking for targets, is the
// Makefile it reads: a make block, or any block that defines the rule
// make is asked for (`hello:` before `make hello`; a rule with its recipe
// before plain `make`), free, not a transcript. A page that has the
// reader make the file (`touch Makefile`) and then edit it shows each new
// version so: a rule make is asked for is no step before it.
func (p Page) isMakefile(b markdown.Block, targets []string, run int) bool {
	if p.runsAsFile(b, "Makefile", "make", run) {
		return true
	}
	return makerule.Defines(b.Text, targets) && p.Free(b) && !transcript.HasShellPrompt(b.Text)
}

// blockBefore is the code block just before the one holding line, with no
// heading between them (a new section starts a new example), past blocks
// that only prepare file to run (`chmod +x script.py`).
func blockBefore(blocks []markdown.Block, line int, file string) (markdown.Block, bool) {
	at := slices.IndexFunc(blocks, func(b markdown.Block) bool {
		return b.Kind == markdown.BlockCode && line >= b.Line && line <= max(b.EndLine, b.Line)
	})
	for i := at - 1; i >= 0; i-- {
		switch b := blocks[i]; b.Kind {
		case markdown.BlockHeading:
			return markdown.Block{}, false
		case markdown.BlockCode:
			if prepares(b.Text, file) {
				continue
			}
			return b, len(b.Code) > 0
		}
	}
	return markdown.Block{}, false
}

// runsAsFile: block b can be the file the command at line run runs: a
// script of a kind the runner runs, not a transcript or an output, that
// neither names the file itself nor is placed already, nor only changes
// the shell, and no step writes the file between it and the run. Once the
// page has written the file, a block before its run is more likely a step
// before it than a new version of it, unless it starts as a script does.
func (p Page) runsAsFile(b markdown.Block, file, runner string, run int) bool {
	fits := p.Kind(b.Lang, file)
	switch {
	case shell.IsShell(runner):
		fits = codelang.Shell[b.Lang]
	case runner == "":
		// `./file` runs it by its #! line, or as a shell script.
		fits = codelang.Shell[b.Lang] && (path.Ext(file) == "" || p.Kind(b.Lang, file)) || fits && strings.HasPrefix(b.Text, "#!")
	}
	if !fits || shell.NamesFile(b.Text, file) || onlyChangesTheShell(b.Text) || !p.Free(b) {
		return false
	}
	for _, w := range p.Writes {
		if path.Clean(w.Path) != path.Clean(file) {
			continue
		}
		if w.Line > b.EndLine && w.Line < run || w.Line < b.Line && !strings.HasPrefix(b.Text, "#!") {
			return false
		}
	}
	return true
}

// conventionSaid says how the page sets the convention for f ("" when it
// does not): it names the file before the block, or runs it the same way
// after another block.
func (p Page) conventionSaid(f Placement, found []Placement) string {
	named := regexp.MustCompile(`(?:^|[^\w.-])` + regexp.QuoteMeta(f.File) + `(?:$|[^\w-])`)
	for _, b := range p.Blocks {
		if b.Line >= f.Block.Line {
			break
		}
		if named.MatchString(b.Text) {
			return fmt.Sprintf("the page names %s at line %d, before the block", f.File, b.Line)
		}
	}
	for _, o := range found {
		if o.Block.Line != f.Block.Line && o.File == f.File && o.Runner == f.Runner {
			return fmt.Sprintf("the page runs %s the same way after the block at line %d too", f.File, o.Block.Line)
		}
	}
	return ""
}

// prepares: every command of the block only makes file ready to run or
// shows it (`chmod +x script.py`, `ls -l script.py`).
func prepares(code, file string) bool {
	calls := shell.Calls(withoutPrompts(code))
	for _, c := range calls {
		if (c[0] != "chmod" && c[0] != "ls") || !shell.NamesFile(strings.Join(c, " "), file) {
			return false
		}
	}
	return len(calls) > 0
}

// withoutPrompts is a transcript's commands without their shell prompts.
func withoutPrompts(code string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if pr := transcript.ShellPrompt(l); pr != nil {
			lines[i] = l[len(pr.Match(l)):]
		}
	}
	return strings.Join(lines, "\n")
}

// stateCommands change the shell they run in and nothing else.
var stateCommands = map[string]bool{"export": true, "cd": true, "source": true, ".": true, "alias": true, "unset": true, "set": true, "pushd": true, "popd": true, "declare": true, "umask": true}

// onlyChangesTheShell: every command of the block sets a variable, enters a
// folder or otherwise changes only the shell it runs in. Run as a file it
// would do nothing a reader sees, so no page shows it as an example to run:
// it is a step at the prompt before the run.
func onlyChangesTheShell(code string) bool {
	if !shell.Parses(code) {
		return false
	}
	for _, call := range shell.Calls(code) {
		if !stateCommands[call[0]] {
			return false
		}
	}
	return true
}

// A page shows a program and then a Makefile whose rule builds it (`hello:
// hello.c`) without ever saying "save this as hello.c": the build file the
// page writes names its sources, so the program is the source of its
// language it names. A command that merely uses a name the page never gave
// (`cat hello.py` after an unnamed block) is still the page's gap: it
// forgot the file's name.

// Unplaced is a block the reading could not place, with its code.
type Unplaced struct {
	Line    int
	Lang    string
	Content string
}

// Source says the unplaced block at Line is the file File, which the
// Makefile written at line User builds from.
type Source struct {
	Line int
	File string
	User int
	// Rule is the reading that found it: RuleUsedLater or RuleNamedAfter.
	Rule rule.Rule
}

// RuleUsedLater: a program the page never names may be the source a
// Makefile it writes later builds from: what depends on what places the
// block (Sources).
var RuleUsedLater = rule.Register(rule.Rule{ID: "file.used-later", Scope: rule.ScopeStep,
	Doc: "an unplaced block is the source file of its language that a Makefile the page writes builds from and the page never writes (`hello: hello.c`): the last such block before the Makefile"})

// Why says why the block of lang is the file.
func (s Source) Why(lang string) string {
	if s.Rule.ID == RuleNamedAfter.ID {
		return fmt.Sprintf("the paragraph after it names %s, which line %d uses and the page never writes", s.File, s.User)
	}
	return fmt.Sprintf("line %d uses %s, which the page never writes: this is the %s program it means", s.User, s.File, lang)
}

// Sources finds, for each Makefile the page writes, the unplaced block each
// of its prerequisites is: the last one before it of the prerequisite's
// language, since the page last wrote that file, when no step writes it.
func Sources(writes []Write, unplaced []Unplaced, kind func(lang, file string) bool) []Source {
	written := map[string]bool{}
	for _, w := range writes {
		written[path.Clean(w.Path)] = true
	}
	var out []Source
	for _, user := range writes {
		if !makerule.IsMakefile(user.Path) {
			continue
		}
		for _, name := range makerule.Prerequisites(user.Content) {
			name = path.Clean(name)
			if written[name] {
				continue
			}
			if line := LastUnplaced(writes, unplaced, user.Line, name, kind); line > 0 {
				out = append(out, Source{Line: line, File: name, User: user.Line, Rule: RuleUsedLater})
				written[name] = true
			}
		}
	}
	return out
}

// LastUnplaced is the line of the last unplaced block before line in
// name's language, or 0 when there is none since the page last wrote name.
func LastUnplaced(writes []Write, unplaced []Unplaced, line int, name string, kind func(lang, file string) bool) int {
	since := 0
	for _, w := range writes {
		if w.Line < line && path.Clean(w.Path) == name {
			since = max(since, w.Line)
		}
	}
	found := 0
	for _, u := range unplaced {
		if u.Line > since && u.Line < line && u.Content != "" && kind(u.Lang, path.Base(name)) {
			found = max(found, u.Line)
		}
	}
	return found
}

// RefersBack is the phrase of a sentence that refers back to code shown
// above as what to save ("copy that code into", "guárdalo como", "保存为"),
// "" when there is none.
func RefersBack(sentence string) string { return refersBackTo.FindString(sentence) }

var refersBackTo = regexp.MustCompile(`(?i)\b(?:copy|save|put|paste|store|place|type)\s+(?:all\s+)?(?:that|this|it|the\s+(?:above|previous|program|code|source|example|listing))\b|` +
	`\b(?:copia|guarda|salva|salve|copie|kopiere|speichere|sauvegarde[zr]?|enregistre[zr]?)\s+(?:ese|este|esse|este|das|den|diesen|ce|le|cela)\b|` +
	// The pronoun joined to the verb: "grave-o como", "guárdalo como",
	// "salvalo come", "enregistrez-le sous", "speichere ihn als".
	`\b(?:grav|salv|guard|copi)[ae]-(?:o|a|lo|la)\b|\bgu(?:á|a)rd(?:alo|elo|ala|ela)\b|\bsalva(?:lo|telo)\b|` +
	`\b(?:enregistre[zr]?|sauvegarde[zr]?|copie[zr]?)-le\b|\b(?:speicher|kopier)\w*\s+(?:ihn|es|sie)\s+(?:als|in|unter)\b|` +
	`(?:保存|存)(?:为|為|成)|として保存|(?:로|으로)\s*저장|сохраните\s+(?:его|это|код)`)
