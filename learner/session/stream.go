package session

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// MaxResponseBytes bounds a response Stream accepts: a file read, a
// listing or a command's output, with their JSON quoting.
const MaxResponseBytes = 2 * MaxRequestBytes

// ServeStream is the container side of Stream (smile-wrapper hands-serve):
// it answers each line of r, one JSON Request, with one line of JSON
// Response on w, handled as Serve handles its one, until r ends. A last
// line without its newline is not run: it is a request cut short. w carries
// nothing but responses: a command's output is captured into its Response.
func ServeStream(ctx context.Context, r io.Reader, w io.Writer) error {
	br := bufio.NewReader(r)
	enc := json.NewEncoder(w)
	for {
		line, err := readLine(br, MaxRequestBytes)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read hands request: %w", err)
		}
		var req Request
		if err := json.Unmarshal(line, &req); err != nil {
			return fmt.Errorf("read hands request: %w", err)
		}
		res, err := Local{}.Do(ctx, req)
		if err != nil {
			res = failed(err)
		}
		res.ID = req.ID
		if err := enc.Encode(res); err != nil {
			return fmt.Errorf("write hands response: %w", err)
		}
	}
}

// readLine reads one line (its newline dropped) of at most limit bytes. A
// line the input ends before the newline of is io.EOF (or
// io.ErrUnexpectedEOF when it had begun).
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > limit+1 {
			return nil, fmt.Errorf("line longer than %d bytes", limit)
		}
		line = append(line, chunk...)
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, io.ErrUnexpectedEOF
		default:
			return nil, err
		}
	}
}

// StreamError says a Stream gave no answer. Sent is whether the request
// reached the other side whole: it may then have run.
type StreamError struct {
	Op   string
	Sent bool
	Err  error
}

func (e *StreamError) Error() string { return e.Op + " over the hands stream: " + e.Err.Error() }
func (e *StreamError) Unwrap() error { return e.Err }

// errBroken is what every request gets once a Stream gave no answer.
var errBroken = errors.New("the stream is broken")

// Stream hands send every Request as one line of JSON on a long-lived
// connection to ServeStream in the container and read its one-line answer,
// one request at a time: one exec for a whole attempt, not one per request.
// Once a request gets no answer, the stream is broken for good.
// Each request carries an ID no process in the container can guess, and an
// answer with another ID breaks the stream: a background process that
// writes to the server's stdout cannot pass for its answers.
type Stream struct {
	mu     sync.Mutex
	conn   io.ReadWriteCloser
	br     *bufio.Reader
	broken bool
	key    string // random, per stream
	seq    int
}

// NewStream returns Stream hands over conn, which they close (Close).
func NewStream(conn io.ReadWriteCloser) *Stream {
	return &Stream{conn: conn, br: bufio.NewReader(conn), key: rand.Text()}
}

// Do is part of the Hands interface. Its errors are *StreamError. A request
// that outlives its command's timeout plus execSlack, as Remote's exec
// would, or whose ctx ends, breaks the stream.
func (s *Stream) Do(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.broken {
		return Response{}, &StreamError{Op: req.Op, Err: errBroken}
	}
	s.seq++
	req.ID = fmt.Sprintf("%s-%d", s.key, s.seq)
	body, err := json.Marshal(req)
	if err != nil {
		return Response{}, fmt.Errorf("encode %s request: %w", req.Op, err)
	}
	timeout := execSlack
	if req.Run != nil {
		timeout += req.Run.Timeout
	}
	done := make(chan streamAnswer, 1)
	go func() {
		if _, err := s.conn.Write(append(body, '\n')); err != nil {
			done <- streamAnswer{err: err}
			return
		}
		line, err := readLine(s.br, MaxResponseBytes)
		done <- streamAnswer{line: line, sent: true, err: err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var a streamAnswer
	select {
	case a = <-done:
	case <-ctx.Done():
		a = s.abandon(done, ctx.Err())
	case <-timer.C:
		a = s.abandon(done, fmt.Errorf("no answer within %s", timeout))
	}
	if a.err == nil {
		var res Response
		a.err = json.Unmarshal(a.line, &res)
		if a.err == nil && res.ID == req.ID {
			res.ID = ""
			return res, nil
		}
		if a.err == nil {
			a.err = errors.New("an answer to another request")
		}
		a.err = fmt.Errorf("bad answer %.200q: %w", a.line, a.err)
	}
	s.broken = true
	_ = s.conn.Close()
	return Response{}, &StreamError{Op: req.Op, Sent: a.sent, Err: s.explain(a.err)}
}

// streamAnswer is what a request's goroutine got: the answer's line, or
// why not and whether the request was sent whole first.
type streamAnswer struct {
	line []byte
	sent bool
	err  error
}

// abandon closes the connection, which ends the request's goroutine, and
// returns whether the request was sent, with why it got no answer.
func (s *Stream) abandon(done <-chan streamAnswer, why error) streamAnswer {
	_ = s.conn.Close()
	a := <-done
	return streamAnswer{sent: a.sent, err: why}
}

// explain adds the end of the other side's stderr to err, when the
// connection keeps it (runtime.ExecConn).
func (s *Stream) explain(err error) error {
	if c, ok := s.conn.(interface{ Stderr() string }); ok {
		if tail := strings.TrimSpace(c.Stderr()); tail != "" {
			return fmt.Errorf("%w: %s", err, tail)
		}
	}
	return err
}

// Close ends the stream: the other side reads the end of its input and
// exits.
func (s *Stream) Close() error {
	err := s.conn.Close() // first: a request waiting for its answer ends
	s.mu.Lock()
	defer s.mu.Unlock()
	s.broken = true
	return err
}
