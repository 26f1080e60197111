// Package blockshape reads the shape of a code block's lines, before any
// prose is read: where a command ends and the output it prints begins,
// whether every line reads as a command, whether lines carry a shell's
// prompt, and the lines as output to compare.
package blockshape

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/expect"
	"github.com/smile-loop/smile/learner/literal/notshell"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/learner/literal/transcript"
	"github.com/smile-loop/smile/spec/markdown"
)

// TrailingOutput finds where a shell block's command ends and the output it
// prints begins: JSON after the command, or (in a block whose first line has
// no prompt) lines with prompts that belong to a log. 0 when there is none.
func TrailingOutput(lines []markdown.CodeLine) int {
	for k := 1; k < len(lines); k++ {
		if t := strings.TrimSpace(lines[k].Text); strings.HasPrefix(t, "[") || strings.HasPrefix(t, "{") {
			var rest []string
			for _, l := range lines[k:] {
				rest = append(rest, l.Text)
			}
			if json.Valid([]byte(strings.Join(rest, "\n"))) && !strings.HasSuffix(strings.TrimSpace(lines[k-1].Text), "\\") {
				return k
			}
		}
	}
	for k := 1; k+1 < len(lines); k++ {
		if outputComment.MatchString(strings.TrimSpace(lines[k].Text)) {
			return k + 1 // "# result" between a command and what it prints
		}
	}
	if k := listingTail(lines); k > 0 {
		return k
	}
	first := FirstContentLine(lines, 0)
	for k, l := range lines {
		if l.Line == first && !transcript.HasShellPrompt(l.Text) && !strings.HasPrefix(strings.TrimSpace(l.Text), "#") && k+1 < len(lines) && transcript.HasShellPrompt(lines[k+1].Text) {
			return k + 1
		}
	}
	return 0
}

// listingTotal is the first line `ls -l` prints of a folder.
var listingTotal = regexp.MustCompile(`^total\s+\d+[KMG]?$`)

// listingTail: the block ends in rows `ls -l` prints (a file's type and
// permissions, its link count, ...), which no command line looks like, right
// after a command that lists files; it is the index of the first row, 0
// when the block ends otherwise.
func listingTail(lines []markdown.CodeLine) int {
	k := len(lines)
	for k > 0 {
		t := strings.TrimSpace(lines[k-1].Text)
		if t != "" && !expect.ListingRow.MatchString(t) && !listingTotal.MatchString(t) {
			break
		}
		k--
	}
	for k < len(lines) && strings.TrimSpace(lines[k].Text) == "" {
		k++
	}
	if k == 0 || k == len(lines) || !expect.ListingRow.MatchString(strings.TrimSpace(lines[len(lines)-1].Text)) {
		return 0
	}
	if args := shell.FirstArgs(strings.TrimSpace(lines[k-1].Text)); len(args) == 0 || args[0] != "ls" && args[0] != "ll" {
		return 0
	}
	return k
}

// LabelledOutput finds a block that says itself it is output: its first
// line is only a label ("# output", "# 결과") and no line after it carries
// a shell prompt. It is the index of the first line after the label, 0 when
// the block opens otherwise.
func LabelledOutput(lines []markdown.CodeLine) int {
	for k, l := range lines {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		if !outputComment.MatchString(t) || k+1 >= len(lines) || HasPromptLine(lines[k+1:]) {
			return 0
		}
		return k + 1
	}
	return 0
}

// outputComment is a comment line that is only a label for the output
// below it ("# output", "# result:", "# 결과", "# 出力", "# salida"), in the
// languages pages are written in: the lines after it are what the command
// above prints, not commands.
var outputComment = regexp.MustCompile(`(?i)^#+\s*(?:(?:the\s+)?(?:expected\s+)?(?:output|results?|stdout)|` +
	`salida|resultado|sa(?:í|i)da|sortie|r(?:é|e)sultat|ausgabe|ergebnis|uscita|risultato|uitvoer|resultaat|wynik|wyj(?:ś|s)cie|` +
	`(?:ç|c)(?:ı|i)kt(?:ı|i)|sonu(?:ç|c)|k(?:ế|e)t qu(?:ả|a)|(?:đ|d)(?:ầ|a)u ra|hasil|keluaran|вывод|результат|вивід|` +
	`出力|結果|实行结果|执行结果|运行结果|输出|輸出|结果|출력|결과|실행 결과)\s*:?\s*$`)

func FirstContentLine(lines []markdown.CodeLine, fallback int) int {
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			return l.Line
		}
	}
	return fallback
}

// ExpectedLines converts code lines to expected output lines.
func ExpectedLines(lines []markdown.CodeLine) []expect.Line {
	out := make([]expect.Line, len(lines))
	for i, l := range lines {
		out[i] = expect.Line(l)
	}
	return out
}

// commandWord is a line that starts like a command: a plain lower-case
// program name, then arguments or nothing.
var commandWord = regexp.MustCompile(`^[a-z][\w.+-]*(?:\s|$)`)

// LooksLikeCommands: every line of the block starts with a word that could
// be a program; whether it is one is checked in the container.
func LooksLikeCommands(lines []markdown.CodeLine) bool {
	n := 0
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "", assignment.MatchString(t):
			// `today=$(date)` is a command beside others; alone, lines of
			// NAME=value are as likely what `env` printed.
		case !commandWord.MatchString(t) || expect.ListingRow.MatchString(t):
			return false
		default:
			n++
		}
	}
	return n > 0
}

// KnownCommands: each line of the block that is not a comment is a command
// that starts with a program known by name or a shell builtin, so
// that a console block drawn without prompts is not taken for output a
// word of which could be a program's name ("hello world").
func KnownCommands(lines []markdown.CodeLine) bool {
	n := 0
	for _, l := range lines {
		t := strings.TrimSpace(l.Text)
		switch {
		case t == "" || assignment.MatchString(t) || strings.HasPrefix(t, "#"):
			// a comment over the commands, as in any shell block
		case !commandWord.MatchString(t) || expect.ListingRow.MatchString(t):
			return false
		default:
			if w := strings.Fields(t)[0]; !codelang.KnownProgram(w) && !codelang.Builtin(w) {
				return false
			}
			n++
		}
	}
	return n > 0
}

// assignment is a line that sets a shell variable.
var assignment = regexp.MustCompile(`^[A-Za-z_]\w*=\S`)

// OpensWithPrompt: the block's first line that is not blank starts with a
// shell prompt.
func OpensWithPrompt(lines []markdown.CodeLine) bool {
	for _, l := range lines {
		if strings.TrimSpace(l.Text) != "" {
			return transcript.HasShellPrompt(l.Text)
		}
	}
	return false
}

// HasPromptLine: a transcript with `$ ` commands is run, even when what it
// prints is a drawn folder tree (`$ tree .`).
func HasPromptLine(lines []markdown.CodeLine) bool {
	for _, l := range lines {
		if transcript.HasShellPrompt(l.Text) {
			return true
		}
	}
	return false
}

// ReferenceList reports whether a script block's commands are a reference
// list: two or more one-line commands, each followed by a comment that says
// what it does (`cp -r dir/ backup/   # recursive copy`). Such a block shows
// the forms of a command, each on sample names (origem.txt, dir/), for the
// reader to look up; it is not a procedure whose files the page made.
//
// A procedure written the same way is not one: when a command enters a
// folder (`cd`) or uses what a command before it made (`mkdir hello`, then
// `cd hello`), each line depends on the last, and its failure is the page's.
func ReferenceList(commands []string) bool {
	if len(commands) < 2 {
		return false
	}
	for i, c := range commands {
		if strings.Contains(strings.TrimSpace(c), "\n") || shell.TrailingComment(c) == "" || shell.CommandName(c) == "cd" {
			return false
		}
		for _, before := range commands[:i] {
			for _, call := range shell.Calls(c) {
				if slices.ContainsFunc(call[min(1, len(call)):], func(w string) bool { return shell.Creates(before, w) }) {
					return false
				}
			}
		}
	}
	return true
}

var (
	shebang = regexp.MustCompile(`^#!\s*(\S+)(?:\s+(\S+))?`)
	shells  = textutil.Set("sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox")
)

// ShebangProgram is the program a block's shebang names ("bats" for
// `#!/usr/bin/env bats`), "" when it has none or names a shell.
func ShebangProgram(code []markdown.CodeLine) string {
	for _, l := range code {
		t := strings.TrimSpace(l.Text)
		if t == "" {
			continue
		}
		m := shebang.FindStringSubmatch(t)
		if m == nil {
			return ""
		}
		prog := path.Base(m[1])
		if prog == "env" {
			prog = strings.TrimPrefix(m[2], "-S")
		}
		if prog == "" || shells[prog] {
			return ""
		}
		return prog
	}
	return ""
}

// StartsWithShebang: the block's first line that is not blank is `#!...`.
func StartsWithShebang(text string) bool {
	return strings.HasPrefix(strings.TrimSpace(text), "#!")
}

// RunsNamed: the block's first line runs the file the prose names (`./hello`,
// `python3 hello.py`), so the block is how to run it, not its content.
func RunsNamed(text, name string) bool {
	first := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(textutil.FirstLine(text)), "$ "))
	base := path.Base(name)
	for _, f := range strings.Fields(first) {
		if f == "./"+base || f == name || f == "./"+name {
			return true
		}
	}
	return false
}

// MisTagged: a block of at least three lines, with no prompt, that no shell
// parses. One broken line is more likely the page's broken command.
func MisTagged(b markdown.Block) bool {
	n := 0
	for _, l := range b.Code {
		if strings.TrimSpace(l.Text) != "" {
			n++
		}
	}
	if n < 3 || HasPromptLine(b.Code) || StartsWithShebang(b.Text) {
		return false // a shebang names its program (file.interpreter-script)
	}
	if _, other := notshell.OtherSyntax(b.Code); other != nil {
		return false // another language's syntax, which text.other-syntax names
	}
	return !shell.Parses(b.Text)
}
