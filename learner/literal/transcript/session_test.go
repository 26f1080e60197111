package transcript

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/learner/literal/expect"
)

func TestInSession(t *testing.T) {
	script, ok := InSession("python3", "x = 1\n", false, 7)
	if !ok {
		t.Fatal("python3 has sessions")
	}
	for _, want := range []string{"command -v python3", "-u -i -q", "tail -n +1 -f", "x = 1\n", `print("SMILE-SESSION-MARK-7")`, "kill -0"} {
		if !strings.Contains(script, want) {
			t.Errorf("the session script lacks %q:\n%s", want, script)
		}
	}
	fresh, _ := InSession("python3", "x = 1\n", true, 8)
	if !strings.Contains(fresh, "if true; then") || strings.Contains(script, "if true; then") {
		t.Errorf("only a block that starts the program itself restarts the session:\n%s", fresh)
	}
	if _, ok := InSession("bc -q", "1+1\n", false, 9); ok {
		t.Error("a program with no session mark has no session")
	}
	if !HasSession("node") || HasSession("sqlite3") {
		t.Error("HasSession: node has sessions, sqlite3 not yet")
	}
}

func TestReadAnswer(t *testing.T) {
	shown := []expect.Line{{Line: 5, Text: "Your name: Ana"}, {Line: 6, Text: "Hello, Ana"}}
	answer, rest, ok := ReadAnswer(`read -p "Your name: " name`, shown)
	if !ok || answer != "Ana\n" || len(rest) != 1 || rest[0].Text != "Hello, Ana" {
		t.Errorf("ReadAnswer = %q %v %v", answer, rest, ok)
	}
	if answer, _, ok := ReadAnswer("read -r line", nil); !ok || answer != "\n" {
		t.Errorf("a read with nothing shown gets Enter: %q %v", answer, ok)
	}
	for _, c := range []string{"read line < notes.txt", "cat notes | read x", "while read line; do echo $line; done", "reader --help"} {
		if _, _, ok := ReadAnswer(c, nil); ok {
			t.Errorf("%q is no read at the prompt", c)
		}
	}
}
