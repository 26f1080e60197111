package operator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

func newRun() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(GVK)
	return u
}

// statusOf reads a SmileRun's status as SMILE's own (status.Status): the
// same object local mode keeps in its state file.
func statusOf(run *unstructured.Unstructured) (status.Status, error) {
	var st status.Status
	raw, ok := run.Object["status"]
	if !ok {
		return st, nil
	}
	data, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(data, &st)
	}
	if err != nil {
		return st, fmt.Errorf("status of %s: %w", run.GetName(), err)
	}
	return st, nil
}

// writeStatus writes st, with its conditions derived, through the status
// subresource.
func (r *Reconciler) writeStatus(ctx context.Context, run *unstructured.Unstructured, st status.Status) error {
	full := status.Run{Metadata: status.Metadata{Name: run.GetName(), Generation: run.GetGeneration()}, Status: st}
	full.SetConditions(time.Now().UTC())
	data, err := json.Marshal(full.Status)
	if err != nil {
		return err
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return err
	}
	run.Object["status"] = obj
	return r.Client.Status().Update(ctx, run)
}

// desiredRun is what the end of an attempt needs of the run.
type desiredRun struct {
	tutorial *spec.Tutorial
}

// finish writes an attempt's end into st: the Student's findings as gaps,
// its record, the phase and the message.
func finish(st *status.Status, run *unstructured.Unstructured, d *desiredRun, res *wire.StudentResultRequest, err error) {
	now := time.Now().UTC().Truncate(time.Second)
	started := now
	if st.Attempt != nil {
		started = st.Attempt.StartedAt
	}
	st.Attempt, st.UpdatedAt, st.FinishedAt = nil, now, &now
	if err != nil {
		st.Phase, st.Reason = status.PhaseError, ""
		if errors.Is(err, runtime.ErrImageNotFound) {
			st.Reason = status.ReasonImageNotFound
		}
		st.Message = status.Redact("the Student could not play: " + err.Error())
		return
	}
	out := res.StudentOutput
	st.History = append(st.History, status.IterationRecord{Iteration: 1, StudentOutput: out, StartedAt: started, EndedAt: now})
	if d != nil {
		st.MergeFindings(d.tutorial, out.Findings, 1)
	}
	if out.Status == status.StudentCompleted {
		st.Phase, st.Reason = status.PhaseCompleted, status.ReasonCompleted
		st.Message = fmt.Sprintf("the Student went through the page; %d gaps", len(st.Gaps))
		return
	}
	st.Phase, st.Reason = status.PhaseBlocker, status.ReasonCannotComplete
	st.Message = fmt.Sprintf("the Student stopped at line %d (the Mentor does not run on Kubernetes yet)", out.Line)
}

// podNameFor names a generation's Student attempt.
func podNameFor(run string, gen int64) string {
	return fmt.Sprintf("smile-%s-student-g%d", run, gen)
}

func (r *Reconciler) event(run *unstructured.Unstructured, typ, reason, action, note string, args ...any) {
	if r.Events != nil {
		r.Events.Eventf(run, nil, typ, reason, action, note, args...)
	}
}

// claim marks a run's attempt as played here, if a slot is free.
func (r *Reconciler) claim(key types.NamespacedName) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	limit := r.Parallel
	if limit <= 0 {
		limit = 4
	}
	if r.active == nil {
		r.active = map[types.NamespacedName]bool{}
	}
	if r.active[key] || len(r.active) >= limit {
		return false
	}
	r.active[key] = true
	return true
}

func (r *Reconciler) release(key types.NamespacedName) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.active, key)
}

func (r *Reconciler) isActive(key types.NamespacedName) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active[key]
}

// startedHere says whether this process started the run's generation.
func (r *Reconciler) startedHere(key types.NamespacedName, gen int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	g, ok := r.started[key]
	return ok && g == gen
}
