package transcript

import (
	"strings"
	"testing"
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
