package agent

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"

	"github.com/smile-loop/smile/internal/textutil"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// maxTries is how many times an answer is asked for: the first answer and
// two repairs (E20: "if fails 3x, treat as cannot_complete").
const maxTries = 3

// attempt is one Student or Mentor consultation with a model.
type attempt struct {
	r        Runner
	task     *wire.Task
	env      provider.Env
	role     status.Role
	llm      wire.TaskLLM
	tut      *spec.Tutorial
	tutErr   error
	audit    status.Audit
	secrets  []string
	fwd      *Forwarder
	deadline time.Time
	started  time.Time
	n        int // invocations so far

	mu       sync.Mutex
	step     string
	line     int
	changed  chan struct{}
	stopBeat func()
}

// start checks the CLI is there (E10), reads the tutorial, opens the relay
// forwarder when the container has no network, and starts the heartbeat.
func (r Runner) start(ctx context.Context, task *wire.Task, env provider.Env, role status.Role) (*attempt, error) {
	if cli := r.Backend.CLI(); cli != "" {
		look := r.LookPath
		if look == nil {
			look = exec.LookPath
		}
		if _, err := look(cli); err != nil {
			// E10: the image lacks the CLI
			// (docs/providers.md has an image recipe with them).
			return nil, fmt.Errorf("%w: %s", provider.ErrCLINotAvailable, cli)
		}
	}
	if env.Progress == nil {
		env.Progress = provider.NoProgress
	}
	a := &attempt{r: r, task: task, env: env, role: role, changed: make(chan struct{}, 1), started: r.now()}
	if task.LLM != nil {
		a.llm = *task.LLM
	}
	def := spec.DefaultConfig()
	if a.llm.MaxTurns <= 0 {
		a.llm.MaxTurns = def.MaxTurns.For(string(role))
	}
	if a.llm.TimeoutSeconds <= 0 {
		a.llm.TimeoutSeconds = def.InvocationTimeoutSeconds.For(string(role))
	}
	a.deadline = a.started.Add(time.Duration(a.llm.TimeoutSeconds) * time.Second)
	a.secrets = Secrets(r.getenv, a.llm.APIKeyEnv)
	a.audit = status.Audit{Commands: []status.AuditCommand{}, Files: []status.AuditFile{}, LLMCalls: []status.LLMCall{}}
	a.tut, a.tutErr = spec.LoadTutorial(task.Tutorial)
	if sock := RelaySocket(r.getenv); sock != "" {
		fwd, err := StartForwarder(sock, env.Log)
		if err != nil {
			return nil, fmt.Errorf("start the relay forwarder: %w", err)
		}
		a.fwd = fwd
	}
	a.beat(ctx)
	return a, nil
}

func (a *attempt) close() {
	if a.stopBeat != nil {
		a.stopBeat()
	}
	if a.fwd != nil {
		_ = a.fwd.Close()
	}
}

// beat posts a heartbeat with the latest step every interval, and soon after
// the step changes: the controller gives up on an attempt that is silent for
// timeoutSeconds + its grace, and one model call can take much longer.
func (a *attempt) beat(ctx context.Context) {
	interval := a.r.Heartbeat
	if interval <= 0 {
		interval = time.Duration(max(a.task.Behavior.TimeoutSeconds, 1)) * time.Second / 2
		interval = min(max(interval, time.Second), 15*time.Second)
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	a.setStep(fmt.Sprintf("%s: starting %s", a.role, a.r.Backend.Name()), 0)
	post := func() {
		a.mu.Lock()
		step, line := a.step, a.line
		a.mu.Unlock()
		a.env.Progress(ctx, step, line)
	}
	post()
	go func() {
		defer close(done)
		t := time.NewTicker(interval)
		defer t.Stop()
		last := time.Now()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			case <-a.changed:
				if time.Since(last) < time.Second {
					continue
				}
			}
			post()
			last = time.Now()
		}
	}()
	a.stopBeat = func() { cancel(); <-done }
}

func (a *attempt) setStep(step string, line int) {
	a.mu.Lock()
	a.step, a.line = a.redact(textutil.Shorten(step, 200)), line
	a.mu.Unlock()
	select {
	case a.changed <- struct{}{}:
	default:
	}
}

func (a *attempt) lastLine() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.line
}

func (a *attempt) redact(s string) string { return status.Redact(s, a.secrets...) }

// call builds an invocation of the role's model.
func (a *attempt) call(prompt string) Call {
	c := Call{
		Role:        a.role,
		Prompt:      prompt,
		Model:       a.llm.Model,
		MaxTurns:    a.llm.MaxTurns,
		StepTimeout: time.Duration(max(a.task.Behavior.TimeoutSeconds, 1)) * time.Second,
		WorkDir:     a.env.WorkDir,
		TutorialDir: a.env.TutorialDir,
		LogsDir:     a.env.LogsDir,
		Backoff:     a.r.backoff(),
		BaseURL:     a.llm.BaseURL,
		APIKeyEnv:   a.llm.APIKeyEnv,
		Sleep:       a.r.Sleep,
		Progress:    a.setStep,
		Locate:      func(cmd string) int { return CommandLine(a.tut, cmd) },
		Log:         a.env.Log,
		Hands:       a.env.Hands,
	}
	if a.tut != nil {
		for _, img := range a.tut.Images {
			if !img.Missing && img.Format != "" {
				c.Images = append(c.Images, img)
			}
		}
	}
	extra := []string{}
	if a.fwd != nil {
		c.Proxy = a.fwd.URL()
		extra = ProxyEnv(c.Proxy)
	}
	c.Env = CLIEnv(a.r.environ(), extra...)
	return c
}

// converse asks the model and reads its answer with parse, asking it to
// repair an unreadable answer up to twice. The error is an *APIError, or an
// *UnreadableError after maxTries unreadable answers.
func (a *attempt) converse(ctx context.Context, first Call, schema string, parse func(string) error) error {
	ctx, cancel := context.WithDeadline(ctx, a.deadline)
	defer cancel()
	call := first
	var lastErr error
	turnLimit := false
	for try := 1; try <= maxTries; try++ {
		reply, err := a.invoke(ctx, call)
		if err != nil {
			return err
		}
		turnLimit = turnLimit || reply.TurnLimit
		if reply.Structured != "" && parse(reply.Structured) == nil {
			return nil
		}
		perr := parse(reply.Text)
		if perr == nil {
			return nil
		}
		lastErr = perr
		a.unreadable(reply.Text, perr)
		a.env.Log.Info("Answer not readable", "try", try, "error", perr.Error())
		if try == maxTries {
			break
		}
		repair, err := buildRepair(schema, reply.Text, perr)
		if err != nil {
			return err
		}
		call = first
		call.Prompt, call.Repair, call.MaxTurns, call.Images = repair, true, 1, nil
		a.setStep(fmt.Sprintf("%s: asking the model to repair its answer (try %d of %d)", a.role, try+1, maxTries), a.lastLine())
	}
	return &UnreadableError{Tries: maxTries, Err: lastErr, TurnLimit: turnLimit}
}

// UnreadableError is an answer that stayed unreadable after every repair.
type UnreadableError struct {
	Tries     int
	Err       error
	TurnLimit bool
}

func (e *UnreadableError) Error() string {
	msg := fmt.Sprintf("the answer could not be read as JSON after %d tries: %v", e.Tries, e.Err)
	if e.TurnLimit {
		msg += " (the model ran out of turns before it answered)"
	}
	return msg
}

func (e *UnreadableError) Unwrap() error { return e.Err }

// invoke runs one invocation, retrying API failures with backoff, and
// records every try in the audit.
func (a *attempt) invoke(ctx context.Context, call Call) (Reply, error) {
	var unavailable *APIError // the last try's API failure, if any
	reply, _, err := Retry(ctx, a.r.backoff(), a.r.Sleep, a.env.Log, func() (Reply, error) {
		a.n++
		start, stamp := a.r.now(), fileClock()
		rep, err := a.r.Backend.Invoke(ctx, call)
		if err != nil && ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, ErrTimeout) {
			err = &APIError{Kind: ErrTimeout, Message: err.Error()}
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			apiErr.Message = a.redact(apiErr.Message)
			rep = apiErr.Partial
			if errors.Is(err, ErrTransient) {
				unavailable = apiErr
				apiErr.AfterTools = apiErr.Tries == 0 && ranTools(rep, a.env.WorkDir, stamp)
			}
		} else if err != nil {
			err = &APIError{Kind: ErrFailed, Message: a.redact(err.Error())}
		}
		a.record(call, rep, start, err)
		a.keepOutput(rep)
		return rep, err
	})
	return reply, lateUnavailable(err, unavailable)
}

// lateUnavailable is err, unless the invocation timed out while it was
// being run again after the API stayed unavailable: the CLIs retry API
// errors themselves before they give up, so a persistent 429 can arrive
// late and its rerun run into the invocation timeout. The cause is the
// API (E11), not a model that took too long (E13).
func lateUnavailable(err error, unavailable *APIError) error {
	if unavailable == nil || !errors.Is(err, ErrTimeout) {
		return err
	}
	var timedOut *APIError
	late := *unavailable
	if errors.As(err, &timedOut) {
		late.Partial = timedOut.Partial
	}
	late.Message += "; running it again then ran into the invocation timeout"
	return &late
}

// record adds an invocation's calls, commands and files to the audit.
func (a *attempt) record(call Call, rep Reply, start time.Time, err error) {
	calls := rep.Calls
	if len(calls) == 0 {
		calls = []status.LLMCall{{Model: call.Model, StartedAt: start, DurationMs: a.r.now().Sub(start).Milliseconds()}}
	}
	for i, c := range calls {
		c.Iteration, c.Role, c.Provider = a.task.Iteration, a.role, string(a.r.Backend.Name())
		if c.Model == "" {
			c.Model = call.Model
		}
		if c.StartedAt.IsZero() {
			c.StartedAt = start
		}
		c.StartedAt = c.StartedAt.UTC()
		if err != nil && i == len(calls)-1 && c.Error == "" {
			c.Error = a.redact(err.Error())
		}
		c.Error = a.redact(c.Error)
		if !rep.CostReported {
			a.estimate(&c)
		}
		a.audit.LLMCalls = append(a.audit.LLMCalls, c)
	}
	for _, c := range rep.Commands {
		c.Iteration, c.Role = a.task.Iteration, a.role
		if c.Line == 0 {
			c.Line = CommandLine(a.tut, c.Command)
		}
		c.Command = a.redact(c.Command)
		c.Output = status.Excerpt(a.redact(c.Output))
		c.StartedAt = c.StartedAt.UTC()
		a.audit.Commands = append(a.audit.Commands, c)
	}
	for _, f := range rep.Files {
		f.Iteration = a.task.Iteration
		f.WrittenAt = f.WrittenAt.UTC()
		a.audit.Files = append(a.audit.Files, f)
	}
}

// estimate prices a call from the price table (marked estimated); a model
// with no price is marked NoPrice: its cost is unknown, not zero.
func (a *attempt) estimate(c *status.LLMCall) {
	c.Estimated = true
	p, ok := (spec.Config{Prices: a.llm.Prices}).PriceFor(c.Model)
	if !ok {
		c.NoPrice = c.InputTokens+c.OutputTokens > 0 || c.Error == ""
		return
	}
	c.CostUSD = float64(c.InputTokens)/1e6*p.InputPerMillion + float64(c.OutputTokens)/1e6*p.OutputPerMillion
}

// unreadable keeps the raw answer on the call that gave it (E12).
func (a *attempt) unreadable(raw string, err error) {
	if n := len(a.audit.LLMCalls); n > 0 {
		c := &a.audit.LLMCalls[n-1]
		c.RawOutput = status.Excerpt(a.redact(raw))
		if c.RawOutput == "" {
			c.RawOutput = "(empty)"
		}
		if c.Error == "" {
			c.Error = "answer not readable: " + err.Error()
		}
	}
}

// keepOutput writes the CLI's raw output (redacted) into the logs folder.
func (a *attempt) keepOutput(rep Reply) {
	if a.env.LogsDir == "" || (rep.Stdout == "" && rep.Stderr == "") {
		return
	}
	base := filepath.Join(a.env.LogsDir, fmt.Sprintf("%s-%s-%d", a.r.Backend.Name(), a.role, a.n))
	_ = os.WriteFile(base+".stdout", []byte(a.redact(rep.Stdout)), 0o644)
	if rep.Stderr != "" {
		_ = os.WriteFile(base+".stderr", []byte(a.redact(rep.Stderr)), 0o644)
	}
}
