package transcript

import (
	"regexp"
	"strings"

	"github.com/smile-loop/smile/learner/literal/expect"

	"github.com/smile-loop/smile/learner/literal/rule"
)

// A block the tutorial types into a program that is waiting for input (a
// REPL, `cat > file`, a filter given no file) is that program's standard
// input: it is not run as shell and not compared.
var (
	// InputIntro is a sentence that says the block is typed into something.
	InputIntro = regexp.MustCompile(`(?i)\b(?:type|enter|paste|input)\b|\bat the (?:\S+\s+)?prompt\b|\bin(?:to)? the (?:repl|interpreter|console|shell|prompt)\b`)
	// interactive programs, started with nothing to run and no input given.
	interactive = regexp.MustCompile(`^(?:python[\d.]*|ipython3?|node|deno|irb|ruby|ghci|lua[\d.]*|bc(?:\s+-[ql]+)?|sqlite3(?:\s+[\w./-]+)?|` +
		`psql\b[^<|;&]*|mysql\b[^<|;&]*|redis-cli\b[^<|;&]*|mongosh?\b[^<|;&]*|php\s+-a|iex|erl|julia|scala|R|gp(?:\s+-q)?|` +
		`cat\s*>>?\s*[\w./~-]+|tee\s+(?:-a\s+)?[\w./~-]+|` +
		// Filters given no file read what is typed: `pandoc -f html -t markdown`,
		// `awk '{ print $1 }'`, `sort`, `wc -l`.
		`pandoc(?:\s+-{1,2}[\w-]+(?:=\S+|\s+[a-z][\w+-]*)?)*|cat|sort(?:\s+-\w+)*|wc(?:\s+-\w+)*|` +
		`(?:awk|sed(?:\s+-\w+)*|jq(?:\s+-\w+)*)\s+'[^']*')\s*$`)
	fileWriter = regexp.MustCompile(`^(?:cat\s*>>?|tee\s)`)
	// filterProgram reads what is typed until Ctrl-D, prints, and ends
	// (unlike a REPL, which answers line by line and stays).
	filterProgram = regexp.MustCompile(`^(?:pandoc|cat|sort|wc|awk|sed|jq)\b`)
	// infoFlag asks a program about itself (`--version`, sqlite3's
	// `-version`, `-h`); it reads no input.
	infoFlag = regexp.MustCompile(`(?:^|\s)(?:--?version|--?help|-[vVh])(?:\s|$)`)
)

// Waits reports whether a one-line command starts a program that waits for
// what the user types: a REPL, a file being written from the keyboard, a
// filter given no file.
func Waits(command string) bool {
	c := strings.TrimSpace(command)
	if strings.Contains(c, "\n") {
		return false
	}
	return (interactive.MatchString(c) || Started(c) != nil) && !infoFlag.MatchString(c)
}

// IsFilter reports whether the command is a filter: it answers once, when
// its input ends.
func IsFilter(command string) bool { return filterProgram.MatchString(strings.TrimSpace(command)) }

// WritesFile reports whether the command writes what is typed to a file.
func WritesFile(command string) bool { return fileWriter.MatchString(strings.TrimSpace(command)) }

// The rules that make a block without prompts a program's input.
var (
	RuleAfterStart = rule.Register(rule.Rule{ID: "input.after-start", Scope: rule.ScopeStep,
		Doc: "a block in a program's language right after a command that started that program waiting for input (`sqlite3 survey.db`, `python3` with no script) is typed into it"})
	RuleIntroduced = rule.Register(rule.Rule{ID: "input.introduced", Scope: rule.ScopeBefore,
		Doc: "a block after a sentence that says to type it (\"type\", \"at the prompt\", \"in the REPL\"), while a program waits for input, is typed into that program"})
	RuleProseStart = rule.Register(rule.Rule{ID: "input.prose-start", Scope: rule.ScopeBefore,
		Doc: "a block in a program's language after a sentence that starts that program (\"open the sqlite3 shell\", \"start python\", \"run iex\") is typed into it"})
)

var (
	// startVerb comes a few words before a program's name in a sentence
	// that starts it: "open the database with sqlite3", "start python".
	startVerb = regexp.MustCompile(`(?i)\b(?:open|start|launch|run|fire up|bring up|enter|invoke)\b(?:\s+[^\s.!?:;]+){0,4}?\s*$`)
	// inPrompt comes just before a name that replWord follows: "in the
	// node REPL", "at the sqlite3 prompt".
	inPrompt = regexp.MustCompile(`(?i)\b(?:in|into|at|inside)(?:\s+(?:the|a|an|your|new|interactive))*\s*$`)
	// replWord after a name says it is the program's prompt, not a script.
	replWord = regexp.MustCompile(`(?i)^\s*(?:interactive\s+)?(?:shell|repl|interpreter|console|prompt|session|client)\b`)
	// codeWord after a name says the sentence is about code in that
	// language ("run the following Python code"), not its program.
	codeWord = regexp.MustCompile(`(?i)^\s*(?:code|script|program|file|snippet|example|module|package|project|app|application|function|class|version|\d)`)
	// endsClause: nothing after the name but the clause's end, or "and",
	// "then": "run iex, then type", "start python:".
	endsClause = regexp.MustCompile(`(?i)^\s*(?:$|[:,.;!)]|and\b|then\b|to\b|with\b)`)
	runVerb    = regexp.MustCompile(`(?i)^run\b`)
	// replOn: "the sqlite3 shell on shop.db" names the file after the shell.
	replOn  = regexp.MustCompile(`(?i)^\s*(?:interactive\s+)?(?:shell|repl|interpreter|console|prompt|session|client)\s+(?:on|for|with|of)\b`)
	fileArg = regexp.MustCompile(`^\s+([\w./~-]+\.\w+|[\w.~-]*/[\w./~-]+)`)
	inline  = regexp.MustCompile("`([^`]+)`")
)

// startsProgram reports whether a verb before a program's name starts it:
// not when the name is a language of code ("start a Python script"); "run"
// only when the name ends the clause, takes a file or is called a shell ("run
// python:", "run sqlite3 shop.db"), since "run python" often runs a script.
func startsProgram(verb, rest string) bool {
	if codeWord.MatchString(rest) {
		return false
	}
	return !runVerb.MatchString(verb) || endsClause.MatchString(rest) || fileArg.MatchString(rest) || replWord.MatchString(rest)
}

// ProseStart reads a paragraph that starts a program whose language the
// block is in ("open the database with sqlite3 survey.db", "start python"):
// the command that starts it, with the evidence. ok is false when the prose
// starts none, or runs one of its scripts (`python3 app.py`).
func ProseStart(prose string, line int, lang string) (command string, ev rule.Evidence, ok bool) {
	text := strings.Join(strings.Fields(prose), " ")
	// A command in backticks that starts the program says it best.
	for _, m := range inline.FindAllStringSubmatch(text, -1) {
		if p := Started(m[1]); p != nil && p.Speaks(lang) {
			return strings.TrimSpace(m[1]), RuleProseStart.At(line, m[0]), true
		}
	}
	for _, p := range Programs {
		if !p.Speaks(lang) {
			continue
		}
		for _, loc := range p.spoken.FindAllStringIndex(text, -1) {
			before := strings.TrimRight(text[:loc[0]], "` ")
			rest := strings.TrimLeft(text[loc[1]:], "`")
			from := -1
			if v := startVerb.FindStringIndex(before); v != nil && startsProgram(before[v[0]:], rest) {
				from = v[0]
			} else if v := inPrompt.FindStringIndex(before); v != nil && replWord.MatchString(rest) {
				from = v[0]
			}
			if from < 0 || p.scripts != nil && p.scripts.MatchString(strings.TrimSpace(rest)) {
				continue // not started, or it runs a script rather than the prompt
			}
			cmd, phrase := p.Command, strings.TrimSpace(text[from:loc[1]])
			if m := fileArg.FindStringSubmatch(replOn.ReplaceAllString(rest, "")); m != nil && p.scripts == nil {
				arg := strings.TrimRight(m[1], ".,;:")
				cmd, phrase = cmd+" "+arg, phrase+" "+arg
			}
			return cmd, RuleProseStart.At(line, phrase), true
		}
	}
	return "", rule.Evidence{}, false
}

var (
	asksQuestions = regexp.MustCompile(`^(?:sudo\s+)?(?:ssh-keygen\b|(?:npm|yarn|pnpm)\s+init\b|adduser\s+\w|cargo\s+login\b|django-admin\s+createsuperuser\b|python3?\s+manage\.py\s+createsuperuser\b)`)
	answersGiven  = regexp.MustCompile(`(?:^|\s)(?:-N|-y|--yes|--disabled-password|--no-input|--noinput|--gecos)(?:\s|=|$)|<|\|`)
	// keygenQuery: ssh-keygen asked about keys it has (-F, -l, -R, -y
	// ...), not to make one.
	keygenQuery = regexp.MustCompile(`\bssh-keygen\b.*\s-[A-Za-z]*[FRlyeiBDHkLQsuUZ]`)
)

// AsksWithDefaults reports whether the command starts a program known to ask
// questions that have defaults (ssh-keygen, npm init, adduser), and nothing
// on its line answers them: a reader presses Enter for each.
func AsksWithDefaults(command string) bool {
	line := strings.TrimSpace(command)
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	return asksQuestions.MatchString(line) && !answersGiven.MatchString(line) && !keygenQuery.MatchString(line)
}

// aptAsks is an apt install, upgrade or removal without -y: apt asks "Do
// you want to continue? [Y/n]".
var aptAsks = regexp.MustCompile(`^(?:sudo\s+)?apt(?:-get)?\s+(?:install|upgrade|dist-upgrade|full-upgrade|remove|purge|autoremove)\b(?:[^-\n]|-[^y-]|--[^ya])*$`)

// AptAsks reports whether the command is an apt install, upgrade or removal
// that will ask to continue: a reader answers y.
func AptAsks(command string) bool { return aptAsks.MatchString(command) }

// readPrompt is a `read` that asks the reader at the prompt: `read name`,
// `read -p "Your name: " name`, not fed by a redirection or a pipe.
var readPrompt = regexp.MustCompile(`^read(?:\s+-[a-zA-Z]+)*(?:\s+-p\s+(?:"([^"]*)"|'([^']*)'|(\S+)))?(?:\s+-[a-zA-Z]+)*\s+[A-Za-z_]\w*(?:\s+[A-Za-z_]\w*)*\s*$`)

// ReadAnswer is what a reader types at a `read` the page runs at the
// prompt: the value the output shown after it has after its question
// (`Your name: Ana` gives "Ana"), else nothing but Enter; and the shown
// output less that line, which is the terminal echoing the reader's typing
// (`read -p` asks only a terminal). ok is false when the command is no such
// read.
func ReadAnswer(command string, shown []expect.Line) (answer string, rest []expect.Line, ok bool) {
	m := readPrompt.FindStringSubmatch(strings.TrimSpace(command))
	if m == nil {
		return "", shown, false
	}
	question := strings.TrimSpace(m[1] + m[2] + m[3])
	answer = "\n"
	for _, l := range shown {
		if t := strings.TrimSpace(l.Text); question != "" && answer == "\n" && strings.HasPrefix(t, question) {
			answer = strings.TrimSpace(strings.TrimPrefix(t, question)) + "\n"
			continue
		}
		rest = append(rest, l)
	}
	return answer, rest, true
}

// leaves is a line typed into a REPL that ends it: `exit`, `quit()`,
// sqlite3's `.quit`, psql's `\q`, GHCi's `:q`, R's `q()`.
var leaves = regexp.MustCompile(`^\s*(?:exit|quit|exit\(\)|quit\(\)|q\(\)|\.(?:quit|exit|q)|\\q|:q(?:uit)?|EXIT|QUIT)\s*;?\s*$`)

// Left reports whether the last line typed into a program ends it: after
// it the shell has the keyboard again, and no later block is typed in.
func Left(stdin string) bool {
	lines := strings.Split(strings.TrimRight(stdin, "\n"), "\n")
	return stdin != "" && leaves.MatchString(lines[len(lines)-1])
}
