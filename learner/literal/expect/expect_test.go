package expect

import "testing"

func exp(first int, lines ...string) []Line {
	out := make([]Line, len(lines))
	for i, l := range lines {
		out[i] = Line{Line: first + i, Text: l}
	}
	return out
}

func TestMatchOutput(t *testing.T) {
	tests := []struct {
		name        string
		expected    []Line
		actual      string
		wantOK      bool
		wantMissing int
	}{
		{"exact", exp(5, "Hello, World!"), "Hello, World!\n", true, 0},
		{"trailing spaces and CRLF ignored", exp(5, "a  ", "b"), "a\r\nb   \r\n", true, 0},
		{"blank lines at the ends ignored", exp(5, "", "a", "b", ""), "a\nb\n", true, 0},
		{"lines in order with others between", exp(5, "first", "last"), "first\nnoise\nlast\n", true, 0},
		{"wrong order", exp(5, "last", "first"), "first\nlast\n", false, 6},
		{"missing line points at it", exp(5, "ok", "Hello, World!"), "ok\nHello World\n", false, 6},
		{"ellipsis line matches any run", exp(5, "Collecting flask", "...", "Successfully installed flask"),
			"Collecting flask\n  Downloading\n  more\nSuccessfully installed flask\n", true, 0},
		{"unicode ellipsis line", exp(5, "a", "…", "z"), "a\nb\nz\n", true, 0},
		// These two fail if the ellipsis line is only a pattern for one line.
		{"ellipsis line may stand for no line", exp(5, "a", "...", "z"), "a\nz\n", true, 0},
		{"bracketed ellipsis line", exp(5, "a", "[...]", "z"), "a\nb\nc\nz\n", true, 0},
		{"ellipsis inside a line", exp(5, "added ... packages in ...s"), "added 52 packages in 3s\n", true, 0},
		{"ellipsis inside a line still needs the rest", exp(5, "added ... packages"), "removed 52 packages\n", false, 5},
		{"leading spaces matter", exp(5, "  indented"), "indented\n", false, 5},
		{"nothing printed", exp(7, "something"), "", false, 7},
		// A terminal's bash does not name a line; the script bash SMILE runs does.
		{"a terminal's shell error", exp(5, "bash: ./greet.sh: Permission denied"), "bash: line 1: ./greet.sh: Permission denied\n", true, 0},
		{"zsh's error on a page written on macOS", exp(5, "zsh: permission denied: ./p1/run.sh"), "bash: line 1: ./p1/run.sh: Permission denied\n", true, 0},
		{"zsh's error names the same file", exp(5, "zsh: permission denied: ./p1/run.sh"), "bash: line 1: ./p2/run.sh: Permission denied\n", false, 5},
		{"a login shell's error", exp(5, "-bash: nosuch: command not found"), "bash: line 3: nosuch: command not found\n", true, 0},
		{"a shell error shown without the shell's name", exp(5, "çalı=bitki: command not found"), "bash: line 1: çalı=bitki: command not found\n", true, 0},
		{"a tab shown as spaces", exp(5, "1    PHP", "2    Ruby"), "1\tPHP\n2\tRuby\n", true, 0},
		{"columns aligned another way", exp(5, "name   size"), "name\tsize\n", true, 0},
		{"a gap still separates words", exp(5, "1 PHP"), "1PHP\n", false, 5},
		{"a message in the author's language", exp(5, "script.sh: строка 2: PI: переменная только для чтения"), "script.sh: line 2: PI: readonly variable\n", true, 0},
		{"a translated message still names its line", exp(5, "script.sh: строка 3: PI: переменная только для чтения"), "script.sh: line 2: PI: readonly variable\n", false, 5},
		{"a translated message still names its subject", exp(5, "script.sh: строка 2: PI: переменная только для чтения"), "script.sh: line 2: TAU: readonly variable\n", false, 5},
		{"a program's translated message quoting the same name", exp(5, "make: `hello' に対して行うべき事はありません."), "make: Nothing to be done for 'hello'.\n", true, 0},
		{"a program's translated message with nothing quoted", exp(5, "make: *** ターゲットがありません.  中止."), "make: *** No targets.  Stop.\n", true, 0},
		{"a program's translated message quoting another name", exp(5, "make: `hello' に対して行うべき事はありません."), "make: Nothing to be done for 'clean'.\n", false, 5},
		{"a translated message where the program quotes a name it does not", exp(5, "make: *** ターゲットがありません.  中止."), "make: *** No rule to make target 'hello'.  Stop.\n", false, 5},
		{"a translated message is not the shell's, whose prefix is gone", exp(5, "make: *** ターゲットがありません.  中止."), "bash: line 1: make: command not found\n", false, 5},
		{"a translated message that keeps nothing as written", exp(5, "make: ターゲットがありません"), "make: No targets\n", false, 5},
		{"an English message is compared as it is", exp(5, "script.sh: line 2: PI: read-only"), "script.sh: line 2: PI: readonly variable\n", false, 5},
		{"a placeholder for the reader's path", exp(5, "Initialized empty Git repository in {path}/.git/"), "Initialized empty Git repository in /root/work/.git/\n", true, 0},
		{"a placeholder in angle brackets", exp(5, "Hello, <your name>!"), "Hello, Ana!\n", true, 0},
		{"a placeholder stands for something", exp(5, "Hello, <your name>!"), "Hello, !\n", false, 5},
		{"an HTML tag is no placeholder", exp(5, "<h1>Hi</h1>"), "<h2>Hi</h1>\n", false, 5},
		{"a shell error names its file still", exp(5, "bash: ./greet.sh: Permission denied"), "bash: line 1: ./other.sh: Permission denied\n", false, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			missing, ok := MatchOutput(tt.expected, tt.actual)
			if ok != tt.wantOK || (!ok && missing.Line != tt.wantMissing) {
				t.Errorf("matchOutput = %+v, %v; want ok=%v missing line %d", missing, ok, tt.wantOK, tt.wantMissing)
			}
		})
	}
}
