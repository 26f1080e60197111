package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"

	"github.com/smile-loop/smile/learner/literal/rule"
)

// runs renders a transcript compactly: "python3 <- 1 + 1; x = 2 => 2" per run.
func runs(t Transcript) []string {
	var out []string
	for _, r := range t.Runs {
		s := r.Command.Text
		if r.Stdin != "" {
			s += " <- " + strings.ReplaceAll(strings.TrimSuffix(r.Stdin, "\n"), "\n", "; ")
		}
		var shown []string
		for _, l := range r.Command.Expected {
			shown = append(shown, l.Text)
		}
		if len(shown) > 0 {
			s += " => " + strings.Join(shown, "; ")
		}
		out = append(out, s)
	}
	return out
}

func TestReadREPLs(t *testing.T) {
	tests := []struct {
		name, lang, text string
		want             []string
	}{
		{"python with a continuation", "", ">>> for i in range(2):\n...     print(i)\n...\n0\n1\n>>> 'x' * 3\n'xxx'\n",
			[]string{"python3 <- for i in range(2):;     print(i); ; 'x' * 3 => 0; 1; 'xxx'"}},
		{"an ellipsis after output is output", "", ">>> print('a\\nb\\nc')\na\n...\n",
			[]string{"python3 <- print('a\\nb\\nc') => a; ..."}},
		{"ipython, its Out mark left out", "", "In [1]: x = 3\n\nIn [2]: x + 1\nOut[2]: 4\n",
			[]string{"python3 <- x = 3; x + 1 => 4"}},
		{"the blank lines between IPython's prompts are no output", "", "In [1]: 2 + 2\nOut[1]: 4\n\nIn [2]: 3 * 3\nOut[2]: 9\n",
			[]string{"python3 <- 2 + 2; 3 * 3 => 4; 9"}},
		{"irb, its result mark left out", "ruby", "irb(main):001:0> [1, 2].sum\n=> 3\n",
			[]string{"irb <- [1, 2].sum => 3"}},
		{"iex", "", "iex(1)> 1 + 1\n2\niex(2)> Enum.sum([1,\n...(2)> 2])\n3\n", []string{"iex <- 1 + 1; Enum.sum([1,; 2]) => 2; 3"}},
		{"sqlite with a continuation", "", "sqlite> SELECT 1\n   ...> + 1;\n2\n", []string{"sqlite3 <- SELECT 1; + 1; => 2"}},
		{"mysql", "", "mysql> SELECT 1\n    -> ;\n", []string{"mysql <- SELECT 1; ;"}},
		{"psql in a sql block", "sql", "shop=> SELECT 2;\n", []string{"psql <- SELECT 2;"}},
		{"ghci", "", "ghci> 2 + 3\n5\nλ> :t 'a'\n'a' :: Char\n", []string{"ghci <- 2 + 3; :t 'a' => 5; 'a' :: Char"}},
		{"node in a js block", "js", "> 1 + 1\n2\n... \n", []string{"node <- 1 + 1 => 2; ... "}},
		{"R in an r block, with its continuation", "r", "> c(1,\n+ 2)\n[1] 1 2\n", []string{"R <- c(1,; 2) => [1] 1 2"}},
		{"lua in a lua block", "lua", "> 1 + 1\n2\n", []string{"lua <- 1 + 1 => 2"}},
		{"a shell command that starts python feeds it", "console", "$ python3\n>>> 2 ** 8\n256\n>>> exit()\n$ echo done\ndone\n",
			[]string{"python3 <- 2 ** 8; exit() => 256", "echo done => done"}},
		{"a shell command that starts node owns the > lines after it", "console", "$ node\n> 2 * 3\n6\n> .exit\n$ echo back\n",
			[]string{"node <- 2 * 3; .exit => 6", "echo back"}},
		{"lines after cat > file are typed into it", "console", "$ cat > notes.txt\nbuy milk\ncall Ann\n$ wc -l < notes.txt\n2\n",
			[]string{"cat > notes.txt <- buy milk; call Ann", "wc -l < notes.txt => 2"}},
		{"lines typed into a filter up to ^D, then its output", "console", "$ sort\npear\napple\n^D\napple\npear\n",
			[]string{"sort <- pear; apple => apple; pear"}},
		{"a calculator's answers between the lines typed are typed too", "console", "$ bc -q\n2+2\n4\nquit\n",
			[]string{"bc -q <- 2+2; 4; quit"}},
		{"a REPL prompt in a shell's output, no REPL started, is output", "console", "$ cat session.txt\n>>> 1\n",
			[]string{"cat session.txt => >>> 1"}},
		{"a bare > in a shell transcript is output", "console", "$ cat quote.md\n> to be\n", []string{"cat quote.md => > to be"}},
		{"a shell continuation", "console", "$ echo a \\\n>   b\na b\n", []string{"echo a \\\n  b => a b"}},
		{"a bare > opening an untagged block is a shell prompt", "", "> mkdir out\n> ls\n", []string{"mkdir out", "ls"}},
		{"a root transcript", "console", "# apt-get install -y tree\n...\n# tree -L 1\n.\n", []string{"apt-get install -y tree => ...", "tree -L 1 => ."}},
		{"comments are no root prompts", "console", "# Make a folder.\n$ mkdir x\n", []string{"mkdir x"}},
		{"root after sudo -i", "console", "$ sudo -i\n# whoami\nroot\n", []string{"sudo -i", "whoami => root"}},
		{"PowerShell", "", "PS C:\\> dir\n", []string{"dir"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := runs(Read(spectest.Code(1, tt.text), Context{Lang: tt.lang}))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

// A bare `> ` is decided by what came before: the block's language, the
// program the step before started, the prose; with nothing, the shell's
// (and `1 + 1`, which reads as no command, opens no transcript).
func TestBarePromptOwner(t *testing.T) {
	lines := spectest.Code(5, "> 1 + 1\n2\n")
	for _, tt := range []struct {
		name string
		c    Context
		want string
		rule string
	}{
		{"the language", Context{Lang: "javascript"}, "node", "prompt.bare.lang"},
		{"the step before", Context{Running: "R", RunningLine: 2}, "R", "prompt.bare.step"},
		{"the prose", Context{Before: "In the node REPL, add two numbers:", BeforeLine: 3}, "node", "prompt.bare.prose"},
		{"nothing: the shell", Context{}, "1 + 1", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Read(lines, tt.c).Runs
			if len(r) != 1 || r[0].Command.Text != tt.want {
				t.Fatalf("runs %+v, want one run of %s", r, tt.want)
			}
			ev, ok := Starts(lines, tt.c)
			if ok != (tt.rule != "") || tt.rule != "" && (len(ev) < 2 || ev[1].Rule != tt.rule) {
				t.Errorf("evidence %v, want %s", ev, tt.rule)
			}
		})
	}
}

func TestEvidenceNamesPromptAndLine(t *testing.T) {
	r := Read(spectest.Code(7, ">>> 6 * 7\n42\n"), Context{}).Runs
	want := []rule.Evidence{{Rule: "prompt.python", Line: 7, Phrase: ">>> "}}
	if len(r) != 1 || !reflect.DeepEqual(r[0].Evidence, want) {
		t.Errorf("evidence %+v, want %+v", r, want)
	}
	if _, ok := rule.Lookup("prompt.python"); !ok {
		t.Errorf("prompt.python is not registered")
	}
}

func TestStarted(t *testing.T) {
	for cmd, want := range map[string]string{
		"python3": "python3", "python3 -q": "python3", "python3 app.py": "", "python3 --version": "", "sqlite3 -version": "", "sqlite3 notes.db": "sqlite3",
		"sqlite3 survey.db": "sqlite3", "iex": "iex", "irb": "irb", "node": "node", "node app.js": "",
		"psql -d shop": "psql", "lua5.4": "lua", "R": "R", "ls": "",
	} {
		got := ""
		if p := Started(cmd); p != nil {
			got = p.Name
		}
		if got != want {
			t.Errorf("Started(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestProseStart(t *testing.T) {
	for _, tt := range []struct {
		prose, lang, want string
	}{
		{"Open the database with sqlite3 survey.db and look around:", "sql", "sqlite3 survey.db"},
		{"Open the sqlite3 shell:", "sql", "sqlite3"},
		{"Start python and try:", "python", "python3"},
		{"Run iex, then type:", "elixir", "iex"},
		{"In the node REPL, type:", "javascript", "node"},
		{"Start the interpreter with `python3 -q`:", "python", "python3 -q"},
		{"Run the script with python3 app.py:", "python", ""},
		{"This library works with Python 3.", "python", ""},
		{"Run the following Python code:", "python", ""},
		{"Start a Python script named app.py:", "python", ""},
		{"Run python, then type:", "python", "python3"},
		{"Open the sqlite3 shell on shop.db:", "sql", "sqlite3 shop.db"},
		{"Start python:", "sql", ""},
	} {
		got, ev, ok := ProseStart(tt.prose, 4, tt.lang)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("ProseStart(%q, %s) = %q, %v, want %q", tt.prose, tt.lang, got, ok, tt.want)
		}
		if ok && (ev.Rule != "input.prose-start" || ev.Line != 4 || ev.Phrase == "") {
			t.Errorf("ProseStart(%q): evidence %+v", tt.prose, ev)
		}
	}
}

func TestWithInput(t *testing.T) {
	for _, tt := range []struct{ cmd, want string }{
		{"python3", "python3 -i -q -c 'import sys; sys.ps1 = sys.ps2 = \"\"' <<'SMILE_INPUT'\n1\nSMILE_INPUT"},
		{"irb", "irb -f --nomultiline --noverbose --prompt null --echo-on-assignment --inspect p <<'SMILE_INPUT'\n1\nSMILE_INPUT"},
		{"sqlite3 x.db", "sqlite3 x.db <<'SMILE_INPUT'\n1\nSMILE_INPUT"},
		{"sqlite3 x.db # the demo database", "sqlite3 x.db <<'SMILE_INPUT'\n1\nSMILE_INPUT"},
		{"sudo apt install sqlite3 # Ubuntu", "sudo apt install sqlite3 <<'SMILE_INPUT'\n1\nSMILE_INPUT"},
		{"iex", "(set -o pipefail; iex -e 'IEx.configure(default_prompt: \"\", continuation_prompt: \"\", alive_prompt: \"\", alive_continuation_prompt: \"\")' <<'SMILE_INPUT' | sed -e 's/^ //'\n1\nSMILE_INPUT\n)"},
	} {
		if got := WithInput(tt.cmd, "1"); got != tt.want {
			t.Errorf("WithInput(%q) =\n%s\nwant\n%s", tt.cmd, got, tt.want)
		}
	}
	if got := WithInput("python3", ""); got != "python3" {
		t.Errorf("no input: %q", got)
	}
}

func TestFeed(t *testing.T) {
	in, shown, ok := Feed(spectest.Code(1, "sqlite> SELECT 1;\n1\n"), "sqlite3 a.db")
	if !ok || in != "SELECT 1;\n" || len(shown) != 1 || shown[0].Text != "1" {
		t.Errorf("prompted: %q %v %v", in, shown, ok)
	}
	in, shown, ok = Feed(spectest.Code(1, "SELECT 1;\nSELECT 2;\n"), "sqlite3 a.db")
	if !ok || in != "SELECT 1;\nSELECT 2;\n" || len(shown) != 0 {
		t.Errorf("no prompts: %q %v %v", in, shown, ok)
	}
}

// A bare `> ` no REPL owns opens a shell transcript only when its lines read
// as commands: a quotation is not one.
func TestAngleTranscriptOrQuotation(t *testing.T) {
	if _, ok := Starts(spectest.Code(1, "> mkdir out\n> ls\n"), Context{}); !ok {
		t.Errorf("commands after > are a transcript")
	}
	if _, ok := Starts(spectest.Code(1, "> To be, or not to be.\n"), Context{}); ok {
		t.Errorf("a quotation is no transcript")
	}
	if _, ok := Starts(spectest.Code(1, "> mkdir out\n"), Context{Lang: "yaml"}); ok {
		t.Errorf("a YAML block is no shell transcript")
	}
}

// A Python block without prompts typed into the REPL: each indented block
// ends with an empty line, as a person types it.
func TestFeedPythonEndsBlocks(t *testing.T) {
	in, _, _ := Feed(spectest.Code(1, "def twice(n):\n    return n * 2\nprint(twice(4))\nif True:\n    x = 1\nelse:\n    x = 2\n\nprint(x)\n"), "python3")
	want := "def twice(n):\n    return n * 2\n\nprint(twice(4))\nif True:\n    x = 1\nelse:\n    x = 2\n\nprint(x)\n"
	if in != want {
		t.Errorf("typed\n%q\nwant\n%q", in, want)
	}
}
