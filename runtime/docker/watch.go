package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/docker/docker/api/types/events"

	"github.com/smile-loop/smile/runtime"
)

// watchedActions are the container actions that change what the reconciler
// observes; exec_*, attach, resize and the like are noise to it.
var watchedActions = []events.Action{
	events.ActionCreate, events.ActionStart, events.ActionRestart, events.ActionDie, events.ActionOOM,
	events.ActionStop, events.ActionPause, events.ActionUnPause, events.ActionDestroy,
}

// notLabels are the attributes the engine adds to a container event beside
// the container's labels.
var notLabels = map[string]bool{"name": true, "image": true, "exitCode": true, "signal": true}

// maxBackoff bounds the wait between reconnects to the event stream.
const maxBackoff = 5 * time.Second

// Watch is part of the runtime.Runtime interface. A dropped event stream is
// reopened from the time of the last event it delivered, so a daemon restart
// loses nothing the daemon still remembers; the channel closes when ctx ends.
func (r *Runtime) Watch(ctx context.Context, selector map[string]string) (<-chan runtime.Event, error) {
	if err := r.connect(ctx); err != nil {
		return nil, err
	}
	args := labelFilter(selector)
	args.Add("type", string(events.ContainerEventType))
	for _, a := range watchedActions {
		args.Add("event", string(a))
	}
	// Since "now" makes the engine replay anything that happens between this
	// call returning and the stream being open, so a caller may start a
	// container right after Watch returns and still see it.
	since := time.Now()
	out := make(chan runtime.Event, 16)
	go func() {
		defer close(out)
		backoff := 100 * time.Millisecond
		for {
			opts := events.ListOptions{Since: timestamp(since), Filters: args}
			msgs, errs := r.cli.Events(ctx, opts)
			err := r.forward(ctx, msgs, errs, out, &since)
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				backoff = 100 * time.Millisecond
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, maxBackoff)
		}
	}()
	return out, nil
}

// forward copies one event stream to out until the stream fails; it returns
// nil when the stream delivered anything, so the caller reconnects quickly.
func (r *Runtime) forward(ctx context.Context, msgs <-chan events.Message, errs <-chan error, out chan<- runtime.Event, since *time.Time) error {
	delivered := false
	for {
		select {
		case m := <-msgs:
			delivered = true
			if m.TimeNano > 0 {
				// Just after it: a reconnect must not deliver it twice.
				*since = time.Unix(0, m.TimeNano+1)
			}
			e, ok := toEvent(m)
			if !ok {
				continue
			}
			select {
			case out <- e:
			case <-ctx.Done():
				return ctx.Err()
			}
		case err := <-errs:
			if delivered || errors.Is(err, io.EOF) {
				return nil
			}
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return err
		}
	}
}

func toEvent(m events.Message) (runtime.Event, bool) {
	if m.Type != events.ContainerEventType {
		return runtime.Event{}, false
	}
	// Old engines append details to some actions ("exec_start: sh -c ...").
	action, _, _ := strings.Cut(string(m.Action), ":")
	labels := make(map[string]string, len(m.Actor.Attributes))
	for k, v := range m.Actor.Attributes {
		if !notLabels[k] {
			labels[k] = v
		}
	}
	return runtime.Event{Container: m.Actor.Attributes["name"], Labels: labels, Action: action}, true
}

// timestamp formats t the way the events API reads "since": seconds.nanos.
func timestamp(t time.Time) string {
	return fmt.Sprintf("%d.%09d", t.Unix(), t.Nanosecond())
}
