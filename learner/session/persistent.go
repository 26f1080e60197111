package session

import (
	"context"
	"errors"
	"io"
	"sync"
)

// Persistent hands open a Stream on their first request and send every
// request on it; when it cannot be opened or breaks, they send this and
// every later request to Fallback (Remote: one exec each). A request the
// broken stream may have run already (a command, an append) is not sent
// again: its error is returned.
type Persistent struct {
	// Open starts the other side of the stream (smile-wrapper hands-serve).
	// The connection lives until Close, not as long as one request's ctx.
	Open     func() (io.ReadWriteCloser, error)
	Fallback Hands
	// OnFallback, when set, is told why the stream is not used (once).
	OnFallback func(err error)

	mu     sync.Mutex
	stream *Stream
	done   bool // the stream was tried: opened, failed or closed
}

// Do is part of the Hands interface.
func (p *Persistent) Do(ctx context.Context, req Request) (Response, error) {
	s, err := p.open()
	if s == nil {
		if err != nil && ctx.Err() != nil {
			return Response{}, err
		}
		return p.Fallback.Do(ctx, req)
	}
	res, err := s.Do(ctx, req)
	var se *StreamError
	if err == nil || !errors.As(err, &se) {
		return res, err
	}
	p.drop(s, err)
	if ctx.Err() != nil || (se.Sent && !repeatable(req)) {
		return Response{}, err
	}
	return p.Fallback.Do(ctx, req)
}

// open returns the stream, opening it on first use; nil when there is
// none (the error says why, the first time).
func (p *Persistent) open() (*Stream, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done || p.Open == nil {
		return p.stream, nil
	}
	p.done = true
	conn, err := p.Open()
	if err != nil {
		p.fellBack(err)
		return nil, err
	}
	p.stream = NewStream(conn)
	return p.stream, nil
}

// drop stops using a stream that broke.
func (p *Persistent) drop(s *Stream, why error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stream == s {
		p.stream = nil
		p.fellBack(why)
	}
	_ = s.Close()
}

func (p *Persistent) fellBack(err error) {
	if p.OnFallback != nil {
		p.OnFallback(err)
	}
}

// Close closes the stream, if one is open; later requests go to Fallback.
func (p *Persistent) Close() error {
	p.mu.Lock()
	s := p.stream
	p.stream, p.done = nil, true
	p.mu.Unlock()
	if s == nil {
		return nil
	}
	return s.Close()
}

// repeatable reports whether a request may be sent again after it may have
// run: doing it twice does what doing it once does.
func repeatable(req Request) bool {
	switch req.Op {
	case OpRun:
		return false
	case OpWrite:
		return !req.Append
	}
	return true
}
