package agent

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/prompt"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// Backend drives one model provider. Invoke is its only real work; the rest
// says what it can do, for the prompt.
type Backend interface {
	// Name is the provider's name.
	Name() spec.Provider
	// CLI is the program the backend runs, "" when it needs none.
	CLI() string
	// ImageMode says how the model sees the tutorial's images.
	ImageMode() prompt.ImageMode
	// Tools describes the model's tools for the prompt ("" when the CLI
	// describes its own).
	Tools(role status.Role) string
	// Web says whether the Mentor can search the web.
	Web() bool
	// Invoke runs the model once: the prompt in, the final answer out. A
	// failure of the API is an *APIError; ctx's deadline is the invocation
	// timeout, and Invoke must stop (kill its CLI) when ctx ends.
	Invoke(ctx context.Context, call Call) (Reply, error)
}

// Call is one invocation of a model.
type Call struct {
	Role   status.Role
	Prompt string
	// Repair marks a call that only rewrites an unreadable answer: no tools,
	// one turn.
	Repair   bool
	Model    string
	MaxTurns int
	// StepTimeout is the Student's per-step timeout (timeoutSeconds): how
	// long one command may run.
	StepTimeout time.Duration
	WorkDir     string
	TutorialDir string
	LogsDir     string
	// Images are the tutorial's images that exist, for backends that attach
	// them.
	Images []spec.Image
	// Env is the environment for a CLI: the container's, without the
	// wrapper's own variables, with the relay's proxy when there is one.
	Env []string
	// Proxy is the HTTP proxy URL of a container without a network ("" on
	// the bridge).
	Proxy string
	// Backoff is how API calls are retried (for backends that retry each
	// request themselves).
	Backoff Backoff
	// BaseURL and APIKeyEnv are the openai provider's endpoint and the name
	// of the variable holding its key.
	BaseURL   string
	APIKeyEnv string
	// Sleep waits between retries (nil: a timer).
	Sleep func(context.Context, time.Duration) error
	// Progress says what the model is doing now; line is the tutorial line
	// when known. It is cheap: heartbeats post the latest.
	Progress func(step string, line int)
	// Locate finds a command's tutorial line (0 if it is not the
	// tutorial's).
	Locate func(command string) int
	// Hands is where the backend's own tools run commands and touch files
	// (nil: this process, the wrapper's container).
	Hands session.Hands
	Log   logr.Logger
}

// Reply is what one invocation gave.
type Reply struct {
	// Text is the model's final answer.
	Text string
	// Structured is an answer the CLI already validated against the schema
	// (claude's structured_output), when there is one.
	Structured string
	// Calls are the API calls made, with their usage (one for a CLI run).
	Calls []status.LLMCall
	// Commands and Files are what the model did in the container.
	Commands []status.AuditCommand
	Files    []status.AuditFile
	// TurnLimit: the model ran out of turns before it answered.
	TurnLimit bool
	// CostReported: the provider reported CostUSD itself (Claude).
	CostReported bool
	// Stdout and Stderr are the CLI's raw output, kept (redacted) in the
	// logs folder for debugging.
	Stdout, Stderr string
}

// The kinds of API failure.
var (
	// ErrAuth: the credentials are missing or refused. Not retried.
	ErrAuth = errors.New("authentication failed")
	// ErrTransient: rate limits, overload, network trouble. Retried with
	// backoff; if it persists the problem is unresolvable (E11).
	ErrTransient = errors.New("the API is unavailable")
	// ErrTimeout: the invocation ran past its timeout and was killed (E13).
	ErrTimeout = errors.New("the invocation timed out")
	// ErrFailed: the CLI failed in a way that is none of the above.
	ErrFailed = errors.New("the model call failed")
)

// APIError is a failed model call.
type APIError struct {
	// Kind is ErrAuth, ErrTransient, ErrTimeout or ErrFailed.
	Kind error
	// Message is the provider's own words (already free of secrets).
	Message string
	// HTTPStatus is the API's status code, when known.
	HTTPStatus int
	// RetryAfter is how long the API asked to wait, when it did.
	RetryAfter time.Duration
	// Tries is how many times the call was made, when the backend retried
	// it itself; the Runner does not retry such an error again.
	Tries int
	// Partial is what the invocation did before it failed.
	Partial Reply
	// AfterTools: the invocation had run tools (commands, or changes to
	// the work folder) before it failed. The Runner does not run it again:
	// a rerun would start from the folder the failed run left, not from
	// the tutorial's start.
	AfterTools bool
}

func (e *APIError) Error() string {
	msg := e.Kind.Error()
	if e.HTTPStatus != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.HTTPStatus)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

func (e *APIError) Unwrap() error { return e.Kind }

// Backoff is how failed API calls are retried: waits start at Initial and
// double up to Max; after Tries calls in all, the failure stands.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Tries   int
}

// DefaultBackoff waits 2 s, 4 s, 8 s, 16 s between five tries (capped at
// 60 s, and longer when the API says Retry-After).
var DefaultBackoff = Backoff{Initial: 2 * time.Second, Max: 60 * time.Second, Tries: 5}

// Wait is the wait before try n+1 (n >= 1), honouring retryAfter up to Max.
func (b Backoff) Wait(n int, retryAfter time.Duration) time.Duration {
	d := b.Initial
	for i := 1; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = max(d, retryAfter)
	return min(d, b.Max)
}

// Retry calls fn until it succeeds, fails with something other than
// ErrTransient, the tries run out, or ctx ends. sleep waits (nil: a timer).
func Retry[T any](ctx context.Context, b Backoff, sleep func(context.Context, time.Duration) error, log logr.Logger, fn func() (T, error)) (T, int, error) {
	if sleep == nil {
		sleep = Sleep
	}
	tries := max(b.Tries, 1)
	for n := 1; ; n++ {
		v, err := fn()
		var apiErr *APIError
		if err == nil || !errors.As(err, &apiErr) || !errors.Is(err, ErrTransient) || apiErr.Tries > 0 || apiErr.AfterTools || n >= tries {
			return v, n, err
		}
		wait := b.Wait(n, apiErr.RetryAfter)
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return v, n, err
		}
		log.Info("Model API unavailable, retrying", "try", n, "retryIn", wait.String(), "error", apiErr.Error())
		if serr := sleep(ctx, wait); serr != nil {
			return v, n, err
		}
	}
}

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// WithDefaults fills the callbacks a caller may leave nil.
func (c Call) WithDefaults() Call {
	if c.Progress == nil {
		c.Progress = func(string, int) {}
	}
	if c.Locate == nil {
		c.Locate = func(string) int { return 0 }
	}
	if c.Backoff.Tries == 0 {
		c.Backoff = DefaultBackoff
	}
	return c
}
