package literal

import (
	"testing"

	"github.com/go-logr/logr"
	"github.com/smile-loop/smile/learner/literal/coverage"
	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec/spectest"
)

// `ls *.txt` lists the reader's own files: when the page made none that
// match, "cannot access '*.txt'" is no gap; when it made one, it is.
func TestGlobMatchedNothing(t *testing.T) {
	s := &student{}
	s.out.FilesCreated = []string{"/workspace/work/notes.md"}
	noTxt := "ls: cannot access '*.txt': No such file or directory\n"
	for _, c := range []struct {
		command, output string
		want            bool
	}{
		{"ls *.txt", noTxt, true},
		{"ls -l *.txt", noTxt, true},
		{"ls *.md", "ls: cannot access '*.md': No such file or directory\n", false},
		{"ls notes.txt", "ls: cannot access 'notes.txt': No such file or directory\n", false},
		{"ls *.txt | wc -l", noTxt, false},
		{`grep -n "error" *.log`, "grep: *.log: No such file or directory\n", true},
		{`grep -n "error" *`, "grep: *: No such file or directory\n", false}, // notes.md would match: it is elsewhere
		{"cat notes.txt", "cat: notes.txt: No such file or directory\n", false},
	} {
		if got := s.globMatchedNothing(c.command, c.output); got != c.want {
			t.Errorf("globMatchedNothing(%q) = %v, want %v", c.command, got, c.want)
		}
	}
}

// A reference list's line that runs a file the page made works on the
// page's own file: its failure is not a sample name's.
func TestOnPagesFile(t *testing.T) {
	s := &student{}
	s.out.FilesCreated = []string{"/workspace/work/skript.pl"}
	for cmd, want := range map[string]bool{"./skript.pl": true, "perl skript.pl --help": true, "chmod +x datei.txt": false} {
		if got := s.onPagesFile(cmd); got != want {
			t.Errorf("onPagesFile(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// A program not found after an install step ran out of time is what the
// cut install would have brought: no gap. Without a cut install, or for
// another failure, it is not settled here.
func TestAfterCutInstall(t *testing.T) {
	notFound := session.Result{ExitCode: 127, Output: "bash: line 1: make: command not found\n"}
	cmd := reading.Command{Line: 23, Text: "make"}
	tut := spectest.Tutorial(t, "# Build\n\n```\nsudo apt-get install -y cmake\n```\n\n```\nmake\n```\n")
	s := &student{tut: tut, cov: coverage.New(tut, nil), env: provider.Env{Log: logr.Discard()}}
	if s.afterCutInstall(cmd, notFound) {
		t.Error("settled with no install cut short")
	}
	s.cutInstall = 9
	if !s.afterCutInstall(cmd, notFound) {
		t.Error("not settled after the install at line 9 was cut short")
	}
	if s.afterCutInstall(cmd, session.Result{ExitCode: 2, Output: "make: *** No targets.  Stop.\n"}) {
		t.Error("settled a failure of the program itself")
	}
}
