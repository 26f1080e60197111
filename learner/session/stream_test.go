package session

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// served starts ServeStream on one end of an in-memory connection and
// returns the other end; the server's error arrives on the channel once the
// client closes its end.
func served(t *testing.T) (net.Conn, <-chan error) {
	t.Helper()
	client, server := net.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ServeStream(t.Context(), server, server)
		server.Close()
	}()
	t.Cleanup(func() { client.Close() })
	return client, done
}

func TestStreamSession(t *testing.T) {
	ctx := context.Background()
	work := t.TempDir()
	conn, done := served(t)
	h := NewStream(conn)
	s, err := NewWith(ctx, h, work, []string{"PATH=/usr/bin:/bin", "SMILE_TOKEN=secret"})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		command, want string
		code          int
	}{
		{"mkdir -p sub && cd sub && export GREETING=hi && f() { echo fn; }", "", 0},
		{"pwd; echo $GREETING; f", filepath.Join(work, "sub") + "\nhi\nfn\n", 0},
		{"echo \"[$SMILE_TOKEN]\"", "[]\n", 0},
		{"exit 7", "", 7},
	}
	for _, st := range steps {
		res, err := s.Run(ctx, st.command, 10*time.Second)
		if err != nil || res.Output != st.want || res.ExitCode != st.code {
			t.Fatalf("Run(%q) = %d %q, %v; want %d %q", st.command, res.ExitCode, res.Output, err, st.code, st.want)
		}
	}
	res, err := s.Run(ctx, "sleep 30 & sleep 30", 300*time.Millisecond)
	if err != nil || !res.TimedOut {
		t.Fatalf("Run past its timeout = %+v, %v", res, err)
	}
	file := filepath.Join(work, "a", "b.txt")
	for _, add := range []bool{false, true} {
		if err := WriteFile(ctx, h, file, []byte("line\n"), add); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := ReadFile(ctx, h, file, 0); err != nil || string(b) != "line\nline\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(ctx, h, filepath.Join(work, "none"), 0); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("ReadFile of a missing file = %v, want ErrNotExist", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("ServeStream after the client closed = %v", err)
	}
	if _, err := h.Do(ctx, Request{Op: OpStat, Path: work}); !isStreamError(err, false) {
		t.Fatalf("Do on a closed stream = %v, want a StreamError, not sent", err)
	}
}

func isStreamError(err error, sent bool) bool {
	var se *StreamError
	return errors.As(err, &se) && se.Sent == sent
}

// TestServeStreamCutRequest checks a request whose line the input ends in
// is not done, and a bad line ends the server with an error.
func TestServeStreamCutRequest(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cut")
	cut := `{"op":"write","path":"` + file + `","data":"eA=="}`
	var out strings.Builder
	if err := ServeStream(context.Background(), strings.NewReader(cut), &out); err == nil {
		t.Fatal("ServeStream of a cut request gave no error")
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) || out.Len() != 0 {
		t.Fatalf("a cut request was done: stat %v, answer %q", err, out.String())
	}
	if err := ServeStream(context.Background(), strings.NewReader(cut+"\n"+"not json\n"), &out); err == nil {
		t.Fatal("ServeStream of a bad line gave no error")
	}
	if _, err := os.Stat(file); err != nil || strings.Count(out.String(), "\n") != 1 {
		t.Fatalf("the whole request was not done once: stat %v, answers %q", err, out.String())
	}
}

// countingHands answers every request with Local and counts them.
type countingHands struct{ n atomic.Int32 }

func (c *countingHands) Do(ctx context.Context, req Request) (Response, error) {
	c.n.Add(1)
	return Local{}.Do(ctx, req)
}

// breaking is a connection whose other side reads one request line and
// then hangs up without an answer.
func breaking(t *testing.T) net.Conn {
	client, server := net.Pipe()
	go func() {
		_, _ = bufio.NewReader(server).ReadString('\n')
		server.Close()
	}()
	t.Cleanup(func() { client.Close() })
	return client
}

func TestPersistentFallback(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	stat := Request{Op: OpStat, Path: dir}
	run := Request{Op: OpRun, Run: &RunRequest{Shell: "/bin/sh", Dir: filepath.Join(dir, "s"), Command: "true", WorkDir: dir, Timeout: 5 * time.Second}}

	t.Run("the stream answers, once opened", func(t *testing.T) {
		fb, opened := &countingHands{}, 0
		p := &Persistent{Fallback: fb, Open: func() (io.ReadWriteCloser, error) { opened++; c, _ := served(t); return c, nil }}
		defer p.Close()
		for range 3 {
			if res, err := p.Do(ctx, stat); err != nil || !res.Exists {
				t.Fatalf("Do = %+v, %v", res, err)
			}
		}
		if opened != 1 || fb.n.Load() != 0 {
			t.Fatalf("opened %d streams, %d requests fell back; want 1 and 0", opened, fb.n.Load())
		}
	})
	t.Run("cannot open", func(t *testing.T) {
		fb, why := &countingHands{}, error(nil)
		p := &Persistent{Fallback: fb, Open: func() (io.ReadWriteCloser, error) { return nil, errors.New("no exec") }, OnFallback: func(err error) { why = err }}
		for range 2 {
			if res, err := p.Do(ctx, stat); err != nil || !res.Exists {
				t.Fatalf("Do = %+v, %v", res, err)
			}
		}
		if fb.n.Load() != 2 || why == nil {
			t.Fatalf("%d requests fell back (want 2), told %v", fb.n.Load(), why)
		}
	})
	t.Run("a repeatable request is sent again", func(t *testing.T) {
		fb := &countingHands{}
		p := &Persistent{Fallback: fb, Open: func() (io.ReadWriteCloser, error) { return breaking(t), nil }}
		if res, err := p.Do(ctx, stat); err != nil || !res.Exists || fb.n.Load() != 1 {
			t.Fatalf("Do = %+v, %v with %d fallbacks; want the fallback's answer", res, err, fb.n.Load())
		}
		if _, err := p.Do(ctx, run); err != nil || fb.n.Load() != 2 {
			t.Fatalf("Do after the break = %v with %d fallbacks; want the fallback", err, fb.n.Load())
		}
	})
	t.Run("a command that may have run is not run again", func(t *testing.T) {
		fb := &countingHands{}
		p := &Persistent{Fallback: fb, Open: func() (io.ReadWriteCloser, error) { return breaking(t), nil }}
		if _, err := p.Do(ctx, run); !isStreamError(err, true) || fb.n.Load() != 0 {
			t.Fatalf("Do = %v with %d fallbacks; want a StreamError, sent, and none", err, fb.n.Load())
		}
		if _, err := p.Do(ctx, stat); err != nil || fb.n.Load() != 1 {
			t.Fatalf("Do after the break = %v with %d fallbacks; want the fallback", err, fb.n.Load())
		}
	})
}

// TestStreamForgedAnswer checks an answer that does not carry its
// request's ID, as one a process in the container wrote, is not taken.
func TestStreamForgedAnswer(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	go func() {
		_, _ = bufio.NewReader(server).ReadString('\n')
		_, _ = io.WriteString(server, `{"id":"guess-1","exists":true}`+"\n")
	}()
	h := NewStream(client)
	if res, err := h.Do(context.Background(), Request{Op: OpStat, Path: "/nowhere"}); !isStreamError(err, true) {
		t.Fatalf("Do with a forged answer = %+v, %v; want a StreamError, sent", res, err)
	}
}

// TestStreamCancel checks a request whose ctx ends gets no answer and
// breaks the stream, without waiting for its command.
func TestStreamCancel(t *testing.T) {
	conn, _ := served(t)
	h := NewStream(conn)
	ctx, cancel := context.WithCancel(context.Background())
	dir := t.TempDir()
	errc := make(chan error, 1)
	go func() {
		_, err := h.Do(ctx, Request{Op: OpRun, Run: &RunRequest{Shell: "/bin/sh", Dir: filepath.Join(dir, "s"), Command: "sleep 30", WorkDir: dir, Timeout: time.Minute}})
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Do with its ctx ended = %v, want context.Canceled", err)
	}
	if _, err := h.Do(context.Background(), Request{Op: OpStat, Path: dir}); !isStreamError(err, false) {
		t.Fatalf("Do on the broken stream = %v, want a StreamError, not sent", err)
	}
}
