package mentor

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/status"
)

// Error texts captured from bash 5.2 (Debian bookworm), dash (Debian sh) and
// busybox ash.
func TestClassify(t *testing.T) {
	tests := []struct {
		name     string
		command  string
		exit     int
		output   string
		timedOut bool
		want     status.Category
		subject  string
	}{
		{"bash command not found", "jq .name data.json", 127, "bash: line 1: jq: command not found\n", false, status.CategoryMissingDependency, "jq"},
		{"dash not found", "jq .", 127, "sh: 2: jq: not found\n", false, status.CategoryMissingDependency, "jq"},
		{"tar names the file before Cannot stat", "tar cvf a.tar notes", 2, "tar: notes: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors\n", false, status.CategoryMissingFile, "notes"},
		{"busybox not found", "jq .", 127, "sh: jq: not found\n", false, status.CategoryMissingDependency, "jq"},
		{"not found inside a script", "./build.sh", 127, "building\n./build.sh: line 3: make: command not found\n", false, status.CategoryMissingDependency, "make"},
		{"exit 127 without a message", "tool --version", 127, "", false, status.CategoryMissingDependency, "tool"},
		{"env: no such program", "env mytool", 127, "env: 'mytool': No such file or directory\n", false, status.CategoryMissingDependency, "mytool"},
		{"shebang interpreter missing (GNU env)", "./app.py", 127, "/usr/bin/env: ‘python’: No such file or directory\n", false, status.CategoryMissingDependency, "python"},
		{"bash 5.2 missing interpreter", "./b.sh", 127, "bash: line 1: ./b.sh: cannot execute: required file not found\n", false, status.CategoryMissingDependency, "./b.sh"},
		{"dash cannot open a script", "sh greet.sh", 2, "sh: 0: cannot open greet.sh: No such file\n", false, status.CategoryMissingFile, "greet.sh"},
		{"bad interpreter", "./x.sh", 126, "bash: line 1: ./x.sh: /bin/zsh: bad interpreter: No such file or directory\n", false, status.CategoryMissingDependency, "zsh"},
		{"bash missing script", "./run.sh", 127, "bash: line 1: ./run.sh: No such file or directory\n", false, status.CategoryMissingFile, "./run.sh"},
		{"busybox missing script", "./run.sh", 127, "sh: ./run.sh: not found\n", false, status.CategoryMissingFile, "./run.sh"},
		{"bash permission denied", "./run.sh", 126, "bash: line 1: ./run.sh: Permission denied\n", false, status.CategoryPermissionDenied, "./run.sh"},
		{"dash permission denied", "/tmp/x", 126, "sh: 2: /tmp/x: Permission denied\n", false, status.CategoryPermissionDenied, "/tmp/x"},
		{"touch permission denied", "touch /etc/x", 1, "touch: cannot touch '/etc/x': Permission denied\n", false, status.CategoryPermissionDenied, "/etc/x"},
		{"mkdir permission denied", "mkdir /sys/x", 1, "mkdir: cannot create directory '/sys/x': Permission denied\n", false, status.CategoryPermissionDenied, "/sys/x"},
		{"awk cannot open", "awk '{print $1}' table.txt", 2, "awk: cannot open table.txt (No such file or directory)\n", false, status.CategoryMissingFile, "table.txt"},
		{"ruby missing script", "ruby hola.rb", 1, "ruby: No such file or directory -- hola.rb (LoadError)\n", false, status.CategoryMissingFile, "hola.rb"},
		{"perl missing script", "perl hi.pl", 2, "Can't open perl script \"hi.pl\": No such file or directory\n", false, status.CategoryMissingFile, "hi.pl"},
		{"find curly quotes", "find /sys/x -name y", 1, "find: ‘/sys/x’: No such file or directory\n", false, status.CategoryMissingFile, "/sys/x"},
		{"bash cd missing folder", "cd my-app", 1, "bash: line 1: cd: my-app: No such file or directory\n", false, status.CategoryMissingFile, "my-app"},
		{"dash cd missing folder", "cd my-app", 2, "sh: 2: cd: can't cd to my-app\n", false, status.CategoryMissingFile, "my-app"},
		{"busybox cd missing folder", "cd my-app", 1, "sh: cd: line 1: can't cd to my-app: No such file or directory\n", false, status.CategoryMissingFile, "my-app"},
		{"cat missing file", "cat data.csv", 1, "cat: data.csv: No such file or directory\n", false, status.CategoryMissingFile, "data.csv"},
		{"busybox cat missing file", "cat data.csv", 1, "cat: can't open 'data.csv': No such file or directory\n", false, status.CategoryMissingFile, "data.csv"},
		{"ls missing file", "ls conf", 2, "ls: cannot access 'conf': No such file or directory\n", false, status.CategoryMissingFile, "conf"},
		{"python missing script", "python3 app.py", 2, "python3: can't open file '/workspace/work/app.py': [Errno 2] No such file or directory\n", false, status.CategoryMissingFile, "/workspace/work/app.py"},
		{"pytest missing test file", "pytest -q test_class.py", 4, "ERROR: file or directory not found: test_class.py\n\nno tests ran in 0.01s\n", false, status.CategoryMissingFile, "test_class.py"},
		{"python module", "python3 app.py", 1, "Traceback (most recent call last):\n  File \"app.py\", line 1, in <module>\nModuleNotFoundError: No module named 'flask'\n", false, status.CategoryMissingDependency, "flask"},
		{"python submodule", "python3 app.py", 1, "ModuleNotFoundError: No module named 'yaml.loader'\n", false, status.CategoryMissingDependency, "yaml"},
		{"node module", "node app.js", 1, "Error: Cannot find module 'express'\nRequire stack:\n", false, status.CategoryMissingDependency, "express"},
		{"node script", "node app.js", 1, "Error: Cannot find module '/workspace/work/app.js'\n", false, status.CategoryMissingFile, "/workspace/work/app.js"},
		{"timeout", "sleep 100", 137, "", true, status.CategoryTimeout, ""},
		{"plain failure", "false", 1, "", false, status.CategoryCommandFailure, ""},
		{"http 404 is not a missing command", "curl -f localhost/x", 22, "curl: (22) The requested URL returned error: 404 Not Found\n", false, status.CategoryCommandFailure, ""},
		{"apt cannot find a package", "apt-get install -y nosuch", 100, "E: Unable to locate package nosuch\n", false, status.CategoryCommandFailure, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Classify(tt.command, tt.exit, tt.output, tt.timedOut)
			if got.Category != tt.want || got.Subject != tt.subject {
				t.Errorf("classify = %+v, want %s subject %q", got, tt.want, tt.subject)
			}
		})
	}
}

func TestErrorLine(t *testing.T) {
	out := "Collecting things\nerror: could not build wheel\nSee above\n"
	if got := ErrorLine(out); got != "error: could not build wheel" {
		t.Errorf("errorLine = %q", got)
	}
	if got := ErrorLine("one\ntwo\n\n"); got != "two" {
		t.Errorf("errorLine = %q", got)
	}
}

func TestInterpreter(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct{ content, want string }{
		{"#!/usr/bin/env python3\nprint(1)\n", "python3"},
		{"#!/usr/bin/env -S node --harmony\n", "node"},
		{"#!/bin/zsh\necho\n", "zsh"},
		{"#! /usr/bin/perl -w\n", "perl"},
		{"echo no shebang\n", ""},
	} {
		p := filepath.Join(dir, "script")
		if err := os.WriteFile(p, []byte(tt.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Interpreter(context.Background(), session.Local{}, p); got != tt.want {
			t.Errorf("interpreter(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
	if got := Interpreter(context.Background(), session.Local{}, filepath.Join(dir, "missing")); got != "" {
		t.Errorf("interpreter of a missing file = %q", got)
	}
}

// A pipe that exits 0 though one of its programs is missing reports the
// program; bash's message about a word that is not in the command does not.
func TestMissingInPipe(t *testing.T) {
	out := "bash: line 1: curl: command not found\n"
	f, ok := MissingInPipe("curl -s example.org | grep title", out, nil)
	if !ok || f.Category != status.CategoryMissingDependency || f.Subject != "curl" {
		t.Errorf("curl pipe: %+v %v", f, ok)
	}
	if _, ok := MissingInPipe("wget -qO- example.org | grep title", out, nil); ok {
		t.Error("a program not in the command was blamed")
	}
	if _, ok := MissingInPipe("grep title page.html", "<title>x</title>\n", nil); ok {
		t.Error("plain output was blamed on a missing program")
	}
	f, ok = MissingInPipe("cat example.json | jq '.name'", "cat: example.json: No such file or directory\n", nil)
	if !ok || f.Category != status.CategoryMissingFile || f.Subject != "example.json" {
		t.Errorf("cat pipe: %+v %v", f, ok)
	}
	if _, ok := MissingInPipe("cat example.json | jq '.name'", "cat: other.json: No such file or directory\n", nil); ok {
		t.Error("a file not in the command was blamed")
	}
}

func TestMisused(t *testing.T) {
	for _, out := range []string{"cp: unrecognized option '--recursve'\nTry 'cp --help' for more information.", "mv: missing destination file operand after 'a'",
		"bash: line 1: syntax error near unexpected token `)'", "ls: invalid option -- 'y'", "usage: tar [-]{ACdrtux}"} {
		if !Misused("cp a b", out) {
			t.Errorf("%q says the command was misused", out)
		}
	}
	for _, out := range []string{"cp: cannot stat 'origem.txt': No such file or directory", "rm: cannot remove 'x': No such file or directory", "bash: line 1: ll: command not found"} {
		if Misused("cp a b", out) {
			t.Errorf("%q says a sample is missing, not that the command is wrong", out)
		}
	}
	if Misused("sqlite3 -help", "Usage: sqlite3 [OPTIONS] FILENAME [SQL]") {
		t.Error("asking for help prints the usage on purpose")
	}
}
