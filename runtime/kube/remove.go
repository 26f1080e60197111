package kube

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/smile-loop/smile/runtime"
)

// Stop is part of the runtime.Runtime interface. A Pod is not kept
// stopped: Stop deletes it with the grace period (its processes get
// SIGTERM, then SIGKILL), and it is then gone, as after Remove.
func (r *Runtime) Stop(ctx context.Context, nameOrID string, grace time.Duration) error {
	return r.delete(ctx, nameOrID, int64(grace/time.Second))
}

// Remove is part of the runtime.Runtime interface: the Pod is deleted at
// once (grace 0: its name is free again; the kubelet kills what runs), and
// with it the ConfigMaps made for its mounts.
func (r *Runtime) Remove(ctx context.Context, nameOrID string) error {
	return r.delete(ctx, nameOrID, 0)
}

func (r *Runtime) delete(ctx context.Context, nameOrID string, grace int64) error {
	name := podName(nameOrID)
	err := r.cs.CoreV1().Pods(r.opts.Namespace).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete pod %s: %w", name, err)
	}
	return r.removeConfigMaps(ctx, name)
}

// removeConfigMaps deletes the ConfigMaps made for a Pod's mounts.
func (r *Runtime) removeConfigMaps(ctx context.Context, pod string) error {
	sel := labels.SelectorFromSet(map[string]string{runtime.LabelOwner: runtime.OwnerValue, labelPod: podLabel(pod)}).String()
	err := r.cs.CoreV1().ConfigMaps(r.opts.Namespace).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		return fmt.Errorf("delete configmaps of pod %s: %w", pod, err)
	}
	return nil
}

// Logs is part of the runtime.Runtime interface: pods/log, stdout and
// stderr together.
func (r *Runtime) Logs(ctx context.Context, nameOrID string) (string, error) {
	name := podName(nameOrID)
	b, err := r.cs.CoreV1().Pods(r.opts.Namespace).GetLogs(name, &corev1.PodLogOptions{Container: containerName}).DoRaw(ctx)
	if err != nil {
		return "", fmt.Errorf("logs of pod %s: %w", name, notFound(err))
	}
	return string(b), nil
}
