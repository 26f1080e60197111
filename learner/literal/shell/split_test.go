package shell

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func TestWithoutTrailingComment(t *testing.T) {
	for in, want := range map[string]string{
		"apt-get install nginx # Ubuntu":           "apt-get install nginx",
		"echo '# not a comment'":                   "echo '# not a comment'",
		"echo a#b":                                 "echo a#b",
		"make":                                     "make",
		"cd x && \\\n  make # build":               "cd x && \\\n  make",
		"# only a comment":                         "# only a comment",
		"cat <<EOF\n# inside\nEOF":                 "cat <<EOF\n# inside\nEOF",
		"for i in 1 2; do echo $i; done # loop":    "for i in 1 2; do echo $i; done",
		"if true; then # why\n  echo y\nfi":        "if true; then # why\n  echo y\nfi",
		"psql -U app -W   # asks for the password": "psql -U app -W",
	} {
		if got := WithoutTrailingComment(in); got != want {
			t.Errorf("WithoutTrailingComment(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLastInChain(t *testing.T) {
	for in, want := range map[string]string{
		"flask run":                            "flask run",
		"export FLASK_APP=app.py && flask run": "flask run",
		"cd site; PORT=8000 hugo serve":        "hugo serve",
		"make build && \\\n ./server":          "make build && \\\n ./server",
	} {
		if got := LastInChain(in); got != want {
			t.Errorf("LastInChain(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTrailingComment(t *testing.T) {
	for in, want := range map[string]string{
		"planet=Venus   # fails: read-only": "fails: read-only",
		"echo '# not a comment'":            "",
		"make":                              "",
		"# only a comment":                  "",
		"cd x && \\\n  make #build":         "build",
	} {
		if got := TrailingComment(in); got != want {
			t.Errorf("TrailingComment(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNamesFile(t *testing.T) {
	for _, c := range []struct {
		script, name string
		want         bool
	}{
		{"chmod +x tidy.sh", "tidy.sh", true},
		{"bash ./tidy.sh && echo ok", "tidy.sh", true},
		{"sudo cp scripts/tidy.sh /usr/local/bin", "tidy.sh", true},
		{"for n in 1 2; do echo $n; done", "tidy.sh", false},
		{"echo tidy", "tidy.sh", false},
		{"if [ x", "tidy.sh", false},
	} {
		if got := NamesFile(c.script, c.name); got != c.want {
			t.Errorf("NamesFile(%q, %q) = %v, want %v", c.script, c.name, got, c.want)
		}
	}
}

func TestCreates(t *testing.T) {
	for _, c := range []struct {
		command, name string
		want          bool
	}{
		{"mkdir -p lab/src", "lab", true},
		{"sudo touch ./notes.txt", "notes.txt", true},
		{"cp /tmp/x.c lab/x.c", "lab", true},
		{"cp lab/x.c /tmp/", "lab", false},
		{"git clone https://example.org/r.git demo", "demo", true},
		{"cargo new hello && cd hello", "hello", true},
		{"go run main.go", "main.go", false},
		{"go mod init example.org/m", "example.org", false},
		{"echo hi > out.txt", "out.txt", true},
		{"sort < words.txt", "words.txt", false},
		{"bash count.sh words.txt", "count.sh", false},
		{"echo hi | tee log.txt", "log.txt", true},
		{"mkdir /opt/lab", "lab", false},
	} {
		if got := Creates(c.command, c.name); got != c.want {
			t.Errorf("Creates(%q, %q) = %v, want %v", c.command, c.name, got, c.want)
		}
	}
}

func TestWatched(t *testing.T) {
	for in, want := range map[string]bool{
		"top": true, "sudo htop": true, "less /etc/passwd": true, "more notes.txt": true,
		"top -b -n 1": false, "ps aux | less": false, "less < notes.txt": false, "cat notes.txt": false,
		"top; echo done": false, "tail -f /var/log/app.log": true, "tail -n 5 log": false, "journalctl -fu nginx": true, "watch -n 1 date": true, "ping example.org": true, "ping -c 3 example.org": false, "man ls": true, "man 5 crontab": true, "ncdu -v": false, "less --help": false,
	} {
		if got := Watched(in); got != want {
			t.Errorf("Watched(%q) = %v, want %v", in, got, want)
		}
	}
}

// code is a block's lines, from line 10 on.
func code(texts ...string) []markdown.CodeLine {
	out := make([]markdown.CodeLine, len(texts))
	for i, s := range texts {
		out[i] = markdown.CodeLine{Line: 10 + i, Text: s}
	}
	return out
}

func TestSplitTypedIntoAFile(t *testing.T) {
	got := Split(code("mkdir shop", "cat > shop/list.txt", "bread", "eggs", "^D", "wc -l shop/list.txt"))
	want := []Span{
		{Line: 10, EndLine: 10, Text: "mkdir shop"},
		{Line: 11, EndLine: 14, Text: "cat > shop/list.txt <<'SMILE_TYPED_END'\nbread\neggs\nSMILE_TYPED_END"},
		{Line: 15, EndLine: 15, Text: "wc -l shop/list.txt"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Split = %+v\nwant %+v", got, want)
	}
	// No ^D, then a blank line and a command: the typing ended before it.
	if got := Split(code("cat > digits.txt", "0123456789", "", "split -b 5 digits.txt")); len(got) != 2 || got[1].Text != "split -b 5 digits.txt" {
		t.Errorf("a command after a blank line: %+v", got)
	}
	// No ^D and no blank line: a command on the file being typed ends it.
	if got := Split(code("cat>digits.txt", "0123456789", "split -b5 digits.txt", "cd ..")); len(got) != 3 || got[1].Text != "split -b5 digits.txt" || got[2].Text != "cd .." {
		t.Errorf("a command on the file: %+v", got)
	}
	// vi in insert mode: the text up to Esc and :wq is the file's.
	if got := Split(code("vi hello.sh", "i", "echo hi", "<Esc>", ":wq", "bash hello.sh")); len(got) != 2 || got[0].EndLine != 14 ||
		got[0].Text != "cat > hello.sh <<'SMILE_TYPED_END'\necho hi\nSMILE_TYPED_END" || got[1].Text != "bash hello.sh" {
		t.Errorf("vi in insert mode: %+v", got)
	}
	// vi without an insert key is an editor step, not typing.
	if got := Split(code("vi hello.sh", "bash hello.sh")); len(got) != 2 || got[0].Text != "vi hello.sh" {
		t.Errorf("vi alone: %+v", got)
	}
	// No ^D: the typing runs to the end of the block.
	if got := Split(code("cat >> notes", "first", "")); len(got) != 1 || got[0].EndLine != 11 || !strings.Contains(got[0].Text, "<<'SMILE_TYPED_END'\nfirst\nSMILE_TYPED_END") {
		t.Errorf("to the end of the block: %+v", got)
	}
	// A writer fed by a pipe or a heredoc, or with nothing after it, types nothing.
	for _, lines := range [][]markdown.CodeLine{code("echo hi | tee out.txt", "cat out.txt"), code("cat > a <<EOF", "x", "EOF"), code("ls", "cat > a")} {
		for _, s := range Split(lines) {
			if strings.Contains(s.Text, typedEnd) {
				t.Errorf("%+v: nothing is typed, got %q", lines, s.Text)
			}
		}
	}
}

// The lines after a switch to another user's shell, up to its exit, run in
// that shell; a switch to root, or with nothing after it, is a line as any.
func TestSplitNestedShell(t *testing.T) {
	got := Split(code("sudo su - ana", "echo hi > ~/a.txt", "mkdir ~/d", "exit", "ls -l /home/ana"))
	want := []Span{
		{Line: 10, EndLine: 13, Text: "sudo su - ana <<'SMILE_TYPED_END'\necho hi > ~/a.txt\nmkdir ~/d\nSMILE_TYPED_END"},
		{Line: 14, EndLine: 14, Text: "ls -l /home/ana"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Split = %+v\nwant %+v", got, want)
	}
	if got := Split(code("sudo -iu ana", "whoami")); len(got) != 1 || !strings.HasPrefix(got[0].Text, "sudo -iu ana <<") {
		t.Errorf("sudo -iu to the block's end: %+v", got)
	}
	for _, lines := range [][]markdown.CodeLine{code("sudo su - root", "whoami"), code("su - ana"), code("sudo -u ana whoami", "ls")} {
		if got := Split(lines); len(got) != len(lines) {
			t.Errorf("%v: %+v, want one span a line", lines, got)
		}
	}
}

func TestOtherScope(t *testing.T) {
	for _, c := range []struct {
		a, b []string
		want bool
	}{
		{[]string{"git config --global user.name Ana"}, []string{"git config user.name Ana"}, true},
		{[]string{"npm install -g serve"}, []string{"npm install serve"}, true},
		{[]string{"exec 3<>/dev/tcp/host/80"}, []string{"exec 3>&-"}, false},
		{[]string{"git init"}, []string{"git init"}, false},
		{[]string{"git config user.name Ana"}, []string{"git config user.name Bo"}, false},
	} {
		if got := OtherScope(c.a, c.b); got != c.want {
			t.Errorf("OtherScope(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
