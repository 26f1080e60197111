// Package hands gives an in-process learner its hands in a container: a
// stream to the mounted wrapper's hands-serve, one exec per request when
// the stream cannot be had, a wait for the container to be ready, and a
// container started on demand, on the learner's first request.
package hands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/reconcile/pool"
	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status/wire"
	"github.com/smile-loop/smile/wrappers"
)

// ReadyTimeout bounds the wait for a container's own start-up (its image's
// entrypoint) before the learner begins.
const ReadyTimeout = time.Minute

// Container returns the hands of a running container: one exec of the
// mounted wrapper in hands-serve mode answers the attempt's requests, opened
// on the first (or taken from the pool p, if any, opened while the container
// was prepared); when it cannot be opened or breaks, each request is one
// exec in hands-exec mode. Either kills a command's process group when its
// time is up. The stream lives as long as ctx.
func Container(ctx context.Context, rt runtime.Runtime, p *pool.Pool, container string) *session.Persistent {
	remote := session.Remote{Exec: func(ctx context.Context, stdin []byte, timeout time.Duration) ([]byte, error) {
		res, err := rt.ExecIO(ctx, container, runtime.ExecRequest{
			Cmd: []string{wire.ContainerWrapperPath, wrappers.CmdHands}, Stdin: stdin, Timeout: timeout,
		})
		if err != nil {
			return nil, err
		}
		if res.ExitCode != 0 {
			return nil, fmt.Errorf("hands-exec exited with %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
		}
		return res.Stdout, nil
	}}
	return &session.Persistent{
		Open: func() (io.ReadWriteCloser, error) { // lives as long as the attempt
			if p == nil {
				return Open(ctx, rt, container)
			}
			if s := p.Stream(container); s != nil {
				return s, nil // opened while the container was prepared
			}
			return Open(ctx, rt, container)
		},
		Fallback: remote,
		OnFallback: func(err error) {
			if !errors.Is(err, runtime.ErrUnsupported) {
				logr.FromContextOrDiscard(ctx).Info("Hands stream unusable, one exec per request", "reason", err.Error())
			}
		},
	}
}

// Open starts the wrapper's hands-serve in the container: the stream lives
// until it is closed or ctx ends.
func Open(ctx context.Context, rt runtime.Runtime, container string) (io.ReadWriteCloser, error) {
	return rt.ExecStream(ctx, container, runtime.ExecRequest{Cmd: []string{wire.ContainerWrapperPath, wrappers.CmdHandsServe}})
}

// WaitReady waits until the container's idle PID 1 has started, i.e. its
// image's entrypoint finished what it does first (the learner of a real
// terminal waits for its prompt too).
func WaitReady(ctx context.Context, h session.Hands, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	pause := 10 * time.Millisecond // a fresh container is ready within milliseconds
	for {
		_, ok, err := session.Stat(ctx, h, wrappers.ReadyFile)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) {
			if err == nil {
				err = errors.New("the container's command did not start")
			}
			return fmt.Errorf("wait for the container to be ready: %w", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(pause):
		}
		pause = min(2*pause, 200*time.Millisecond)
	}
}

// OnDemand are the hands of a container started on demand: the first
// request starts it through the pool (so a run's end removes it even while
// it starts), opens its hands and waits until it is ready.
type OnDemand struct {
	rt   runtime.Runtime
	pool *pool.Pool
	base context.Context // the attempt's: the hands live as long as it
	item pool.Item

	once  sync.Once
	hands *session.Persistent
	err   error
}

// NewOnDemand returns the hands of the item's container, not started yet.
func NewOnDemand(ctx context.Context, rt runtime.Runtime, p *pool.Pool, item pool.Item) *OnDemand {
	return &OnDemand{rt: rt, pool: p, base: ctx, item: item}
}

// Do is part of session.Hands.
func (d *OnDemand) Do(ctx context.Context, req session.Request) (session.Response, error) {
	d.once.Do(func() {
		name, began := d.item.Spec.Name, time.Now()
		if err := d.pool.Start(ctx, d.item); err != nil {
			d.err = fmt.Errorf("start container %s: %w", name, err)
			return
		}
		d.hands = Container(d.base, d.rt, d.pool, name)
		d.err = WaitReady(ctx, d.hands, ReadyTimeout)
		logr.FromContextOrDiscard(d.base).V(1).Info("Started container on demand", "container", name,
			"for", req.Op, "took", time.Since(began).Round(time.Millisecond).String())
	})
	if d.err != nil {
		return session.Response{}, d.err
	}
	return d.hands.Do(ctx, req)
}

// Close closes the hands, if the container was started; no request starts
// it after.
func (d *OnDemand) Close() {
	d.once.Do(func() { d.err = errors.New("the attempt is over") })
	if d.hands != nil {
		_ = d.hands.Close()
	}
}
