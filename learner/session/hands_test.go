package session

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// loopback is Remote hands whose "container" is Serve in this process:
// every request crosses the JSON boundary a real exec would.
func loopback(t *testing.T) Remote {
	return Remote{Exec: func(ctx context.Context, stdin []byte, _ time.Duration) ([]byte, error) {
		var out bytes.Buffer
		if err := Serve(ctx, bytes.NewReader(stdin), &out); err != nil {
			t.Fatalf("Serve: %v", err)
		}
		return out.Bytes(), nil
	}}
}

func TestRemoteSession(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	s, err := NewWith(ctx, loopback(t), work, []string{"PATH=/usr/bin:/bin", "SMILE_TOKEN=secret"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	steps := []struct {
		name, command, want string
		code                int
	}{
		{"state carries over", "mkdir -p sub && cd sub && export GREETING=hi && f() { echo fn; }", "", 0},
		{"cwd, variable and function", "pwd; echo $GREETING; f", filepath.Join(work, "sub") + "\nhi\nfn\n", 0},
		{"no wrapper variable", "echo \"[$SMILE_TOKEN]\"", "[]\n", 0},
		{"a terminal's type, as a reader's has", "echo \"$TERM\"", "xterm\n", 0},
		{"exit code", "exit 7", "", 7},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			res, err := s.Run(ctx, st.command, 10*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			if res.Output != st.want || res.ExitCode != st.code {
				t.Fatalf("Run(%q) = %d %q, want %d %q", st.command, res.ExitCode, res.Output, st.code, st.want)
			}
		})
	}
	t.Run("timeout kills the group", func(t *testing.T) {
		res, err := s.Run(ctx, "sleep 30 & sleep 30", 300*time.Millisecond)
		if err != nil || !res.TimedOut || res.Duration > 5*time.Second {
			t.Fatalf("Run past its timeout = %+v, %v", res, err)
		}
	})
}

func TestRemoteFiles(t *testing.T) {
	ctx := context.Background()
	h := loopback(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "a", "b.txt")
	if err := WriteFile(ctx, h, file, []byte("one\n"), false); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(ctx, h, file, []byte("two\n"), true); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		do   func() (string, error)
		want string
		is   error
	}{
		{"read what was written", func() (string, error) { b, err := ReadFile(ctx, h, file, 0); return string(b), err }, "one\ntwo\n", nil},
		{"read is limited", func() (string, error) { b, err := ReadFile(ctx, h, file, 3); return string(b), err }, "one", nil},
		{"missing file keeps its errno", func() (string, error) { _, err := ReadFile(ctx, h, filepath.Join(dir, "none"), 0); return "", err }, "", fs.ErrNotExist},
		{"write under a file keeps ENOTDIR", func() (string, error) { return "", WriteFile(ctx, h, filepath.Join(file, "x"), nil, false) }, "", syscall.ENOTDIR},
		{"stat", func() (string, error) {
			m, ok, err := Stat(ctx, h, file)
			return strings.Join([]string{m.String(), map[bool]string{true: "yes"}[ok]}, " "), err
		}, "-rw-r--r-- yes", nil},
		{"list", func() (string, error) {
			p, err := List(ctx, h, ListRequest{Root: dir})
			return strings.Join(p, ","), err
		}, "a,a/b.txt", nil},
		{"lookpath", func() (string, error) { return LookPath(ctx, h, "sh", []string{"PATH=/nowhere:/bin:/usr/bin"}) }, "/bin/sh", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.do()
			if tt.is != nil {
				if !errors.Is(err, tt.is) {
					t.Fatalf("error = %v, want one matching %v", err, tt.is)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
