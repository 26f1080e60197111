package mentor

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/expect"
)

func TestReaderSpecificOutput(t *testing.T) {
	exp := func(first int, lines ...string) []expect.Line {
		out := make([]expect.Line, len(lines))
		for i, l := range lines {
			out[i] = expect.Line{Line: first + i, Text: l}
		}
		return out
	}
	e, a := ReaderSpecific("git status", exp(1, "On branch main", "No commits yet"), "On branch master\nNo commits yet\n")
	if _, ok := expect.MatchOutput(e, a); !ok {
		t.Errorf("git's default branch name made a difference: %v %q", e, a)
	}
	e, a = ReaderSpecific("cat notes", exp(1, "On branch main"), "On branch master\n")
	if _, ok := expect.MatchOutput(e, a); ok {
		t.Error("outside git, main and master still differ")
	}
}

func TestReaderSpecificOwnOutput(t *testing.T) {
	tests := []struct {
		command, shown, printed string
		same                    bool
	}{
		{"date", "Fri 10 Jan 2020 11:49:31 AM EST", "Tue Nov 24 03:06:09 UTC 2026", true},
		{"echo $PATH", "/usr/local/bin:/usr/bin:/bin", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/opt/x", true},
		{"/bin/echo $PATH", "/usr/bin:/bin", "/usr/bin:/bin:/opt/x", true},
		{"which echo", "/bin/echo", "/usr/bin/echo", true},
		{"which echo", "/bin/printf", "/usr/bin/echo", false},
		{"cat notes.txt", "Fri 10 Jan 2020", "hello", false},
	}
	for _, tc := range tests {
		exp, act := ReaderSpecific(tc.command, []expect.Line{{Line: 3, Text: tc.shown}}, tc.printed)
		if _, ok := expect.MatchOutput(exp, act); ok != tc.same {
			t.Errorf("%s: %q against %q: match = %v, want %v", tc.command, tc.shown, tc.printed, ok, tc.same)
		}
	}
}

// A path under the author's home in shown output is the author's machine:
// only its last part is compared.
func TestReaderSpecificAuthorsPath(t *testing.T) {
	exp := []expect.Line{{Line: 14, Text: "Initialized empty Git repository in /Users/ana/work/demo/.git/"}}
	e, a := ReaderSpecific("git init", exp, "hint: Using 'master' as the name\nInitialized empty Git repository in /workspace/work/.git/\n")
	if _, ok := expect.MatchOutput(e, a); !ok {
		t.Errorf("the author's path was compared: %q against %q", e[0].Text, a)
	}
	e, a = ReaderSpecific("git init", exp, "Initialized empty Git repository in /workspace/work/.svn/\n")
	if _, ok := expect.MatchOutput(e, a); ok {
		t.Errorf("a different last part matched: %q against %q", e[0].Text, a)
	}
}
