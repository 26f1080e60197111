package session

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// A state saved in one session and restored in another (through JSON, as a
// checkpoint keeps it) gives the same folder, exports, functions and aliases.
func TestSavedStateRestoresInAnotherSession(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newSession(t, dir)
	if res, err := a.Run(ctx, "mkdir -p sub && cd sub && export GREETING=hello && greet() { echo \"$GREETING from f\"; } && alias hi='echo alias-ok'", 10*time.Second); err != nil || res.ExitCode != 0 {
		t.Fatalf("setup: %+v %v", res, err)
	}
	js, err := json.Marshal(a.State().Saved())
	if err != nil {
		t.Fatal(err)
	}
	var saved status.ShellState
	if err := json.Unmarshal(js, &saved); err != nil {
		t.Fatal(err)
	}
	b := newSession(t, dir)
	b.SetState(FromSaved(saved))
	if !b.State().Set("GREETING") {
		t.Error("GREETING not listed as set after restore")
	}
	res, err := b.Run(ctx, "pwd; greet; hi", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Fields(res.Output)
	want := []string{dir + "/sub", "hello", "from", "f", "alias-ok"}
	if strings.Join(out, " ") != strings.Join(want, " ") {
		t.Fatalf("restored session printed %q, want %q", res.Output, strings.Join(want, " "))
	}
}

// Positional parameters set at the prompt (`set alpha "b c"`) are there for
// the next command, as in one terminal, and survive a checkpoint.
func TestPositionalParametersCarryOver(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := newSession(t, dir)
	if a.Shell() != "bash" {
		t.Skip("no bash: a POSIX sh does not carry positional parameters")
	}
	if res, err := a.Run(ctx, `set alpha "b c" 'it'"'"'s' $'x\ny'`, 10*time.Second); err != nil || res.ExitCode != 0 {
		t.Fatalf("set: %+v %v", res, err)
	}
	want := "4|alpha|b c|it's|x\ny|\n"
	show := `printf '%s|' "$#" "$@"; echo`
	res, err := a.Run(ctx, show, 10*time.Second)
	if err != nil || res.Output != want {
		t.Fatalf("next command printed %q (%v), want %q", res.Output, err, want)
	}
	b := newSession(t, dir)
	b.SetState(FromSaved(a.State().Saved()))
	if res, err := b.Run(ctx, show, 10*time.Second); err != nil || res.Output != want {
		t.Fatalf("restored session printed %q (%v), want %q", res.Output, err, want)
	}
	if res, err := b.Run(ctx, "set --; echo $#", 10*time.Second); err != nil || strings.TrimSpace(res.Output) != "0" {
		t.Fatalf("set -- printed %q (%v), want 0", res.Output, err)
	}
	if res, err := b.Run(ctx, "echo $#", 10*time.Second); err != nil || strings.TrimSpace(res.Output) != "0" {
		t.Fatalf("after set -- the next command printed %q (%v), want 0", res.Output, err)
	}
}

// newSession is a local session in dir, closed when the test ends.
func newSession(t *testing.T, dir string) *Session {
	t.Helper()
	s, err := New(dir, []string{"PATH=/usr/bin:/bin", "HOME=" + dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// `$?` is the status of the command before, as in a terminal, where a page
// runs `ls /nonexistent` and then tests `$?` on its own line; under errexit
// the shell is not ended by it.
func TestExitStatusCarriesToTheNextCommand(t *testing.T) {
	ctx := context.Background()
	s := newSession(t, t.TempDir())
	for _, tc := range []struct{ command, want string }{
		{"ls /nonexistent-dir", ""},
		{"echo $?", "2"},
		{"echo $?", "0"},
		{"set -e", ""},
		{"false", ""},
		{"echo still here", "still here"},
	} {
		res, err := s.Run(ctx, tc.command, 10*time.Second)
		if err != nil {
			t.Fatalf("%s: %v", tc.command, err)
		}
		if tc.want != "" && strings.TrimSpace(res.Output) != tc.want {
			t.Errorf("%s printed %q, want %q", tc.command, res.Output, tc.want)
		}
	}
}
