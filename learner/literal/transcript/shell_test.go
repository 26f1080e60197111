package transcript

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"

	"github.com/smile-loop/smile/learner/literal/expect"
)

type cmdLine struct {
	Line, EndLine int
	Text          string
}

func commands(t Transcript) []Command {
	var out []Command
	for _, r := range t.Runs {
		out = append(out, r.Command)
	}
	return out
}

func cmdLines(cmds []Command) []cmdLine {
	var out []cmdLine
	for _, c := range cmds {
		out = append(out, cmdLine{c.Line, c.EndLine, c.Text})
	}
	return out
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
	got := Read(spectest.Code(20, text), Context{Lang: "console"})
	leading, cmds := got.Leading, commands(got)
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
		{"(venv)$ pip list", true}, // no space before the dollar
		{"(base) ann@box:~$ conda list", true},
		{"(venv)ann@box:~/app$ flask run", true},
		{"(note) $5 each", false},
		{"f(x)$ y", false},
		{"ann@box:~/app$ make", true},
		{"box:~$ date", true},    // a host and its folder, no user
		{"box:/srv$ ls", true},   // an absolute folder
		{"ratio:$ 5", false},     // no folder after the colon
		{"total: 5$ due", false}, // prose with a colon
		{"  % Total    % Received", false},
	} {
		if got := HasShellPrompt(tt.line); got != tt.want {
			t.Errorf("HasShellPrompt(%q) = %v, want %v", tt.line, got, tt.want)
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
	cmds := commands(Read(spectest.Code(1, text), Context{Lang: "console"}))
	var got []string
	for _, c := range cmds {
		got = append(got, c.Text)
	}
	want := []string{"cd home", "cd ~", "pwd", "cd /tmp", "cd work", "cd ..", "cd ~", "ls"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("commands %q, want %q", got, want)
	}
}

// Each command keeps the folder its prompt shows, in the prompt's forms.
func TestPromptFolders(t *testing.T) {
	text := "ada:/tmp$ ls\n" + "[ada@lab Demo1]$ cmake .\n" + "built\n" + "my_project$ make\n" + "$ pwd\n"
	cmds := commands(Read(spectest.Code(1, text), Context{Lang: "console"}))
	var got []string
	for _, c := range cmds {
		got = append(got, c.Folder)
	}
	if want := []string{"/tmp", "Demo1", "my_project", ""}; strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("folders %q, want %q", got, want)
	}
}

// A file printed with cat keeps its lines that start with `#` (its #!, its
// comments); a `#` line after a blank one is the page's note on it.
func TestFilePrinterKeepsHashLines(t *testing.T) {
	text := "$ cat greet.sh\n#!/bin/bash\n# say hello\necho hi\n\n# that was the script\n$ echo done\ndone\n"
	cmds := commands(Read(spectest.Code(10, text), Context{Lang: "console"}))
	want := []expect.Line{{Line: 11, Text: "#!/bin/bash"}, {Line: 12, Text: "# say hello"}, {Line: 13, Text: "echo hi"}, {Line: 14, Text: ""}}
	if len(cmds) != 2 || !reflect.DeepEqual(cmds[0].Expected, want) {
		t.Errorf("cat's output = %v, want %v", cmds[0].Expected, want)
	}
}
