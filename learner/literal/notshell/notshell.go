// Package notshell tells which commands of a shell block are not commands
// for the shell. Not every line of a shell block is one: some are text in
// another syntax that the page shows in a shell block because it has no
// better tag: a crontab entry (five schedule fields and a command, added
// with `crontab -e`), a note written as another language's comment
// (`// prints 42`), or a piece of another language shown to explain it (an
// awk loop header, `count[$1]++`). The shell would fail on each ("0: command
// not found", "//: Is a directory", a syntax error), and the failure would
// be SMILE's misreading. NotRun adds the commands the Student does not run
// although they are the shell's: templates, editors, watched programs.
package notshell

import (
	"fmt"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/smile-loop/smile/internal/textutil"
	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

var (
	ruleCrontab = rule.Register(rule.Rule{ID: "text.crontab", Scope: rule.ScopeLine,
		Doc: "a line that opens with five cron schedule fields (or @daily, @reboot) is a crontab entry, added with crontab -e, not a shell command"})
	ruleSlashComment = rule.Register(rule.Rule{ID: "text.slash-comment", Scope: rule.ScopeLine,
		Doc: "a line of a shell block that opens with `//` is a note in another language's comment syntax, not a command"})

	ruleEllipsis = rule.Register(rule.Rule{ID: "text.ellipsis", Scope: rule.ScopeLine,
		Doc: "a line of a shell block that is only an ellipsis (`...`, `…`) stands for lines left out or time passing, not a command"})
	ellipsis = regexp.MustCompile(`^(?:\.{3,}|…+)$`)

	ruleCursor = rule.Register(rule.Rule{ID: "text.cursor", Scope: rule.ScopeLine,
		Doc: "a prompt followed only by a cursor (`$ _`, `$ █`) draws the terminal waiting for input, not a command"})
	cursor = regexp.MustCompile(`^(?:_|█|▌|▋|▮|▯|\|)$`)

	ruleWindowsPath = rule.Register(rule.Rule{ID: "text.windows-path", Scope: rule.ScopeLine,
		Doc: "a command whose words are Windows paths (`venv\\Scripts\\activate`, `.\\run.bat`, `C:\\tools`) is for Windows' shells; bash would eat its backslashes"})
	// windowsPath is a word written with Windows' separators: a drive or
	// `.\` first, two separators or more, or Python's Windows venv folder.
	windowsPath = regexp.MustCompile(`(?:^|\s)(?:[A-Za-z]:\\|\.{1,2}\\|[\w.-]+\\[\w.-]+\\[\w.-]|[\w.-]+\\Scripts\\)`)

	ruleEditorKey = rule.Register(rule.Rule{ID: "text.editor-key", Scope: rule.ScopeLine,
		Doc: "a line that is only an editor's keystroke (`esc`, `<Esc>`, `:wq`, `:q!`, `ZZ`) is the reader leaving vi, not a shell command"})
	// editorKey is such a line.
	editorKey             = regexp.MustCompile(`(?i)^(?:<?esc>?|\[esc\]|\^\[|:wq!?|:x!?|:q!?|zz|:w)$`)
	ruleOtherPlatformTool = rule.Register(rule.Rule{ID: "platform.other-tool", Scope: rule.ScopeLine,
		Doc: "a command whose program exists only on another platform (Homebrew's brew, MacPorts' port, the BSDs' pkg and pkg_add, Chocolatey's choco, winget, scoop, macOS's launchctl, pbcopy, defaults, xcode-select, osascript; macOS's `open FILE`, Windows' explorer) is that platform's step, whatever the prose around it says; a Linux reader takes the page's other route"})
	// otherPlatformTool is such a program, as a command's first word (after
	// sudo).
	otherPlatformTool = regexp.MustCompile(`^(?:(?:sudo|doas)\s+)?(brew|port|pkg|pkg_add|choco|winget|scoop|launchctl|pbcopy|pbpaste|defaults|xcode-select|softwareupdate|diskutil|mas|osascript|sw_vers|explorer(?:\.exe)?|open(?:\s+-[a-zA-Z]+)*\s+[./~\w][^\s|;&]*\s*$)(?:\s|$)`)

	cronField   = `(?:\*|\d{1,2}(?:-\d{1,2})?)(?:/\d{1,2})?(?:,(?:\*|\d{1,2}(?:-\d{1,2})?)(?:/\d{1,2})?)*`
	cronNamed   = `(?:` + cronField + `|(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|sun|mon|tue|wed|thu|fri|sat)(?:-\w{3})?)`
	crontabLine = regexp.MustCompile(`^(?:@(?:reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)|` +
		cronField + `\s+` + cronField + `\s+` + cronField + `\s+` + cronNamed + `\s+` + cronNamed + `)\s+\S`)
)

// Why is why a command of a shell block (its text, at line) is not one,
// with the rule's evidence, or "" and nil when it reads as a command.
func Why(text string, line int) (string, *rule.Evidence) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	first := strings.TrimSpace(lines[0])
	switch {
	case crontabLine.MatchString(first):
		ev := ruleCrontab.At(line, strings.Join(strings.Fields(first)[:min(5, len(strings.Fields(first)))], " "))
		return "a crontab entry: the reader adds it with crontab -e; it is not a shell command", &ev
	case cursor.MatchString(first) && len(lines) == 1:
		ev := ruleCursor.At(line, first)
		return "a cursor at the prompt: the terminal waiting for input, not a command", &ev
	case ellipsis.MatchString(first) && len(lines) == 1:
		ev := ruleEllipsis.At(line, first)
		return "an ellipsis: lines left out or time passing, not a command", &ev
	case windowsPath.MatchString(first) && !strings.ContainsAny(first, "'\""):
		ev := ruleWindowsPath.At(line, windowsPath.FindString(first))
		return "a command for Windows: its paths are written with backslashes", &ev
	case otherPlatformTool.MatchString(first):
		tool := otherPlatformTool.FindStringSubmatch(first)[1]
		ev := ruleOtherPlatformTool.At(line, tool)
		return fmt.Sprintf("a step for another platform: `%s` is macOS's or Windows' own tool; a Linux reader takes the page's other route", tool), &ev
	case editorKey.MatchString(first) && len(lines) == 1:
		ev := ruleEditorKey.At(line, first)
		return "an editor's keystroke: the reader leaves vi, the file already written", &ev
	case strings.HasPrefix(first, "//") && allSlashComments(lines):
		ev := ruleSlashComment.At(line, "//")
		return "a note in comment syntax, not a command", &ev
	}
	return "", nil
}

func allSlashComments(lines []string) bool {
	for _, l := range lines {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			return false
		}
	}
	return true
}

// A piece of another language shown in a shell block to explain it: the
// header of a C-style loop or test (`for (i = 1; i <= NF; i++)`, `while (x
// > 0)`), an array element or counter updated in place (`count[$1]++`,
// `n++`, `seen[$2] = 1`), a line led by `@name` (a Bats test, a decorator,
// an annotation), or a function called with arguments (`print("hi")`,
// `printf("%d\n", NF)`). Awk, C, JavaScript, Perl and PHP pages show them
// this way, often under a `bash` tag. Bash cannot parse the first and the
// last as its own, and no program is named like the second: run, each fails
// with the shell's own error, which is no fault of the page.
var (
	ruleOtherSyntax = rule.Register(rule.Rule{ID: "text.other-syntax", Scope: rule.ScopeBlock,
		Doc: "a shell block that opens with another language's construct (a C-style `for (` header, `count[$1]++`, `@test`, a call `f(x)`) that bash cannot read as a command is a piece of that language shown to explain it, not commands"})
	// cStyleHeader is `for (`, `while (`, `if (`, `foreach (`, `else if (`,
	// but not bash's own arithmetic `for ((`.
	cStyleHeader = regexp.MustCompile(`^(?:for|while|if|foreach|elif|else\s+if|switch)\s*\((?:[^(]|$)`)
	// updated is an element or counter changed in place.
	// An increment is the whole line (`n++`, `seen[$2]--;`): `g++ a.cpp` and
	// `c++ -o app` are compilers.
	updated = regexp.MustCompile(`^[A-Za-z_]\w*(?:\[[^\]]*\])?(?:(?:\+\+|--)\s*;?\s*$|\s+[-+*/%.]?=\s*[^=~\s])`)
	// marked is a line led by `@name`: a Bats test (`@test "adds" {`), a
	// decorator (`@app.route("/")`) or an annotation (`@Test`); no program
	// is named so.
	marked = regexp.MustCompile(`^@[A-Za-z_][\w.]*`)
	// call is a function called with something between its parentheses; a
	// bash function's definition, `name() {`, has nothing there, and a REPL's
	// prompt (`iex(1)>`, `irb(main):001:0>`) goes on with `>` or `:`.
	call = regexp.MustCompile(`^[A-Za-z_][\w.]*\(\s*[^)\s][^)]*\)\s*(?:$|[^>:\w\s])`)
)

// OtherSyntax is, for the lines of a shell block, why it is a piece of another language and not commands, with the rule's
// evidence; "" and nil when it is not one. A construct bash could also read
// (`if ( true ); then ...`, a subshell) is not one: the block must fail to
// parse as bash, but for an update in place, which bash parses as a command
// no program is named after.
func OtherSyntax(lines []markdown.CodeLine) (string, *rule.Evidence) {
	first, line := "", 0
	src := make([]string, len(lines))
	for i, l := range lines {
		src[i] = l.Text
		if t := strings.TrimSpace(l.Text); first == "" && t != "" && !strings.HasPrefix(t, "#") {
			first, line = t, l.Line
		}
	}
	switch {
	case first == "":
		return "", nil
	case updated.MatchString(first), marked.MatchString(first):
	case cStyleHeader.MatchString(first) || call.MatchString(first):
		if parsesAsBash(strings.Join(src, "\n")) {
			return "", nil
		}
	default:
		return "", nil
	}
	construct := textutil.Shorten(first, 50)
	ev := ruleOtherSyntax.At(line, construct)
	return "a piece of another language shown to explain it (`" + construct + "`): bash cannot run it as a command", &ev
}

func parsesAsBash(src string) bool {
	_, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	return err == nil
}

// NotRun says why the Student does not run a command of a shell block (at
// line), "" when it does: a syntax template, an interactive editor (whose
// text is written to its file instead), a program the reader watches and
// quits, a line another platform's comment scopes (platform.CommentScoped
// gives scoped), or a line that is no shell command (Why, with its rule's
// evidence).
func NotRun(text string, line int, scoped map[int]string) (string, *rule.Evidence) {
	if why := placeholder.Template(text); why != "" {
		return why, nil
	}
	if _, editor := shell.EditorFile(text); editor {
		return "an interactive text editor: the Student writes the text the tutorial types into it to the file instead", nil
	}
	if shell.Watched(text) {
		return "a program the reader watches and quits (a pager, a manual page, a monitor, a followed log): nothing after it needs it", nil
	}
	if why, ok := scoped[line]; ok {
		return why, nil
	}
	return Why(text, line)
}
