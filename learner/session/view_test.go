package session

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// recorder stands in for the container's hands: it answers every request
// with a marker, so a test can tell who answered.
type recorder struct{ got []Request }

func (r *recorder) Do(_ context.Context, req Request) (Response, error) {
	r.got = append(r.got, req)
	return Response{Found: "next", Data: []byte("from the container")}, nil
}

func TestView(t *testing.T) {
	base := t.TempDir()
	src := filepath.Join(base, "work")
	secret := filepath.Join(base, "secret")
	must(t, os.MkdirAll(filepath.Join(src, "app", "src"), 0o755))
	must(t, os.WriteFile(secret, []byte("host secret"), 0o644))
	must(t, os.WriteFile(filepath.Join(src, "app", "run.sh"), []byte("#!/bin/sh\necho hi\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, "app", "src", "main.go"), []byte("package main\n"), 0o644))
	must(t, os.Symlink("/etc/passwd", filepath.Join(src, "abs")))
	must(t, os.Symlink("../secret", filepath.Join(src, "up")))
	must(t, os.Symlink("/etc", filepath.Join(src, "etcdir")))
	must(t, os.Symlink("run.sh", filepath.Join(src, "app", "inside")))
	must(t, syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644))

	const target = "/workspace/work"
	tests := []struct {
		name string
		req  Request
		next bool // answered by the container's hands
		want Response
	}{
		{name: "stat a file", req: Request{Op: OpStat, Path: target + "/app/run.sh"}, want: Response{Exists: true, Mode: 0o755}},
		{name: "stat a missing file", req: Request{Op: OpStat, Path: target + "/app/nope"}, want: Response{}},
		{name: "stat through a link inside", req: Request{Op: OpStat, Path: target + "/app/inside"}, want: Response{Exists: true, Mode: 0o755}},
		{name: "read a file", req: Request{Op: OpRead, Path: target + "/app/run.sh", Limit: 9}, want: Response{Data: []byte("#!/bin/sh")}},
		{name: "list the folder", req: Request{Op: OpList, Path: target + "/app", Depth: 6},
			want: Response{Paths: []string{"inside", "run.sh", "src", "src/main.go"}}},
		{name: "list a missing folder", req: Request{Op: OpList, Path: target + "/gone"}, want: Response{}},
		{name: "outside the folder", req: Request{Op: OpStat, Path: "/etc/passwd"}, next: true},
		{name: "dot-dot out of the folder", req: Request{Op: OpRead, Path: target + "/../../etc/passwd"}, next: true},
		{name: "a relative path", req: Request{Op: OpStat, Path: "app/run.sh"}, next: true},
		{name: "a link to an absolute path", req: Request{Op: OpRead, Path: target + "/abs"}, next: true},
		{name: "stat a link to an absolute path", req: Request{Op: OpStat, Path: target + "/abs"}, next: true},
		{name: "a link out of the folder", req: Request{Op: OpRead, Path: target + "/up"}, next: true},
		{name: "a folder link out", req: Request{Op: OpStat, Path: target + "/etcdir/hostname"}, next: true},
		{name: "a missing file under a folder link", req: Request{Op: OpStat, Path: target + "/etcdir/nope"}, next: true},
		{name: "list through a folder link", req: Request{Op: OpList, Path: target + "/etcdir"}, next: true},
		{name: "a pipe", req: Request{Op: OpRead, Path: target + "/pipe"}, next: true},
		{name: "a command", req: Request{Op: OpRun, Run: &RunRequest{Command: "ls"}}, next: true},
		{name: "a write", req: Request{Op: OpWrite, Path: target + "/app/new", Data: []byte("x")}, next: true},
		{name: "look a program up", req: Request{Op: OpLookPath, Path: "ls"}, next: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			res, err := View{Target: target, Source: src, Next: rec}.Do(ctx, tt.req)
			if err != nil {
				t.Fatal(err)
			}
			if tt.next {
				if len(rec.got) != 1 || string(res.Data) != "from the container" {
					t.Fatalf("answered here (%+v), want the container's hands to answer", res)
				}
				return
			}
			if len(rec.got) != 0 {
				t.Fatalf("asked the container %+v, want an answer from the folder", rec.got)
			}
			if res.Exists != tt.want.Exists || res.Mode.Perm() != tt.want.Mode.Perm() || string(res.Data) != string(tt.want.Data) ||
				!slices.Equal(res.Paths, tt.want.Paths) || res.Err != "" {
				t.Fatalf("got %+v, want %+v", res, tt.want)
			}
		})
	}
}

// The folder's answers are Local's answers about the same folder.
func TestViewAnswersAsLocal(t *testing.T) {
	src := t.TempDir()
	for _, f := range []string{"a/b/c.txt", "a/d.txt", "node_modules/x/y.js", "e.txt"} {
		must(t, os.MkdirAll(filepath.Join(src, filepath.Dir(f)), 0o755))
		must(t, os.WriteFile(filepath.Join(src, f), []byte(f), 0o600))
	}
	for _, req := range []Request{
		{Op: OpList, Depth: 2, Skip: []string{"node_modules"}, MarkDirs: true},
		{Op: OpList, Limit: 3},
		{Op: OpList},
	} {
		local := req
		local.Path = src
		want, _ := Local{}.Do(context.Background(), local)
		req.Path = "/w"
		got, err := View{Target: "/w", Source: src, Next: &recorder{}}.Do(context.Background(), req)
		if err != nil || !slices.Equal(got.Paths, want.Paths) || len(got.Paths) == 0 {
			t.Errorf("%+v: got %q (%v), Local lists %q", req, got.Paths, err, want.Paths)
		}
	}
}

// A file this process may not read is the container's to read: its root may.
func TestViewUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every file")
	}
	src := t.TempDir()
	must(t, os.WriteFile(filepath.Join(src, "locked"), []byte("x"), 0o000))
	rec := &recorder{}
	res, err := View{Target: "/w", Source: src, Next: rec}.Do(context.Background(), Request{Op: OpRead, Path: "/w/locked"})
	if err != nil || len(rec.got) != 1 || string(res.Data) != "from the container" {
		t.Fatalf("got %+v, %v; want the container's hands to answer", res, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
