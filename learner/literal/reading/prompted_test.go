package reading

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// A paragraph whose every line starts with a shell prompt holds commands
// written without a code block; one line of prose among them makes it prose.
// A chain that ends by starting a server keeps running in the background.
func TestPromptedParagraphs(t *testing.T) {
	tests := []struct {
		name string
		md   string
		want []string
	}{
		{"one prompted line", md("Install it:", "", "(venv)$ pip3 install flask"), []string{"run 3 pip3 install flask"}},
		{"two prompted lines", md("$ mkdir demo", "$ ls -a"), []string{"run 1 mkdir demo", "run 2 ls -a"}},
		{"a chain ending in a server", md("$ export FLASK_APP=demo.py && flask run"), []string{"run 1 export FLASK_APP=demo.py && flask run (background)"}},
		{"prose among the lines", md("$ mkdir demo", "then look around"), nil},
		{"a price is no prompt", md("$5 per month"), nil},
		{"a command a block holds", md("$ make", "", "```console", "$ make", "```"), []string{"run 4 make"}},
		// A client opened in a new terminal takes the blocks after it;
		// a server there keeps running.
		{"a client in a new terminal", md("Open a new terminal and start the client:", "", "```bash", "redis-cli", "```", "", "Store a key:", "", "```bash", "SET greeting hello", "```"),
			[]string{"run 4 redis-cli <- SET greeting hello"}},
		{"a client's words that are shell builtins", md("```bash", "redis-cli", "```", "", "Store and read a key:", "", "```bash", "set greeting hello", "echo ping", "```"),
			[]string{"run 2 redis-cli <- set greeting hello; echo ping"}},
		{"a shell program after a client", md("```bash", "redis-cli", "```", "", "Back at the shell:", "", "```bash", "ls -l", "```"),
			[]string{"run 2 redis-cli", "run 8 ls -l"}},
		{"a server in a new terminal", md("Open a new terminal and start the server:", "", "```bash", "redis-server", "```", "", "Then:", "", "```bash", "SET greeting hello", "```"),
			[]string{"run 4 redis-server (background)", "run 9 redis-cli <- SET greeting hello"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := plan(t, tc.md); !slices.Equal(got, tc.want) {
				t.Errorf("plan = %q, want %q", got, tc.want)
			}
		})
	}
}

// A sentence after the code names its file in the page's own language, the
// pronoun joined to the verb ("grave-o como", "guárdalo como").
func TestNamedAfterTheFact(t *testing.T) {
	for _, sentence := range []string{
		"Após digitar o código acima, grave-o como **Hello.java** em algum diretório.",
		"Después, guárdalo como `Hello.java`.",
		"Enregistrez-le sous `Hello.java`.",
		"Speichere ihn als `Hello.java`.",
		"把上面的代码保存为 `Hello.java`。",
	} {
		got := plan(t, md("```java", "class Hello { public static void main(String[] a) {} }", "```", "", sentence))
		if !slices.Equal(got, []string{"write 1 Hello.java"}) {
			t.Errorf("%q: plan = %q", sentence, got)
		}
	}
}

// A block the prose calls output that opens with a REPL's prompt (a log line
// `>>> [query] ...` a program printed) is output, unless its tag is the
// REPL's language.
func TestOutputOpeningWithAPrompt(t *testing.T) {
	md := "Run it:\n\n```bash\necho '>>> [query] done'\n```\n\nOutput:\n\n```text\n>>> [query] done\n```\n\n" +
		"In the REPL, the output:\n\n```pycon\n>>> 1 + 1\n2\n```\n"
	var kinds []string
	for _, s := range Plan(spectest.Tutorial(t, md)) {
		kinds = append(kinds, fmt.Sprintf("%d %s", s.Line, s.Kind))
	}
	if got, want := strings.Join(kinds, ", "), "4 run, 10 compare, 16 run"; got != want {
		t.Errorf("steps %s, want %s", got, want)
	}
}
