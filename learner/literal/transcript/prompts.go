package transcript

import (
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/codelang"
	"github.com/smile-loop/smile/learner/literal/rule"
)

// Prompt is one prompt rule: what a program prints before the line a person
// types, at the start of a transcript line. A prompt is never part of the
// command: the line after it is, and the lines up to the next prompt are what
// the program printed.
type Prompt struct {
	rule.Rule
	// Program runs the line after the prompt: "" is the shell session; a
	// REPL's program otherwise ("python3", "sqlite3"), started once and fed
	// the lines in order. OtherShells names the shells of another platform.
	Program string
	re      *regexp.Regexp
	// Continuation: the line goes on the command before it (`... `, `-> `).
	Continuation bool
	// Marker: the line is output, with the mark a program prints before a
	// result (IPython's `Out[1]: `, irb's `=> `) left out.
	Marker bool
	// Bare: `> `, which the shell, node, lua and R all print: whose it is
	// depends on what came before.
	Bare bool
	// Header: the first line of a two-line prompt (Kali's
	// `┌──(user㉿host)-[~]`): nothing is typed on it; the command follows
	// the next line's prompt.
	Header bool
	// Root: `# `, a root shell's prompt, which is also how a comment starts:
	// a prompt only in a block that reads as a root transcript.
	Root bool
	// Langs are the block languages in which the prompt is this program's
	// (besides terminal sessions and untagged blocks).
	Langs []string
	// then, when set, must hold for the text after the prompt: a prompt
	// that is only one when a command follows it.
	then func(rest string) bool
}

// Match is the prompt at the start of text, "" when it is not there.
func (p *Prompt) Match(text string) string {
	m := p.re.FindString(text)
	if m != "" && p.then != nil && !p.then(text[len(m):]) {
		return ""
	}
	return m
}

// OtherShells are the shells of another platform: a transcript of theirs is
// not run in a POSIX shell.
var OtherShells = map[string]string{"pwsh": "PowerShell", "cmd": "the Windows command prompt"}

func prompt(id, doc, program, re string, langs ...string) *Prompt {
	return &Prompt{Rule: rule.Register(rule.Rule{ID: id, Doc: doc, Scope: rule.ScopeLine}), Program: program, re: regexp.MustCompile(re), Langs: langs}
}

func continuation(p *Prompt) *Prompt { p.Continuation = true; return p }
func marker(p *Prompt) *Prompt       { p.Marker = true; return p }
func bare(p *Prompt) *Prompt         { p.Bare = true; return p }
func header(p *Prompt) *Prompt       { p.Header = true; return p }

// gluedTo makes a prompt one only before a known program's name used as a
// command: `$ruby -v`, `$irb`; not `$HOME/bin`, `$date = time;`,
// `$ls->run()`.
func gluedTo(p *Prompt) *Prompt {
	p.then = func(rest string) bool {
		m := gluedCommand.FindStringSubmatch(rest)
		return m != nil && (codelang.KnownProgram(m[1]) || Started(strings.TrimSpace(rest)) != nil) && !variableUse.MatchString(rest[len(m[1]):])
	}
	return p
}

// gluedCommand is a program's name at the start of a command line, and
// variableUse what after it makes the name a variable: an assignment, a
// method call, a subscript, a statement's end.
var (
	gluedCommand = regexp.MustCompile(`^([a-z][\w+-]*)(?:\s|$)`)
	variableUse  = regexp.MustCompile(`^\s*(?:[-+*/.|&%]?=|=~|->|\[|\{|\(|;\s*$)`)
)

// venv is a virtual environment's name before a prompt: `(venv) `, or
// `(venv)` with no space, as some pages draw it.
const venv = `(?:\([\w.-]+\)\s*)?`

// Prompts is the prompt table, most specific first: the first prompt that
// matches a line, among those the context allows, is its prompt.
var Prompts = []*Prompt{
	// Shells of another platform.
	prompt("prompt.shell.powershell", "`PS C:\\> ` or `PS> `: a PowerShell prompt; its lines are PowerShell's, not a POSIX shell's", "pwsh", `^\s*PS(?: [A-Za-z]:\\[^>]*)?> ?`),
	prompt("prompt.shell.windows-cmd", "`C:\\> ` (or `c:>`, drive letter in either case, the backslash left out): the Windows command prompt; its lines are cmd's, not a POSIX shell's", "cmd", `^\s*[A-Za-z]:(?:\\[^>]*)?> ?`),
	// POSIX shells.
	prompt("prompt.shell.user-host", "`user@host:~/app$ ` or `user@host ~/app $ ` (or `#` for root), optionally after `(venv) `: a shell prompt that names the user, the host and the folder", "", `^\s*`+venv+`[\w.-]+@[\w.-]+(?::[^\s$#]*|\s+[~/][^\s$#]*)?\s?[$#](?: |$)`),
	prompt("prompt.shell.host-folder", "`host:~/app$ `: a shell prompt that names the host and the folder, no user", "", `^\s*`+venv+`[\w.-]+:[~/][^\s$]*\$(?: |$)`),
	prompt("prompt.shell.bracketed", "`[user@host folder]$ ` (or `#` for root): the bracketed shell prompt of Red Hat, Fedora and CentOS", "", `^\s*`+venv+`\[[\w.-]+@[\w.-]+(?:\s+[^\]]*)?\][$#](?: |$)`),
	prompt("prompt.shell.folder", "`my_project$ ` or `~/app$ `: a shell prompt that names only the folder (followed by a space and the command)", "", `^\s*`+venv+`[\w~][\w.~/-]*\$ `),
	prompt("prompt.shell.folder-root", "`/# `, `~# ` or `/srv/app# `: a root shell's prompt that names only the folder (a `#` right after a path is no comment)", "", `^\s*[~/][\w.~/-]*# `),
	prompt("prompt.shell.venv", "`(venv) $ ` or `(venv)$ `: a shell prompt inside a virtual environment", "", `^\s*\([\w.-]+\)\s*\$(?: |$)`),
	prompt("prompt.shell.dollar-angle", "`$> `: a shell prompt some pages draw with an arrow", "", `^\s*\$>(?: |$)`),
	header(prompt("prompt.shell.two-line", "`┌──(user㉿host)-[~]` or `┌─[user@host]─[~]` on a line of its own: the first line of a two-line prompt (Kali, Parrot), no command and no output", "", `^\s*┌─+[(\[].*$`)),
	prompt("prompt.shell.two-line.command", "`└─$ ` or `└──╼ $`: the second line of a two-line prompt (Kali, Parrot), before the command, with or without a space (`#` for root)", "", `^\s*└─+(?:╼\s*)?[$#] ?`),
	prompt("prompt.shell.dollar", "`$ `: the ordinary user's shell prompt", "", `^\s*\$(?: |$)`),
	prompt("prompt.shell.chevron", "`❯ `: the arrow prompt of zsh's pure and starship themes, before the command", "", `^\s*❯(?: |$)`),
	gluedTo(prompt("prompt.shell.dollar-glued", "`$ruby -v`: a `$` written against a program's name at the start of a line is the prompt without its space, not a variable (never before `=`, `->` or a bracket, as in Perl or PHP)", "", `^\s*\$`)),
	prompt("prompt.shell.percent", "`% ` at the very start of a line: zsh's and csh's prompt (indented, as in curl's progress header, it is output)", "", `^%(?: |$)`),
	{Rule: rule.Register(rule.Rule{ID: "prompt.shell.root", Doc: "`# `: a root shell's prompt, only in a block that reads as a root transcript (otherwise a comment)", Scope: rule.ScopeBlock}),
		re: regexp.MustCompile(`^\s*#(?: |$)`), Root: true},
	continuation(prompt("prompt.shell.continuation", "`> ` after a command that is not complete (a `\\`, an open quote, heredoc or block): the shell's continuation prompt", "", `^\s*>(?: |$)`)),
	bare(prompt("prompt.shell.angle", "`> ` opening a block with nothing before it that makes it a REPL's: a shell prompt drawn as an arrow", "", `^>(?: |$)`)),

	// REPLs.
	prompt("prompt.python", "`>>> `: Python's interactive prompt", "python3", `^>>>(?: |$)`, "python", "py", "python3", "pycon", "pyrepl", "python-repl", "doctest"),
	continuation(prompt("prompt.python.continuation", "`... ` right after a `>>> ` line: Python's continuation prompt (elsewhere `...` is output left out)", "python3", `^\.\.\.(?: |$)`)),
	prompt("prompt.ipython", "`In [1]: `: IPython's input prompt, typed into Python", "python3", `^In \[\d*\]: ?`, "ipython", "python", "py"),
	continuation(prompt("prompt.ipython.continuation", "`   ...: `: IPython's continuation prompt", "python3", `^\s+\.\.\.+: ?`)),
	marker(prompt("prompt.ipython.out", "`Out[1]: `: IPython's mark before a result, output", "python3", `^Out\[\d*\]: ?`)),
	prompt("prompt.iex", "`iex> ` or `iex(1)> `: Interactive Elixir's prompt", "iex", `^iex(?:\([^)]*\))?> ?`, "elixir", "ex", "exs", "iex"),
	continuation(prompt("prompt.iex.continuation", "`...> ` or `...(1)> `: Interactive Elixir's continuation prompt", "iex", `^\.\.\.(?:\([^)]*\))?> ?`)),
	prompt("prompt.irb", "`irb> ` or `irb(main):001:0> `: Interactive Ruby's prompt (with `*` or a quote, its continuation)", "irb", `^irb(?:\([^)]*\)(?::\d+)*)?[>*"'] ?`, "ruby", "rb", "irb"),
	marker(prompt("prompt.irb.result", "`=> `: irb's mark before a result, output", "irb", `^=> ?`)),
	prompt("prompt.ghci", "`ghci> `, `λ> `, `Prelude> ` or `*Main> `: GHCi's prompt", "ghci", `^(?:ghci|λ|Prelude(?: [A-Z][\w.]*)*|\*[A-Z][\w.]*)> ?`, "haskell", "hs", "ghci"),
	continuation(prompt("prompt.ghci.continuation", "`ghci| `: GHCi's continuation prompt", "ghci", `^(?:ghci|Prelude)\| ?`)),
	prompt("prompt.sqlite", "`sqlite> `: the sqlite3 shell's prompt", "sqlite3", `^sqlite> ?`, "sql", "sqlite", "sqlite3"),
	continuation(prompt("prompt.sqlite.continuation", "`   ...> `: the sqlite3 shell's continuation prompt", "sqlite3", `^\s*\.\.\.> ?`)),
	prompt("prompt.mysql", "`mysql> ` or `MariaDB [db]> `: the MySQL client's prompt", "mysql", `^(?:mysql|MariaDB \[[^\]]*\])> ?`, "sql", "mysql"),
	continuation(prompt("prompt.mysql.continuation", "`    -> `: the MySQL client's continuation prompt", "mysql", `^\s*(?:->|'>|">) ?`)),
	prompt("prompt.psql", "`postgres=# ` or `dbname=> `: psql's prompt (`#` for a superuser)", "psql", `^[\w-]+=[#>] ?`, "sql", "psql", "postgres", "postgresql", "pgsql"),
	continuation(prompt("prompt.psql.continuation", "`postgres-# `: psql's continuation prompt", "psql", `^[\w-]+[-'"(][#>] ?`)),
	prompt("prompt.scala", "`scala> `: the Scala REPL's prompt", "scala", `^scala> ?`, "scala"),
	continuation(prompt("prompt.scala.continuation", "`     | `: the Scala REPL's continuation prompt", "scala", `^\s+\| ?`)),
	prompt("prompt.julia", "`julia> `: the Julia REPL's prompt", "julia", `^julia> ?`, "julia", "jl"),
	prompt("prompt.lua", "`lua> `: a Lua prompt that names itself", "lua", `^lua> ?`, "lua"),
	prompt("prompt.gp", "`gp > `: PARI/GP's prompt", "gp", `^gp ?> ?`, "gp", "pari"),
	prompt("prompt.php", "`php > `: PHP's interactive shell", "php -a", `^php > ?`, "php"),
	prompt("prompt.tclsh", "`% ` while tclsh runs (or in a Tcl block): the Tcl shell's prompt, which looks like zsh's", "tclsh", `^%(?: |$)`, "tcl", "tclsh"),
	prompt("prompt.redis", "`127.0.0.1:6379> `: redis-cli's prompt", "redis-cli", `^[\w.-]+:\d+> ?`, "redis"),
	bare(prompt("prompt.node", "`> ` in a JavaScript block, or after node was started: node's prompt", "node", `^>(?: |$)`, "javascript", "js", "node", "nodejs")),
	continuation(prompt("prompt.node.continuation", "`... `: node's continuation prompt", "node", `^\.\.\.(?: |$)`)),
	bare(prompt("prompt.lua.angle", "`> ` in a Lua block, or after lua was started: Lua's prompt", "lua", `^>(?: |$)`, "lua")),
	continuation(prompt("prompt.lua.continuation", "`>> `: Lua's continuation prompt", "lua", `^>>(?: |$)`)),
	bare(prompt("prompt.r", "`> ` in an R block, or after R was started: R's prompt", "R", `^>(?: |$)`, "r")),
	continuation(prompt("prompt.r.continuation", "`+ `: R's continuation prompt", "R", `^\+ ?`)),
}

// ShellPrompt is the unambiguous shell prompt at the start of a line (`$ `,
// `user@host:~$ `, `% `...), nil when there is none: the prompts that make
// any block a terminal transcript.
func ShellPrompt(text string) *Prompt {
	for _, p := range Prompts {
		if p.Program == "" && !p.Bare && !p.Root && !p.Continuation && p.Match(text) != "" {
			return p
		}
	}
	return nil
}

// HasShellPrompt reports whether a code line starts with a shell prompt.
func HasShellPrompt(text string) bool { return ShellPrompt(text) != nil }

// StripShellPrompt is the line without its shell prompt (or its indent).
func StripShellPrompt(text string) string {
	if p := ShellPrompt(text); p != nil {
		return text[len(p.Match(text)):]
	}
	return trimIndent(text)
}

// PromptSpeaks reports whether the prompt rule id belongs to blocks of the
// language (`>>> ` to python, pycon): a tag that says so.
func PromptSpeaks(id, lang string) bool {
	for _, p := range Prompts {
		if p.ID == id {
			return p.speaks(lang)
		}
	}
	return false
}

// speaks reports whether a prompt belongs to a block of the language.
func (p *Prompt) speaks(lang string) bool { return slices.Contains(p.Langs, lang) }

// PromptedLine is a command written after a shell prompt in a paragraph:
// Offset is its line within the paragraph, Prompt the prompt as written.
type PromptedLine struct {
	Offset  int
	Prompt  string
	Command string
}

// PromptedParagraph reads a paragraph whose every line starts with a shell
// prompt (`$ make`, `(venv)$ pip3 list`): the commands after the prompts.
// nil when a line has no prompt, no command, or inline code in it (a
// sentence about a command, not the command).
func PromptedParagraph(text string) []PromptedLine {
	var out []PromptedLine
	for k, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		pr := ShellPrompt(l)
		if pr == nil {
			return nil
		}
		if pr.Header {
			continue // the command is on the prompt's second line
		}
		cmd := strings.TrimSpace(l[len(pr.Match(l)):])
		if cmd == "" || strings.Contains(cmd, "`") {
			return nil
		}
		out = append(out, PromptedLine{Offset: k, Prompt: strings.TrimSpace(pr.Match(l)), Command: cmd})
	}
	return out
}
