package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSessionAsAccount: with container.user, the page's commands run as
// that account, own what they and the session write (even what a
// privileged step made), and cannot read the hands' own process; SMILE's
// privileged steps still run as root.
func TestSessionAsAccount(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, as the hands in a container are")
	}
	base, err := os.MkdirTemp("", "smile-account-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(base, "work")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "shipped.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := NewAs(ctx, Local{}, work, nil, "nobody")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	owner := func(p string) uint32 {
		t.Helper()
		info, err := os.Lstat(filepath.Join(work, p))
		if err != nil {
			t.Fatal(err)
		}
		return info.Sys().(*syscall.Stat_t).Uid
	}
	res, err := s.Run(ctx, "id -un; echo more >> shipped.txt && touch made.txt && echo ok", 10*time.Second)
	if err != nil || res.ExitCode != 0 || !strings.Contains(res.Output, "nobody") || !strings.Contains(res.Output, "ok") {
		t.Fatalf("as nobody: %v %+v", err, res)
	}
	if err := s.WriteFile(ctx, filepath.Join(work, "src", "app.sh"), []byte("echo hi\n"), false); err != nil {
		t.Fatal(err)
	}
	priv, err := s.RunPrivileged(ctx, "id -u; mkdir -p out/logs", 10*time.Second)
	if err != nil || strings.TrimSpace(strings.SplitN(priv.Output, "\n", 2)[0]) != "0" {
		t.Fatalf("privileged: %v %+v", err, priv)
	}
	nobody := owner("made.txt")
	for _, p := range []string{"shipped.txt", "src", "src/app.sh", "out", "out/logs"} {
		if got := owner(p); got != nobody || got == 0 {
			t.Errorf("%s belongs to uid %d, want nobody's %d", p, got, nobody)
		}
	}
	attack := fmt.Sprintf("cat /proc/%d/environ >/dev/null && echo READ; ls /proc/%d/fd >/dev/null && echo LISTED; kill -0 %d && echo SIGNALLED; true", os.Getpid(), os.Getpid(), os.Getpid())
	res, err = s.Run(ctx, attack, 10*time.Second)
	if err != nil || strings.Contains(res.Output, "READ") || strings.Contains(res.Output, "LISTED") || strings.Contains(res.Output, "SIGNALLED") {
		t.Errorf("the account reached the hands' process: %v %q", err, res.Output)
	}
	if _, err := NewAs(ctx, Local{}, work, nil, "no-such-user"); err == nil || !strings.Contains(err.Error(), "no such user") {
		t.Errorf("an unknown user: %v", err)
	}
}
