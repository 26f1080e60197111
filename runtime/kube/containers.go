package kube

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/smile-loop/smile/runtime"
)

// List is part of the runtime.Runtime interface: the Pods whose labels
// include the selector's. A Pod being deleted is not listed: for SMILE it
// is gone.
func (r *Runtime) List(ctx context.Context, selector map[string]string) ([]runtime.Container, error) {
	pods, err := r.cs.CoreV1().Pods(r.opts.Namespace).List(ctx, metav1.ListOptions{
		LabelSelector: labels.SelectorFromSet(selector).String(),
	})
	if err != nil {
		return nil, fmt.Errorf("list pods: %w", err)
	}
	var out []runtime.Container
	for i := range pods.Items {
		if pods.Items[i].DeletionTimestamp != nil {
			continue
		}
		out = append(out, containerOf(&pods.Items[i]))
	}
	return out, nil
}

// Inspect is part of the runtime.Runtime interface.
func (r *Runtime) Inspect(ctx context.Context, nameOrID string) (runtime.Container, error) {
	pod, err := r.cs.CoreV1().Pods(r.opts.Namespace).Get(ctx, podName(nameOrID), metav1.GetOptions{})
	if err != nil {
		return runtime.Container{}, fmt.Errorf("inspect pod %s: %w", nameOrID, notFound(err))
	}
	if pod.DeletionTimestamp != nil {
		return runtime.Container{}, fmt.Errorf("inspect pod %s: being deleted: %w", nameOrID, runtime.ErrNotFound)
	}
	return containerOf(pod), nil
}

// containerOf is what SMILE sees of a Pod: its container's state (created
// until it runs, exited once it ended), exit code and times.
func containerOf(pod *corev1.Pod) runtime.Container {
	c := runtime.Container{
		ID:     string(pod.UID),
		Name:   pod.Name,
		Labels: pod.Labels,
		State:  runtime.StateCreated,
	}
	if n := pod.Annotations[AnnotationName]; n != "" {
		c.Name = n
	}
	if len(pod.Spec.Containers) > 0 {
		c.Image = pod.Spec.Containers[0].Image
	}
	for _, st := range pod.Status.ContainerStatuses {
		if st.Name != containerName {
			continue
		}
		switch {
		case st.State.Running != nil:
			c.State = runtime.StateRunning
			c.StartedAt = st.State.Running.StartedAt.Time
		case st.State.Terminated != nil:
			t := st.State.Terminated
			c.State, c.ExitCode = runtime.StateExited, int(t.ExitCode)
			c.StartedAt, c.FinishedAt = t.StartedAt.Time, t.FinishedAt.Time
		}
	}
	if c.State == runtime.StateCreated && (pod.Status.Phase == corev1.PodFailed || pod.Status.Phase == corev1.PodSucceeded) {
		c.State = runtime.StateExited
	}
	return c
}

// Watch is part of the runtime.Runtime interface: the Pods' watch, as
// Docker-like actions ("start", "die", "destroy"); other changes are
// "update". It ends with ctx or when the API server closes the watch (the
// caller watches again).
func (r *Runtime) Watch(ctx context.Context, selector map[string]string) (<-chan runtime.Event, error) {
	opts := metav1.ListOptions{LabelSelector: labels.SelectorFromSet(selector).String()}
	w, err := r.cs.CoreV1().Pods(r.opts.Namespace).Watch(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("watch pods: %w", err)
	}
	out := make(chan runtime.Event, 64)
	go func() {
		defer close(out)
		defer func() { w.Stop() }()
		last := map[string]runtime.State{}
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.ResultChan():
				if !ok {
					// The API server ends watches (a timeout, a dropped
					// connection): watch again until the caller is done,
					// from the last version seen so nothing is lost.
					if w, ok = r.rewatch(ctx, opts); !ok {
						return
					}
					continue
				}
				if pod, isPod := ev.Object.(*corev1.Pod); isPod {
					opts.ResourceVersion = pod.ResourceVersion
				}
				pod, isPod := ev.Object.(*corev1.Pod)
				if !isPod {
					continue
				}
				e, changed := eventOf(ev.Type, pod, last)
				if !changed {
					continue
				}
				select {
				case out <- e:
				default: // callers also poll: a full channel loses the event
				}
			}
		}
	}()
	return out, nil
}

// rewatch opens the watch again after the server ended it, retrying for as
// long as ctx lasts; false when ctx ended first.
func (r *Runtime) rewatch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, bool) {
	for {
		w, err := r.cs.CoreV1().Pods(r.opts.Namespace).Watch(ctx, opts)
		if err == nil {
			return w, true
		}
		if opts.ResourceVersion != "" && apierrors.IsResourceExpired(err) {
			opts.ResourceVersion = "" // too old to resume from: watch from now, callers also poll
			continue
		}
		select {
		case <-ctx.Done():
			return nil, false
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// eventOf turns a watch event into a runtime event, and says whether the
// container's state changed since the last one seen (kept in last).
func eventOf(t watch.EventType, pod *corev1.Pod, last map[string]runtime.State) (runtime.Event, bool) {
	c := containerOf(pod)
	e := runtime.Event{Container: c.Name, Labels: pod.Labels}
	if t == watch.Deleted {
		delete(last, pod.Name)
		e.Action = "destroy"
		return e, true
	}
	if last[pod.Name] == c.State {
		return e, false
	}
	last[pod.Name] = c.State
	switch c.State {
	case runtime.StateRunning:
		e.Action = "start"
	case runtime.StateExited:
		e.Action = "die"
	default:
		e.Action = "create"
	}
	return e, true
}
