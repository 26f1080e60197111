package blockshape

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
)

func lines(text ...string) []markdown.CodeLine {
	out := make([]markdown.CodeLine, len(text))
	for i, t := range text {
		out[i] = markdown.CodeLine{Line: 10 + i, Text: t}
	}
	return out
}

func TestTrailingOutput(t *testing.T) {
	for _, tc := range []struct {
		name string
		code []markdown.CodeLine
		want int
	}{
		{"json after the command", lines("curl -s localhost:8080/items", `[{"id": 1}]`), 1},
		{"a result label", lines("wc -l notes.txt", "# output", "3 notes.txt"), 2},
		{"a log with prompts", lines("cat session.log", "$ echo started"), 1},
		{"commands only", lines("mkdir demo", "cd demo"), 0},
		{"json split by a continuation", lines("curl -d \\", `{"a": 1}`), 0},
		{"ls -l rows after the listing", lines("chmod +x run.sh", "ls -l", "total 4", "-rwxr-xr-x 1 ada staff 20 Mar  3 10:12 run.sh"), 2},
		{"a row after another command", lines("chmod 600 key", "-rw------- 1 ada staff 20 Mar  3 10:12 key"), 0},
		{"rows then a command", lines("ls -l", "drwxr-xr-x 2 ada staff 64 Mar  3 10:12 src", "cd src"), 0},
	} {
		if got := TrailingOutput(tc.code); got != tc.want {
			t.Errorf("%s: TrailingOutput = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestShape(t *testing.T) {
	if !LooksLikeCommands(lines("go build", "", "ls -l")) || LooksLikeCommands(lines("Hello, World!")) || LooksLikeCommands(lines("", "")) {
		t.Error("LooksLikeCommands: commands, then prose, then nothing")
	}
	if LooksLikeCommands(lines("drwxrwxrwt 10 root root 4096 Apr 23 10:00 /tmp")) || LooksLikeCommands(lines("lrwxrwxrwx. 1 root root 7 Jan 1 bin -> usr/bin")) {
		t.Error("LooksLikeCommands: a row ls -l prints is no command")
	}
	if !LooksLikeCommands(lines("today=$(date)", `echo "$today"`)) || LooksLikeCommands(lines("HOME=/root", "PATH=/usr/bin:/bin")) {
		t.Error("LooksLikeCommands: an assignment beside a command is one; lines of NAME=value alone are not")
	}
	for _, tc := range []struct {
		name string
		code []markdown.CodeLine
		want int
	}{
		{"a label, then output", lines("# output", `"devops engineer"`), 1},
		{"a label in Korean after a blank", lines("", "# 결과", "3"), 2},
		{"a label over prompts is a transcript's", lines("# output", "$ ls"), 0},
		{"a label alone", lines("# output"), 0},
		{"a comment over a command", lines("# output the date", "date"), 0},
	} {
		if got := LabelledOutput(tc.code); got != tc.want {
			t.Errorf("%s: LabelledOutput = %d, want %d", tc.name, got, tc.want)
		}
	}
	if !OpensWithPrompt(lines("", "$ ls")) || OpensWithPrompt(lines("ls", "$ pwd")) || !HasPromptLine(lines("ls", "$ pwd")) {
		t.Error("prompts: opening, not opening, anywhere")
	}
	if FirstContentLine(lines("", "  ", "x"), 3) != 12 || FirstContentLine(lines(""), 3) != 3 {
		t.Error("FirstContentLine")
	}
	if e := ExpectedLines(lines("a", "b")); len(e) != 2 || e[1].Line != 11 || e[1].Text != "b" {
		t.Errorf("ExpectedLines = %+v", e)
	}
}

func TestReferenceList(t *testing.T) {
	yes := [][]string{
		{"cp a.txt b.txt   # plain copy", "cp -r dir/ backup/  # a whole folder"},
		{"/home/ana   # an absolute path", "../   # the folder above"},
	}
	no := [][]string{
		{"cp a.txt b.txt   # plain copy"},                                    // one line is a step
		{"mkdir demo   # the project", "cd demo"},                            // a step without a comment
		{"for f in *; do  # each file\n  echo $f\ndone", "ls   # the files"}, // a command of several lines
	}
	for _, c := range yes {
		if !ReferenceList(c) {
			t.Errorf("%q is a reference list", c)
		}
	}
	for _, c := range no {
		if ReferenceList(c) {
			t.Errorf("%q is not a reference list", c)
		}
	}
}

func TestMisTagged(t *testing.T) {
	block := func(text string) markdown.Block {
		var code []markdown.CodeLine
		for i, l := range strings.Split(text, "\n") {
			code = append(code, markdown.CodeLine{Line: i + 1, Text: l})
		}
		return markdown.Block{Text: text, Code: code}
	}
	if !MisTagged(block("server {\n  listen 80;\n  root /srv;\n}")) {
		t.Error("a config file under a shell tag no shell parses is mis-tagged")
	}
	for _, text := range []string{"echo a\necho b\necho c", "if [ x\necho", "#!/usr/bin/env bats\n@test \"x\" {\n}"} {
		if MisTagged(block(text)) {
			t.Errorf("%q is not mis-tagged", text)
		}
	}
}

func TestKnownCommands(t *testing.T) {
	for _, tc := range []struct {
		lines []markdown.CodeLine
		want  bool
	}{
		{lines("mkdir demo", "cd demo/", "git init"), true},
		{lines("# stage everything", "git add . # the whole folder", "", "git status"), true},
		{lines("hello world"), false}, // output whose first word could name a program
		{lines("git init", "Initialized empty Git repository in /w/.git/"), false},
		{lines("drwxr-xr-x 2 root root 4096 Jan 1 00:00 demo"), false},
		{lines("# only a comment"), false},
	} {
		if got := KnownCommands(tc.lines); got != tc.want {
			t.Errorf("KnownCommands(%v) = %v, want %v", tc.lines, got, tc.want)
		}
	}
}
