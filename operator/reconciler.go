package operator

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/go-logr/logr"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// GVK is the SmileRun's kind (manifests/crd).
var GVK = schema.GroupVersionKind{Group: "smile.dev", Version: "v1alpha1", Kind: "SmileRun"}

// Player plays one Student attempt: PlayStudent, or a stand-in in tests.
type Player func(ctx context.Context, s Student) (*wire.StudentResultRequest, error)

// Reconciler reconciles SmileRuns, one transition per call, with the run's
// status in the API as its only state: a new generation is started (phase
// RunningStudent, the attempt named), a started one is played in the
// background by this process, and its end is written back. An operator that
// finds a run RunningStudent that it did not start (its predecessor died)
// plays the attempt again from the top: Pods keep no checkpoints.
//
// What it does not do yet: the Mentor and further iterations; a run ends
// with its first Student attempt (Completed, or Blocker where the Student
// was stuck).
type Reconciler struct {
	Client client.Client
	// Reader reads the runs' ConfigMaps straight from the API server (the
	// manager's APIReader), so that no cache holds every ConfigMap; nil:
	// Client.
	Reader  client.Reader
	Runtime runtime.Runtime
	Play    Player
	Events  events.EventRecorder
	// Context bounds the attempts played in the background (the manager's).
	Context context.Context
	// Image replaces the runs' containerImage (an image on the nodes with
	// smile-wrapper inside); empty: the run's own.
	Image string
	// Instance names this operator in the status (attempt.instance).
	Instance string
	// Parallel bounds the attempts played at once (default 4).
	Parallel int

	mu      sync.Mutex
	active  map[types.NamespacedName]bool
	started map[types.NamespacedName]int64 // generations this process started
}

// Reconcile is part of controller-runtime's reconcile.Reconciler.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	log := logr.FromContextOrDiscard(ctx)
	run := newRun()
	if err := r.Client.Get(ctx, req.NamespacedName, run); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	st, err := statusOf(run)
	if err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	gen := run.GetGeneration()
	switch {
	case st.ObservedGeneration == gen && st.Phase.Terminal():
		return reconcile.Result{}, nil
	case st.ObservedGeneration != gen || st.Phase == "":
		return reconcile.Result{}, r.start(ctx, run, gen)
	case st.Phase == status.PhaseRunningStudent && st.Attempt != nil:
		if r.isActive(req.NamespacedName) {
			return reconcile.Result{}, nil
		}
		if !r.claim(req.NamespacedName) {
			return reconcile.Result{RequeueAfter: 2 * time.Second}, nil
		}
		if !r.startedHere(req.NamespacedName, gen) {
			log.Info("Resuming attempt from the top", "attempt", st.Attempt.Container)
			r.event(run, corev1.EventTypeNormal, string(status.ReasonResumed), "Play",
				"attempt %s resumed from the top: the operator that started it is gone", st.Attempt.Container)
		}
		go r.attempt(req.NamespacedName, st.Attempt.Container, gen)
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("run %s: phase %s is not one the operator plays", req.Name, st.Phase))
}

// start writes a generation's first status: RunningStudent, its attempt
// named.
func (r *Reconciler) start(ctx context.Context, run *unstructured.Unstructured, gen int64) error {
	key := client.ObjectKeyFromObject(run)
	now := time.Now().UTC().Truncate(time.Second)
	st := status.Status{
		Phase: status.PhaseRunningStudent, Iteration: 1, StartedAt: now, UpdatedAt: now,
		ObservedGeneration: gen, Reason: status.ReasonStarted,
		Message: "the Student's attempt is starting",
		Attempt: &status.Attempt{Role: status.RoleStudent, Iteration: 1, Instance: r.Instance, StartedAt: now,
			Container: podNameFor(run.GetName(), gen)},
	}
	if err := r.writeStatus(ctx, run, st); err != nil {
		return err
	}
	r.mu.Lock()
	if r.started == nil {
		r.started = map[types.NamespacedName]int64{}
	}
	r.started[key] = gen
	r.mu.Unlock()
	r.event(run, corev1.EventTypeNormal, string(status.ReasonStarted), "Start", "generation %d started: attempt %s", gen, st.Attempt.Container)
	return nil
}

// attempt plays a run's Student in the background and writes its end.
func (r *Reconciler) attempt(key types.NamespacedName, container string, gen int64) {
	defer r.release(key)
	ctx := r.Context
	log := logr.FromContextOrDiscard(ctx).WithValues("smilerun", key.String(), "attempt", container)
	run := newRun()
	if err := r.Client.Get(ctx, key, run); err != nil {
		log.Error(err, "Cannot read run")
		return
	}
	res, d, err := r.play(ctx, run, container)
	if ctx.Err() != nil {
		return // the operator stops: its successor resumes from the status
	}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		run := newRun()
		if err := r.Client.Get(ctx, key, run); err != nil {
			return err
		}
		st, serr := statusOf(run)
		if serr != nil || st.ObservedGeneration != gen || st.Phase.Terminal() {
			return serr // a newer generation took over: this result is stale
		}
		finish(&st, run, d, res, err)
		if err := r.writeStatus(ctx, run, st); err != nil {
			return err
		}
		r.event(run, corev1.EventTypeNormal, string(st.Phase), "Finish", "%s", st.Message)
		return nil
	})
	if err != nil && !apierrors.IsNotFound(err) {
		log.Error(err, "Cannot write the attempt's end")
	}
}

// play resolves the run from its ConfigMap and plays its Student.
func (r *Reconciler) play(ctx context.Context, run *unstructured.Unstructured, container string) (*wire.StudentResultRequest, *desiredRun, error) {
	reader := r.Reader
	if reader == nil {
		reader = r.Client
	}
	d, err := desired(ctx, reader, run)
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(d.Dir)
	if r.Image != "" {
		d.Config.ContainerImage = r.Image
	}
	work, err := os.MkdirTemp("", "smile-work-")
	if err != nil {
		return nil, nil, err
	}
	defer os.RemoveAll(work)
	res, err := r.Play(ctx, Student{Runtime: r.Runtime, Desired: d, Name: container, Work: work,
		Instance: r.Instance, StateKey: string(run.GetUID())})
	return res, &desiredRun{tutorial: d.Tutorial}, err
}

// SetupWithManager registers the reconciler for SmileRuns with mgr.
func (r *Reconciler) SetupWithManager(mgr manager.Manager, opts controller.Options) error {
	if r.Events == nil {
		r.Events = mgr.GetEventRecorder("smile-operator")
	}
	return builder.ControllerManagedBy(mgr).For(newRun()).Named("smilerun").WithOptions(opts).Complete(r)
}
