package reading

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"

	"github.com/smile-loop/smile/learner/literal/expect"
)

// code numbers lines from first, as a block's content would be.
func code(first int, text string) []markdown.CodeLine {
	var out []markdown.CodeLine
	for i, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		out = append(out, markdown.CodeLine{Line: first + i, Text: l})
	}
	return out
}

type cmdLine struct {
	Line, EndLine int
	Text          string
}

func cmdLines(cmds []Command) []cmdLine {
	var out []cmdLine
	for _, c := range cmds {
		out = append(out, cmdLine{c.Line, c.EndLine, c.Text})
	}
	return out
}

func TestScriptCommands(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []cmdLine
	}{
		{"one per line, comments and blanks skipped", "# install\nmkdir app\n\ncd app\n", []cmdLine{
			{11, 11, "mkdir app"}, {13, 13, "cd app"}}},
		{"backslash continuation", "docker run \\\n  --rm \\\n  hello\necho done\n", []cmdLine{
			{10, 12, "docker run \\\n  --rm \\\n  hello"}, {13, 13, "echo done"}}},
		{"quoted heredoc with a redirection after it", "cat <<'EOF' > a.txt\nhello $X\n\nEOF\nls\n", []cmdLine{
			{10, 13, "cat <<'EOF' > a.txt\nhello $X\n\nEOF"}, {14, 14, "ls"}}},
		{"if block is one command", "if [ -f x ]; then\n  echo yes\nelse\n  echo no\nfi\necho after\n", []cmdLine{
			{10, 14, "if [ -f x ]; then\n  echo yes\nelse\n  echo no\nfi"}, {15, 15, "echo after"}}},
		{"for loop and function", "for f in a b; do\n  echo $f\ndone\ngreet() {\n  echo hi\n}\ngreet\n", []cmdLine{
			{10, 12, "for f in a b; do\n  echo $f\ndone"}, {13, 15, "greet() {\n  echo hi\n}"}, {16, 16, "greet"}}},
		{"statements sharing a line stay together", "cd app; ls\nif true; then\n  echo x\nfi; echo y\n", []cmdLine{
			{10, 10, "cd app; ls"}, {11, 13, "if true; then\n  echo x\nfi; echo y"}}},
		{"trailing comment kept on its line, comment lines after dropped", "ls -la  # list\n# done\n", []cmdLine{
			{10, 10, "ls -la  # list"}}},
		{"unparsable script falls back to lines", "echo (\nls\n", []cmdLine{
			{10, 10, "echo ("}, {11, 11, "ls"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cmdLines(scriptCommands(code(10, tt.text)))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %#v\nwant %#v", got, tt.want)
			}
		})
	}
}

func TestConsoleCommands(t *testing.T) {
	text := `Hello from before
$ cd app
$ python3 app.py
Hello, World!
...
# a comment, not output
$ cat <<EOF > notes.txt
> one
> EOF
$ docker run \
>   --rm hello
   $ echo indented
`
	leading, cmds := consoleCommands(code(20, text))
	if want := []expect.Line{{Line: 20, Text: "Hello from before"}}; !reflect.DeepEqual(leading, want) {
		t.Errorf("leading = %v, want %v", leading, want)
	}
	want := []cmdLine{
		{21, 21, "cd app"},
		{22, 22, "python3 app.py"},
		{26, 28, "cat <<EOF > notes.txt\none\nEOF"},
		{29, 30, "docker run \\\n  --rm hello"},
		{31, 31, "echo indented"},
	}
	if got := cmdLines(cmds); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %#v\nwant %#v", got, want)
	}
	if want := []expect.Line{{Line: 23, Text: "Hello, World!"}, {Line: 24, Text: "..."}}; !reflect.DeepEqual(cmds[1].Expected, want) {
		t.Errorf("expected output = %v, want %v", cmds[1].Expected, want)
	}
	if len(cmds[0].Expected) != 0 {
		t.Errorf("cd has expected output %v", cmds[0].Expected)
	}
}

func TestPromptForms(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"$ ls", true},
		{"(venv) $ pip list", true},
		{"ann@box:~/app$ make", true},
		{"box:~$ date", true},    // a host and its folder, no user
		{"box:/srv$ ls", true},   // an absolute folder
		{"ratio:$ 5", false},     // no folder after the colon
		{"total: 5$ due", false}, // prose with a colon
		{"  % Total    % Received", false},
	} {
		if got := hasPrompt(tt.line); got != tt.want {
			t.Errorf("hasPrompt(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// `cd NAME` from /home into a prompt showing `~` goes into the author's own
// home folder: the reader goes into theirs. Other moves keep their text.
func TestTranscriptIntoOwnHome(t *testing.T) {
	text := "ada:/$ cd home\n" +
		"ada:/home$ cd ada\n" +
		"ada:~$ pwd\n" +
		"/home/ada\n" +
		"ada:~$ cd /tmp\n" +
		"ada:/tmp$ cd work\n" +
		"ada:/tmp/work$ cd ..\n" +
		"ada:/tmp$ cd ~\n" +
		"ada:~$ ls\n"
	_, cmds := consoleCommands(code(1, text))
	var got []string
	for _, c := range cmds {
		got = append(got, c.Text)
	}
	want := []string{"cd home", "cd ~", "pwd", "cd /tmp", "cd work", "cd ..", "cd ~", "ls"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("commands %q, want %q", got, want)
	}
}
