package reconcile

import (
	"context"
	"errors"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/planner"
	"github.com/smile-loop/smile/reconcile/server"
	"github.com/smile-loop/smile/status"
)

// backend is the Manager as the HTTP server sees it (server.Backend): Names,
// Run, LastError, Desired, Delete and RequestStop are the Manager's own.
type backend struct{ *Manager }

var _ server.Backend = backend{}

func (b backend) Known(name string) bool {
	_, ok := b.Applied(name)
	return ok
}

func (b backend) Progress(name, attempt string) (*events.Progress, error) {
	box, err := b.inbox(name)
	if err != nil {
		return nil, err
	}
	return box.Progress(attempt)
}

func (b backend) Subscribe() *events.Subscription { return b.hub.Subscribe() }

func (b backend) Apply(req server.ApplyRequest) (any, error) {
	b.Manager.SetParallel(req.Parallel)
	res, err := b.Manager.applyDoc(req.Manifest, req.Name, req.Force)
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Rerun applies the run again from its manifest, even unchanged.
func (b backend) Rerun(name string) (any, error) {
	app, ok := b.Applied(name)
	if !ok {
		return nil, status.UnknownRun(name)
	}
	return b.applyDoc(app.Path, name, true)
}

// Audits reads back the audits the run's attempts posted.
func (b backend) Audits(name string) ([]status.Audit, error) {
	run, err := b.Run(name)
	b.mu.Lock()
	e, ok := b.runs[name]
	b.mu.Unlock()
	if err != nil || !ok {
		return nil, errors.Join(err, status.UnknownRun(name))
	}
	return Audits(run, e.stateFile), nil
}

func (b backend) WaitFinished(ctx context.Context, name string) (*status.Run, error) {
	return b.Manager.WaitFinished(ctx, name, "")
}

func (b backend) AttemptToken(token string) (server.AttemptToken, bool) {
	return b.rec.lookupToken(token)
}

func (b backend) BrainRun(name string) bool { return b.rec.BrainRun(name) }

func (b backend) ExpectedAttempt(run *status.Run) (string, status.Role) {
	return b.expectedAttempt(run)
}

// PutResult keeps a result in the inbox, then wakes the run's reconciler.
func (b backend) PutResult(name string, r *server.Result) (bool, error) {
	box, err := b.inbox(name)
	if err != nil {
		return false, err
	}
	p := &planner.Posted{Attempt: r.Attempt, Role: r.Role, ReceivedAt: r.ReceivedAt, Student: r.Student, Mentor: r.Mentor}
	if err := box.PutResult(p); err != nil {
		return false, err
	}
	stop, _ := box.Stop()
	b.Enqueue(name)
	return stop != nil, nil
}

// PutProgress keeps what the attempt says it does and publishes it.
func (b backend) PutProgress(name, attempt string, p *events.Progress) error {
	box, err := b.inbox(name)
	if err == nil {
		err = box.PutProgress(attempt, p)
	}
	if err != nil {
		return err
	}
	if run, err := b.Run(name); err == nil {
		b.hub.Publish(events.Event{Run: run, Action: events.ActProgress, At: p.At, Progress: p})
	}
	return nil
}
