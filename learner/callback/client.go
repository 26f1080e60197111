package callback

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"
)

// ErrRejected is a result the controller refused (a 4xx answer): posting it
// again would not help.
var ErrRejected = errors.New("result rejected by the controller")

// Backoff says how the result post is retried: the first wait, the cap on
// each wait (waits double), and the total time before giving up.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Total   time.Duration
}

// DefaultBackoff retries for about a minute: 0.2 s, 0.4 s, ... capped at 5 s.
var DefaultBackoff = Backoff{Initial: 200 * time.Millisecond, Max: 5 * time.Second, Total: 60 * time.Second}

// Client posts to the controller. Every request carries the run's token and
// the attempt it comes from; the token is never logged.
type Client struct {
	BaseURL string
	Token   string
	Attempt string
	HTTP    *http.Client
	Backoff Backoff
	Log     logr.Logger
}

// New returns a client for baseURL (SMILE_CALLBACK_URL).
func New(baseURL, token, attempt string, log logr.Logger) *Client {
	return &Client{
		BaseURL: strings.TrimRight(baseURL, "/"),
		Token:   token,
		Attempt: attempt,
		HTTP:    &http.Client{Timeout: 10 * time.Second},
		Backoff: DefaultBackoff,
		Log:     log,
	}
}

// Progress posts a heartbeat. It tries once, briefly: a lost heartbeat is
// logged and otherwise ignored.
func (c *Client) Progress(ctx context.Context, step string, line int) {
	body := wire.ProgressRequest{Step: step, Line: line, Timestamp: time.Now().UTC()}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	code, text, err := c.post(ctx, wire.PathProgress, body)
	switch {
	case err != nil:
		c.Log.Info("Progress not delivered", "step", step, "error", err.Error())
	case code/100 != 2:
		c.Log.Info("Progress not accepted", "step", step, "httpStatus", code, "body", text)
	}
}

// PostResult posts a result to path, retrying connection errors and 5xx
// answers with exponential backoff. A 4xx answer is not retried: the error
// wraps ErrRejected and carries the controller's message.
func (c *Client) PostResult(ctx context.Context, path string, body any) (*wire.ResultResponse, error) {
	b := c.Backoff
	if b.Initial <= 0 {
		b = DefaultBackoff
	}
	deadline := time.Now().Add(b.Total)
	wait := b.Initial
	for attempt := 1; ; attempt++ {
		code, text, err := c.post(ctx, path, body)
		switch {
		case err == nil && code/100 == 2:
			var resp wire.ResultResponse
			if jerr := json.Unmarshal([]byte(text), &resp); jerr != nil {
				c.Log.Info("Result answer is not JSON", "path", path, "body", text)
			}
			return &resp, nil
		case err == nil && code/100 == 4:
			return nil, fmt.Errorf("post %s: %w: HTTP %d: %s", path, ErrRejected, code, text)
		case err == nil:
			err = fmt.Errorf("HTTP %d: %s", code, text)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("post %s: %w", path, ctx.Err())
		}
		if time.Now().Add(wait).After(deadline) {
			return nil, fmt.Errorf("post %s: gave up after %d attempts: %w", path, attempt, err)
		}
		c.Log.Info("Result not delivered, retrying", "path", path, "attempt", attempt, "retryIn", wait.String(), "error", err.Error())
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("post %s: %w", path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(2*wait, b.Max)
	}
}

// post sends one request and returns the status code and (shortened) body.
func (c *Client) post(ctx context.Context, path string, body any) (int, string, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return 0, "", fmt.Errorf("encode request: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+path, bytes.NewReader(data))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set(wire.HeaderAttempt, c.Attempt)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.StatusCode, strings.TrimSpace(string(text)), nil
}

// OverSocket makes the client reach the controller through the Unix socket
// at path: the relay of a container that has no network (studentNetwork
// none). The URL's host is then only a name.
func (c *Client) OverSocket(path string) {
	tr := &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		},
	}
	c.HTTP = &http.Client{Timeout: 10 * time.Second, Transport: tr}
}
