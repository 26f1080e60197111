package kube

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/smile-loop/smile/runtime"
)

// startTimeout bounds the wait for a new Pod to run.
const startTimeout = 2 * time.Minute

// Start is part of the runtime.Runtime interface: a leftover Pod of the
// same name is deleted, the mounts' ConfigMaps are made, then the Pod, and
// Start returns once its container runs.
func (r *Runtime) Start(ctx context.Context, spec runtime.ContainerSpec) (runtime.Container, error) {
	if spec.Network == "none" {
		return runtime.Container{}, errUnsupported("a container with no network (studentNetwork: none)")
	}
	name := podName(spec.Name)
	if err := r.Remove(ctx, name); err != nil {
		return runtime.Container{}, fmt.Errorf("replace pod %s: %w", name, err)
	}
	vols, err := volumesFor(name, r.withoutInImage(spec))
	if err != nil {
		return runtime.Container{}, fmt.Errorf("start pod %s: %w", name, err)
	}
	for _, cm := range vols.configMaps {
		cm.Namespace = r.opts.Namespace
		if _, err := r.cs.CoreV1().ConfigMaps(r.opts.Namespace).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return runtime.Container{}, fmt.Errorf("start pod %s: create configmap %s: %w", name, cm.Name, err)
		}
	}
	pod := r.podFor(spec, vols)
	if _, err := r.cs.CoreV1().Pods(r.opts.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
		_ = r.removeConfigMaps(context.WithoutCancel(ctx), name)
		return runtime.Container{}, fmt.Errorf("start pod %s: %w", name, err)
	}
	c, err := r.waitRunning(ctx, name)
	if err != nil {
		return c, fmt.Errorf("start pod %s: %w", name, err)
	}
	return c, nil
}

// withoutInImage is spec without its mounts at paths the image has.
func (r *Runtime) withoutInImage(spec runtime.ContainerSpec) runtime.ContainerSpec {
	var mounts []runtime.Mount
	for _, m := range spec.Mounts {
		if !slices.Contains(r.opts.InImage, m.Target) {
			mounts = append(mounts, m)
		}
	}
	spec.Mounts = mounts
	return spec
}

// podFor is the Pod of a container spec and its volumes.
func (r *Runtime) podFor(spec runtime.ContainerSpec, vols volumes) *corev1.Pod {
	name := podName(spec.Name)
	no := false
	c := corev1.Container{
		Name:            containerName,
		Image:           spec.Image,
		ImagePullPolicy: corev1.PullNever,
		Command:         spec.Cmd,
		Env:             envVars(spec.Env),
		WorkingDir:      spec.WorkingDir,
		VolumeMounts:    vols.mounts,
		Resources:       resourcesFor(spec.Resources),
		SecurityContext: securityFor(spec.Confinement),
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Name:        name,
			Namespace:   r.opts.Namespace,
			Labels:      spec.Labels,
			Annotations: map[string]string{AnnotationName: spec.Name},
		},
		Spec: corev1.PodSpec{
			Containers:                   []corev1.Container{c},
			Volumes:                      vols.volumes,
			RestartPolicy:                corev1.RestartPolicyNever,
			AutomountServiceAccountToken: &no,
			EnableServiceLinks:           &no,
			// A removal is a forced one (grace 0); a stop gives 10 s.
			TerminationGracePeriodSeconds: ptr(int64(10)),
		},
	}
	if spec.HostGateway && r.opts.HostName != "" && r.opts.GatewayIP != "" {
		pod.Spec.HostAliases = []corev1.HostAlias{{IP: r.opts.GatewayIP, Hostnames: []string{r.opts.HostName}}}
	}
	return pod
}

func ptr[T any](v T) *T { return &v }

// envVars turns KEY=VALUE strings into the Pod's environment.
func envVars(env []string) []corev1.EnvVar {
	var out []corev1.EnvVar
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		out = append(out, corev1.EnvVar{Name: k, Value: v})
	}
	return out
}

// resourcesFor turns limits into the container's: memory and CPU are
// limits (requests are left small, so that many Pods fit on a node and a
// Pod's limit is its cap, not its reservation). A Pod has no process limit
// of its own: PidsLimit is the node's podPidsLimit.
func resourcesFor(res runtime.Resources) corev1.ResourceRequirements {
	out := corev1.ResourceRequirements{}
	limits := corev1.ResourceList{}
	requests := corev1.ResourceList{}
	if res.MemoryBytes > 0 {
		limits[corev1.ResourceMemory] = *resource.NewQuantity(res.MemoryBytes, resource.BinarySI)
		requests[corev1.ResourceMemory] = *resource.NewQuantity(min(res.MemoryBytes, 64<<20), resource.BinarySI)
	}
	if res.NanoCPUs > 0 {
		milli := max(res.NanoCPUs/1_000_000, 1)
		limits[corev1.ResourceCPU] = *resource.NewMilliQuantity(milli, resource.DecimalSI)
		requests[corev1.ResourceCPU] = *resource.NewMilliQuantity(min(milli, 10), resource.DecimalSI)
	}
	if len(limits) > 0 {
		out.Limits, out.Requests = limits, requests
	}
	return out
}

// securityFor turns the confinement into the container's security context.
func securityFor(c runtime.Confinement) *corev1.SecurityContext {
	if !c.NoNewPrivileges && len(c.CapDrop) == 0 {
		return nil
	}
	sc := &corev1.SecurityContext{}
	if c.NoNewPrivileges {
		sc.AllowPrivilegeEscalation = ptr(false)
	}
	for _, cap := range c.CapDrop {
		if sc.Capabilities == nil {
			sc.Capabilities = &corev1.Capabilities{}
		}
		sc.Capabilities.Drop = append(sc.Capabilities.Drop, corev1.Capability(cap))
	}
	return sc
}

// waitRunning polls the Pod until its container runs; a container that
// cannot start (its image is not on the node, its command is missing) or
// has ended already is an error with the kubelet's reason.
func (r *Runtime) waitRunning(ctx context.Context, name string) (runtime.Container, error) {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		pod, err := r.cs.CoreV1().Pods(r.opts.Namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return runtime.Container{}, notFound(err)
		}
		c := containerOf(pod)
		if c.State == runtime.StateRunning {
			return c, nil
		}
		if err := startFailure(pod); err != nil {
			return c, err
		}
		select {
		case <-ctx.Done():
			return c, fmt.Errorf("waiting for the pod to run: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// startFailure is why a Pod's container will not run, or nil while it may.
func startFailure(pod *corev1.Pod) error {
	for _, st := range pod.Status.ContainerStatuses {
		if w := st.State.Waiting; w != nil {
			switch w.Reason {
			case "ErrImageNeverPull":
				return fmt.Errorf("%w: %s", runtime.ErrImageNotFound, w.Message)
			case "CreateContainerError", "CreateContainerConfigError", "RunContainerError", "InvalidImageName":
				return fmt.Errorf("%s: %s", w.Reason, w.Message)
			}
		}
		if t := st.State.Terminated; t != nil {
			return fmt.Errorf("container ended at once (exit code %d, %s): %s", t.ExitCode, t.Reason, t.Message)
		}
	}
	return nil
}
