// Package server is SMILE's HTTP side: the callback API containers post
// results and progress to, the loopback API the CLI and observers use
// (status, stop, progress, the control API, read auth), the WebSocket events
// and the dashboard. It knows the controller only through Backend, so it
// never imports reconcile; the controller's start-up path wires the two.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// Runs is what the server reads about the applied runs.
type Runs interface {
	// Names lists the applied runs.
	Names() []string
	// Known reports whether a run is applied.
	Known(name string) bool
	// Run is the run's status as last written (status.ErrUnknownRun for a
	// run that is not applied, store.ErrNotFound before its first save).
	Run(name string) (*status.Run, error)
	// LastError is the error of the run's last reconcile, if it failed.
	LastError(name string) error
	// Desired resolves the run's inputs now.
	Desired(name string) (*spec.Desired, error)
	// Progress is what the attempt last said it was doing (nil when
	// nothing).
	Progress(name, attempt string) (*events.Progress, error)
	// Subscribe starts receiving the runs' events.
	Subscribe() *events.Subscription
	// Audits are the audits the run's attempts posted, oldest first: the
	// commands with their lines, exit codes and durations.
	Audits(name string) ([]status.Audit, error)
}

// Control changes what runs: the control API and stop.
type Control interface {
	// Apply applies a manifest; its result is the answer's JSON body.
	Apply(req ApplyRequest) (any, error)
	Delete(ctx context.Context, name string) error
	// Rerun applies a run again from its manifest, a new generation even
	// when nothing changed; a run still at work is refused
	// (store.ErrLoopRunning).
	Rerun(name string) (any, error)
	// RequestStop asks a run's loop to end.
	RequestStop(name, reason string) error
	// WaitFinished blocks until the run has ended for its current inputs.
	WaitFinished(ctx context.Context, name string) (*status.Run, error)
}

// Callbacks takes what containers post.
type Callbacks interface {
	// AttemptToken finds an attempt's callback token, revoked ones too.
	AttemptToken(token string) (AttemptToken, bool)
	// BrainRun reports whether the run's learner runs in the controller
	// (it takes no callbacks).
	BrainRun(name string) bool
	// ExpectedAttempt is the container a run accepts callbacks from.
	ExpectedAttempt(run *status.Run) (container string, role status.Role)
	// PutResult keeps a result before it is acknowledged and wakes the
	// run; stopping reports that a stop was requested.
	PutResult(name string, r *Result) (stopping bool, err error)
	// PutProgress keeps what an attempt says it is doing and shows it to
	// observers.
	PutProgress(name, attempt string, p *events.Progress) error
}

// Backend is everything the server needs of the controller.
type Backend interface {
	Runs
	Control
	Callbacks
}

// AttemptToken is one attempt's callback token: it buys that attempt's posts
// of its own role, until it is revoked (the attempt ended).
type AttemptToken struct {
	Run     string
	Attempt string
	Role    status.Role
	Revoked bool
}

// Result is a result a container posted.
type Result struct {
	Attempt    string
	Role       status.Role
	ReceivedAt time.Time
	Student    *wire.StudentResultRequest
	Mentor     *wire.MentorResultRequest
}

// Server serves the callback and loopback handlers for one controller.
type Server struct {
	b            Backend
	controlToken string
	logins       *logins // the dashboard's one-time login tokens and session
	// obs are the observer connections of the handler Serve serves, which
	// its shutdown lets finish sending (observers.drain).
	obs *observers
}

// New builds the server of a controller whose control API takes
// controlToken.
func New(b Backend, controlToken string) *Server {
	return &Server{b: b, controlToken: controlToken, logins: newLogins()}
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
