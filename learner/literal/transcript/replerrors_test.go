package transcript

import "testing"

func TestErrorAnswer(t *testing.T) {
	for _, tc := range []struct{ prog, output, want string }{
		{"python3", "4\nTraceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nNameError: name 'x' is not defined\n", "Traceback (most recent call last):"},
		{"python3", "  File \"<stdin>\", line 1\n    print(\"hi\"\n         ^\nSyntaxError: '(' was never closed\n", "SyntaxError: '(' was never closed"},
		{"python3", "hello world\n42\n", ""},
		{"ghci", "<interactive>:3:1: error: [GHC-88464]\n    Variable not in scope: dobleMe\n", "<interactive>:3:1: error: [GHC-88464]"},
		{"sqlite3", "Parse error: near \"SELEC\": syntax error\n", "Parse error: near \"SELEC\": syntax error"},
		{"redis-cli", "OK\n(error) ERR value is not a valid float\n", "(error) ERR value is not a valid float"},
		{"iex", "** (CompileError) iex:1: undefined function foo/0\n", "** (CompileError) iex:1: undefined function foo/0"},
		{"redis-cli", "OK\n\"hello\"\n", ""},
		{"php -a", "anything\n", ""}, // no marks known: never an error
	} {
		p := ProgramNamed(tc.prog)
		if p == nil {
			t.Fatalf("no program %s", tc.prog)
		}
		if got := p.ErrorAnswer(tc.output); got != tc.want {
			t.Errorf("%s.ErrorAnswer(%q) = %q, want %q", tc.prog, tc.output, got, tc.want)
		}
	}
}
