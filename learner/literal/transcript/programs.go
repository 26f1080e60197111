package transcript

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/markdown"
)

// Program is a program with a REPL or an interactive shell: a page types
// lines into it, shown with its prompts or, after a sentence or a command
// that starts it, without them.
type Program struct {
	// Name is the program a prompt names (Prompt.Program) and Command the
	// command that starts it for a transcript that does not show one.
	Name, Command string
	// Langs are the block languages typed into it.
	Langs []string
	// start is a command line that starts it waiting for what is typed (no
	// script to run, no expression given).
	start *regexp.Regexp
	// spoken is how prose names it ("the sqlite3 shell", "Python").
	spoken *regexp.Regexp
	// scripts are the files it runs rather than reads input after: `python3
	// app.py` is no REPL.
	scripts *regexp.Regexp
	// quiet runs it fed its input as a person's, without printing its
	// prompts; nil: as it is.
	quiet func(command string) runner
	// typed is a block without prompts as a person types it into the
	// program; nil: as it is.
	typed func(block string) string
	// words are the first words of its own command language (a database
	// client's `PING`, `SET`, `SELECT`); nil for a language's interpreter.
	words *regexp.Regexp
}

// Commands: every line of an untagged or text block is one of the
// program's own commands, by its first word: a client's commands drawn as
// plain text after the page started it.
func (p *Program) Commands(lines []markdown.CodeLine) bool {
	n := 0
	for _, l := range lines {
		f := strings.Fields(l.Text)
		if len(f) == 0 {
			continue
		}
		if p.words == nil || !p.words.MatchString(f[0]) {
			return false
		}
		n++
	}
	return n > 0
}

// sqlWords open SQL statements and a client's own commands (`.tables`,
// `\dt`).
var sqlWords = regexp.MustCompile(`(?i)^(?:select|insert|update|delete|create|drop|alter|begin|commit|rollback|with|pragma|explain|show|use|describe|grant|\.\w+|\\\w+)$`)

// Programs is the table of programs whose input a page shows.
var Programs = []*Program{
	{Name: "python3", Command: "python3", Langs: []string{"python", "py", "python3", "pycon", "pyrepl", "python-repl", "ipython", "doctest"},
		start:   regexp.MustCompile(`^(?:python[\d.]*|ipython3?)(?:\s+-[qiuBEsS]+)*$`),
		spoken:  regexp.MustCompile(`(?i)\bi?python(?:\s?[\d.]+)?\b`),
		scripts: regexp.MustCompile(`^(?:[\w./~-]+\.py|-[cm])\b`),
		// Python's REPL kept interactive without prompts echoes values as it
		// does for a person.
		quiet: func(c string) runner {
			if strings.HasPrefix(c, "ipython") {
				return runner{command: c}
			}
			return runner{command: c + ` -i -q -c 'import sys; sys.ps1 = sys.ps2 = ""'`}
		},
		typed: endBlocks},
	{Name: "node", Command: "node", Langs: []string{"javascript", "js", "node", "nodejs"},
		start:   regexp.MustCompile(`^(?:node|nodejs)$`),
		spoken:  regexp.MustCompile(`(?i)\bnode(?:\.?js)?\b`),
		scripts: regexp.MustCompile(`^(?:[\w./~-]+\.[mc]?js|-[ep])\b`),
		// node reading a pipe runs it as a script; its REPL module answers
		// each line as the prompt does.
		quiet: func(c string) runner {
			return runner{command: c + ` -e 'require("repl").start({prompt: "", terminal: false})'`}
		}},
	{Name: "irb", Command: "irb", Langs: []string{"ruby", "rb", "irb"},
		start:  regexp.MustCompile(`^irb(?:\s+-\S+)*$`),
		spoken: regexp.MustCompile(`(?i)\birb\b|\binteractive ruby\b|\bruby (?:repl|shell|console|interpreter)\b`),
		// irb's null prompt prints none; an assignment's value is echoed
		// whole (shortening it asks for a terminal's width, which a pipe has
		// not) and every value is inspected on one line, as `=> ` shows it.
		quiet: func(c string) runner {
			return runner{command: c + " -f --nomultiline --noverbose --prompt null --echo-on-assignment --inspect p"}
		}},
	{Name: "iex", Command: "iex", Langs: []string{"elixir", "ex", "exs", "iex"},
		start:   regexp.MustCompile(`^iex(?:\s+-S\s+mix)?$`),
		spoken:  regexp.MustCompile(`(?i)\biex\b|\binteractive elixir\b|\belixir (?:repl|shell|console)\b`),
		scripts: regexp.MustCompile(`^[\w./~-]+\.exs?\b`),
		// IEx prints its prompts even to a pipe: they are emptied, and the
		// space it still puts before each answer is taken off.
		quiet: func(c string) runner {
			return runner{command: c + ` -e 'IEx.configure(default_prompt: "", continuation_prompt: "", alive_prompt: "", alive_continuation_prompt: "")'`,
				pipe: `sed -e 's/^ //'`}
		}},
	{Name: "ghci", Command: "ghci", Langs: []string{"haskell", "hs", "ghci"},
		start:   regexp.MustCompile(`^(?:ghci|stack ghci|cabal repl)$`),
		spoken:  regexp.MustCompile(`(?i)\bghci\b|\bhaskell (?:repl|interpreter|shell)\b`),
		scripts: regexp.MustCompile(`^[\w./~-]+\.l?hs\b`),
		quiet: func(c string) runner {
			return runner{command: c + " -v0 -ignore-dot-ghci", first: ":set prompt \"\"\n:set prompt-cont \"\"\n"}
		}},
	{Name: "sqlite3", Command: "sqlite3", Langs: []string{"sql", "sqlite", "sqlite3"},
		start:  regexp.MustCompile(`^sqlite3(?:\s+-\w+)*(?:\s+[\w./~-]+)?$`),
		spoken: regexp.MustCompile(`(?i)\bsqlite3?\b`), words: sqlWords},
	{Name: "mysql", Command: "mysql", Langs: []string{"sql", "mysql"},
		start:  regexp.MustCompile(`^mysql\b[^<|;&]*$`),
		spoken: regexp.MustCompile(`(?i)\bmysql\b|\bmariadb\b`), scripts: regexp.MustCompile(`^-e\b`), words: sqlWords},
	{Name: "psql", Command: "psql", Langs: []string{"sql", "psql", "postgres", "postgresql", "pgsql"},
		start:  regexp.MustCompile(`^psql\b[^<|;&]*$`),
		spoken: regexp.MustCompile(`(?i)\bpsql\b|\bpostgres(?:ql)? (?:shell|prompt|console|client)\b`), scripts: regexp.MustCompile(`^(?:-c|-f|--command|--file)\b`), words: sqlWords},
	{Name: "scala", Command: "scala", Langs: []string{"scala"},
		start: regexp.MustCompile(`^scala$`), spoken: regexp.MustCompile(`(?i)\bscala\b`), scripts: regexp.MustCompile(`^[\w./~-]+\.scala\b`)},
	{Name: "julia", Command: "julia", Langs: []string{"julia", "jl"},
		start: regexp.MustCompile(`^julia(?:\s+-\S+)*$`), spoken: regexp.MustCompile(`(?i)\bjulia\b`), scripts: regexp.MustCompile(`^(?:[\w./~-]+\.jl|-e)\b`)},
	{Name: "lua", Command: "lua", Langs: []string{"lua"},
		start: regexp.MustCompile(`^lua[\d.]*(?:\s+-i)?$`), spoken: regexp.MustCompile(`(?i)\blua[\d.]*\b`), scripts: regexp.MustCompile(`^(?:[\w./~-]+\.lua|-e)\b`),
		quiet: func(c string) runner { return runner{command: c + ` -e '_PROMPT="" _PROMPT2=""' -i`} }},
	{Name: "R", Command: "R", Langs: []string{"r"},
		start: regexp.MustCompile(`^R(?:\s+--?[\w-]+)*$`), spoken: regexp.MustCompile(`\bR\b`), scripts: regexp.MustCompile(`^(?:-f|-e|--file)\b`),
		quiet: func(c string) runner { return runner{command: c + " --no-echo --no-save"} }},
	{Name: "gp", Command: "gp -q", Langs: []string{"gp", "pari"},
		start: regexp.MustCompile(`^gp(?:\s+-q)?$`), spoken: regexp.MustCompile(`(?i)\bpari/gp\b|\bgp\b`)},
	{Name: "php -a", Command: "php -a", Langs: []string{"php"},
		start: regexp.MustCompile(`^php\s+-a$`), spoken: regexp.MustCompile(`(?i)\bphp\b`), scripts: regexp.MustCompile(`^[\w./~-]+\.php\b`)},
	{Name: "tclsh", Command: "tclsh", Langs: []string{"tcl", "tclsh"},
		start: regexp.MustCompile(`^tclsh[\d.]*$`), spoken: regexp.MustCompile(`(?i)\btclsh[\d.]*\b|\btcl (?:shell|interpreter|repl)\b`), scripts: regexp.MustCompile(`^[\w./~-]+\.tcl\b`),
		// tclsh reading a pipe runs it as a script and prints no results;
		// tcl_interactive is tied to its terminal test, so setting it makes
		// it answer each command as it does for a person, and the empty
		// prompt scripts keep its `% ` out (`list` leaves the line's own
		// result empty).
		quiet: func(c string) runner {
			return runner{command: c, first: "set tcl_prompt1 {}; set tcl_prompt2 {}; set tcl_interactive 1; list\n"}
		}},
	{Name: "redis-cli", Command: "redis-cli", Langs: []string{"redis"},
		start: regexp.MustCompile(`^redis-cli\b[^<|;&]*$`), spoken: regexp.MustCompile(`(?i)\bredis-cli\b`),
		words: regexp.MustCompile(`(?i)^(?:ping|set|get|del|exists|keys|expire|ttl|incr|decr|incrby|lpush|rpush|lpop|rpop|lrange|llen|sadd|srem|smembers|sismember|` +
			`hset|hget|hgetall|hdel|zadd|zrange|flushall|flushdb|info|select|mset|mget|append|persist|publish|dbsize|auth|setex|getset|strlen|scan)$`)},
}

// endBlocks ends each indented block of Python code with an empty line, as
// a person typing it at the prompt does: the REPL runs a compound statement
// only after one (a page's block, written as a file, has none before the
// next statement).
func endBlocks(code string) string {
	lines := strings.Split(strings.TrimSuffix(code, "\n"), "\n")
	var out []string
	indented := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue // an empty line inside a block would end it early
		}
		starts := !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "\t")
		if starts && indented && !continues.MatchString(l) {
			out = append(out, "")
		}
		indented = !starts || indented && continues.MatchString(l)
		out = append(out, l)
	}
	if indented {
		out = append(out, "")
	}
	return strings.Join(out, "\n") + "\n"
}

// continues is a line that goes on the statement above at its own level:
// `else:`, `elif`, `except`, `finally:`, a closing bracket.
var continues = regexp.MustCompile(`^(?:else\b|elif\b|except\b|finally\b|[)\]}])`)

// ProgramNamed is the program a prompt or a table row names.
func ProgramNamed(name string) *Program {
	for _, p := range Programs {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Started is the program a command line starts waiting for typed input
// (`python3`, `sqlite3 survey.db`, `iex`), nil when it starts none.
func Started(command string) *Program {
	c := strings.TrimSpace(command)
	if strings.Contains(c, "\n") {
		return nil
	}
	c = strings.TrimPrefix(c, "sudo ")
	for _, p := range Programs {
		if p.start.MatchString(c) && !infoFlag.MatchString(c) {
			return p
		}
	}
	return nil
}

// SpokenBy is the first program a block of the language is typed into, nil
// when none is.
func SpokenBy(lang string) *Program {
	for _, p := range Programs {
		if p.Speaks(lang) {
			return p
		}
	}
	return nil
}

// Speaks reports whether a block of the language is typed into the program.
func (p *Program) Speaks(lang string) bool { return slices.Contains(p.Langs, lang) }

// ownsBare reports whether the program's prompt is a bare `> `.
func (p *Program) ownsBare() bool {
	for _, q := range Prompts {
		if q.Bare && q.Program == p.Name {
			return true
		}
	}
	return false
}

// runner is how a program is run fed a page's input: the command, a filter
// its output goes through, the lines it needs first.
type runner struct{ command, pipe, first string }

// WithInput is the shell text that runs a command with the tutorial's input
// as its standard input. A REPL's program is run so that it answers as it
// does for a person, without printing its prompts (Program.quiet).
func WithInput(command, stdin string) string {
	if stdin == "" {
		return command
	}
	// The input follows the command on its line: a comment there would
	// swallow it (`apt-get install x # Ubuntu <<'SMILE_INPUT'`).
	command = shell.WithoutTrailingComment(command)
	r := runner{command: command}
	if p := Started(command); p != nil && p.quiet != nil {
		r = p.quiet(strings.TrimSpace(command))
	}
	stdin = r.first + stdin
	delim := "SMILE_INPUT"
	for n := 1; strings.Contains(stdin, delim); n++ {
		delim = fmt.Sprintf("SMILE_INPUT_%d", n)
	}
	if !strings.HasSuffix(stdin, "\n") {
		stdin += "\n"
	}
	if r.pipe != "" {
		// The program's status, not the filter's, is the command's.
		return fmt.Sprintf("(set -o pipefail; %s <<'%s' | %s\n%s%s\n)", r.command, delim, r.pipe, stdin, delim)
	}
	return fmt.Sprintf("%s <<'%s'\n%s%s", r.command, delim, stdin, delim)
}
