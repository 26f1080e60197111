package session

import (
	"context"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// A program that asks its reader is seen asking; one that never reads its
// input, or reads another program's output, is not; and a command that waits
// on its input among other descriptors is not left hanging.
func TestAskedForInput(t *testing.T) {
	ctx := context.Background()
	s, err := New(t.TempDir(), []string{"PATH=/usr/bin:/bin"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		name, command string
		asked         []string
		code          int
	}{
		{"read builtin", `read -r name; echo "hi $name"`, []string{"bash"}, 0},
		{"read that fails at the end of input", `read -r -p "Name: " name || exit 3`, []string{"bash"}, 3},
		{"a program of a pipeline's start", `cat | wc -l`, []string{"cat"}, 0},
		{"after some work", `sleep 0.3; head -n 1`, []string{"head"}, 0},
		{"no reading", `echo hi; sleep 0.1`, nil, 0},
		{"reads another program's output", `printf 'a\nb\n' | cat`, nil, 0},
		{"input given in the command", "cat <<'EOF'\nx\nEOF", nil, 0},
		{"background job", `cat & wait`, nil, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := s.Run(ctx, c.command, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Asked, c.asked) || res.ExitCode != c.code || res.TimedOut {
				t.Fatalf("Run(%q): asked %q, exit %d, timed out %v; want asked %q, exit %d", c.command, res.Asked, res.ExitCode, res.TimedOut, c.asked, c.code)
			}
		})
	}
	t.Run("a wait among descriptors gets the end of its input", func(t *testing.T) {
		if _, err := exec.LookPath("perl"); err != nil {
			t.Skip("no perl for a select() on the input")
		}
		start := time.Now()
		res, err := s.Run(ctx, `perl -e 'vec($r, 0, 1) = 1; select($r, undef, undef, 20) or exit 9; exit(sysread(STDIN, $b, 1) == 0 ? 0 : 4)'`, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode != 0 || res.TimedOut || time.Since(start) > 10*time.Second || len(res.Asked) != 0 {
			t.Fatalf("select on the input: exit %d, timed out %v, asked %q after %s; want exit 0 within the grace, unrecorded", res.ExitCode, res.TimedOut, res.Asked, time.Since(start))
		}
	})
}
