package reconcile

import (
	"context"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

// backend is the Manager as the HTTP server sees it (server.Backend).
type backend struct{ m *Manager }

var _ server.Backend = backend{}

func (b backend) Names() []string { return b.m.Names() }

func (b backend) Known(name string) bool {
	_, ok := b.m.Applied(name)
	return ok
}

func (b backend) Run(name string) (*status.Run, error) { return b.m.Run(name) }

func (b backend) LastError(name string) error { return b.m.LastError(name) }

func (b backend) Desired(name string) (*spec.Desired, error) { return b.m.Desired(name) }

func (b backend) Progress(name, attempt string) (*events.Progress, error) {
	box, err := b.m.inbox(name)
	if err != nil {
		return nil, err
	}
	return box.progress(attempt)
}

func (b backend) Subscribe() *events.Subscription { return b.m.hub.Subscribe() }

func (b backend) Apply(manifest string) (any, error) {
	res, err := b.m.Apply(manifest)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (b backend) Delete(ctx context.Context, name string) error { return b.m.Delete(ctx, name) }

func (b backend) RequestStop(name, reason string) error { return b.m.RequestStop(name, reason) }

func (b backend) WaitFinished(ctx context.Context, name string) (*status.Run, error) {
	return b.m.WaitFinished(ctx, name, "")
}

func (b backend) AttemptToken(token string) (server.AttemptToken, bool) {
	t, ok := b.m.rec.lookupToken(token)
	return server.AttemptToken{Run: t.run, Attempt: t.attempt, Role: t.role, Revoked: t.revoked}, ok
}

func (b backend) BrainRun(name string) bool { return b.m.rec.BrainRun(name) }

func (b backend) ExpectedAttempt(run *status.Run) (string, status.Role) {
	return b.m.expectedAttempt(run)
}

// PutResult keeps a result in the inbox, then wakes the run's reconciler.
func (b backend) PutResult(name string, r *server.Result) (bool, error) {
	box, err := b.m.inbox(name)
	if err != nil {
		return false, err
	}
	p := &Posted{Attempt: r.Attempt, Role: r.Role, ReceivedAt: r.ReceivedAt, Student: r.Student, Mentor: r.Mentor}
	if err := box.putResult(p); err != nil {
		return false, err
	}
	stop, _ := box.stop()
	b.m.Enqueue(name)
	return stop != nil, nil
}

// PutProgress keeps what the attempt says it does and publishes it.
func (b backend) PutProgress(name, attempt string, p *events.Progress) error {
	box, err := b.m.inbox(name)
	if err == nil {
		err = box.putProgress(attempt, p)
	}
	if err != nil {
		return err
	}
	if run, err := b.m.Run(name); err == nil {
		b.m.hub.Publish(events.Event{Run: run, Action: events.ActProgress, At: p.At, Progress: p})
	}
	return nil
}
