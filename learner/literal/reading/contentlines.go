package reading

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/destination"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/markdown"
)

// A shell tag does not make text commands. Pages tag with `bash` whatever
// sits near commands: a file's lines (`a.txt`, `b.txt`), a public key, a
// setting for a configuration file (`PasswordAuthentication no`). When not
// one line of a shell block could be a command (no program the page's
// readers have or the page names, no path to run, no assignment, no shell
// syntax), the block is text: the content of the file the sentence before
// names, when it names one in the reader's folder, else text to read.
var (
	ruleContentLines = rule.Register(rule.Rule{ID: "text.not-commands", Scope: rule.ScopeBlock,
		Doc: "a shell-tagged block of which no line could be a command (no known or page-named program, no path, no assignment, no shell syntax) is text: the content of the file its lead-in names, or text to read"})

	shellSyntax = regexp.MustCompile(`[|;&<>$` + "`" + `]|^\w+=|\s--?[A-Za-z]|^(?:\.{1,2}|~)?/`)
	programName = regexp.MustCompile(`^[a-z0-9]+(?:[-_][a-z0-9]+)*$`)
	longToken   = regexp.MustCompile(`[A-Za-z0-9+/=]{30,}`)
	inlineWord  = regexp.MustCompile("`([A-Za-z][\\w.+-]*)[^`]*`")
)

// notCommands: no line of the block could be a command.
func (p *planner) notCommands(lines []markdown.CodeLine) bool {
	var text []string
	for _, l := range lines {
		if t := strings.TrimSpace(l.Text); t != "" && !strings.HasPrefix(t, "#") {
			text = append(text, t)
		}
	}
	for _, t := range text {
		fields := strings.Fields(t)
		first := fields[0]
		if codelang.KnownProgram(first) || p.tools[first] || p.named[first] || shellSyntax.MatchString(t) || codelang.Builtin(first) {
			return false
		}
		// A program's name with arguments, or alone on the block's only
		// line (`shell-version-helper`); not a list of single words, nor
		// a key or a hash.
		if programName.MatchString(first) && (len(text) == 1 || len(fields) > 1) && !longToken.MatchString(t) {
			return false
		}
	}
	return len(text) > 0
}

// namedWords are the first words of the page's inline code spans: the
// programs its prose names (`fd`, `hugo`).
func namedWords(blocks []markdown.Block) map[string]bool {
	out := map[string]bool{}
	for _, b := range blocks {
		if b.Kind != markdown.BlockParagraph && b.Kind != markdown.BlockHeading {
			continue
		}
		for _, m := range inlineWord.FindAllStringSubmatch(b.Text, -1) {
			out[m[1]] = true
		}
	}
	return out
}

// maybeText marks the commands of a shell block whose lines no known
// program starts: the Student reads it as text when none of their programs
// exists in the container either.
func (p *planner) maybeText(steps []Step, b markdown.Block, ctx blockContext) []Step {
	t := &TextReading{BlockLine: b.Line, EndLine: b.EndLine, Content: b.Text,
		Evidence: ruleContentLines.At(b.Line, strings.TrimSpace(b.Code[0].Text))}
	if names := destination.FilesNamed(ctx.before, func(n string) bool { return OwnPath(n) }); len(names) == 1 {
		t.Dest = Destination{Path: names[0]}
	}
	for k := range steps {
		if steps[k].Kind == StepRun {
			steps[k].Text = t
		}
	}
	return steps
}
