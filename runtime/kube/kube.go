package kube

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/smile-loop/smile/runtime"
)

// containerName is the name of the one container in every Pod.
const containerName = "main"

// AnnotationName keeps a container's name as SMILE spelled it, when the
// Pod's name had to differ (a Pod's name is a DNS subdomain).
const AnnotationName = "smile.dev/name"

// labelPod marks the ConfigMaps made for a Pod's mounts, so they go with it.
const labelPod = "smile.dev/pod"

// EnvKubeconfig names the kubeconfig of the cluster the tests run Pods on
// (hack/k8s-up.sh prints one; CI sets it). Unset, those tests are skipped
// locally and fail in CI.
const EnvKubeconfig = "SMILE_KUBECONFIG"

// Options say where the runtime's Pods go.
type Options struct {
	// Namespace holds every Pod and ConfigMap (default "default").
	Namespace string
	// GatewayIP and HostName are what Info reports: the address Pods reach
	// the host on, and a name for it written into each Pod's /etc/hosts
	// (ContainerSpec.HostGateway). Empty: no such name.
	GatewayIP string
	HostName  string
	// InImage are container paths every image the runs use already has
	// (smile-wrapper, too big for a ConfigMap): a mount there is left out.
	InImage []string
}

// Runtime runs containers as Pods. It is safe for concurrent use.
type Runtime struct {
	cfg  *rest.Config
	cs   kubernetes.Interface
	opts Options
}

var _ runtime.Runtime = (*Runtime)(nil)

// New returns a runtime talking to the API server cfg names.
func New(cfg *rest.Config, opts Options) (*Runtime, error) {
	if opts.Namespace == "" {
		opts.Namespace = "default"
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("kubernetes client: %w", err)
	}
	return &Runtime{cfg: cfg, cs: cs, opts: opts}, nil
}

// FromKubeconfig returns a runtime for the current context of a kubeconfig
// file.
func FromKubeconfig(path string, opts Options) (*Runtime, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		return nil, fmt.Errorf("read kubeconfig %s: %w", path, err)
	}
	return New(cfg, opts)
}

// Namespace is where the runtime's Pods are.
func (r *Runtime) Namespace() string { return r.opts.Namespace }

// Info is part of the runtime.Runtime interface: the API server's version.
func (r *Runtime) Info(ctx context.Context) (runtime.Info, error) {
	v, err := r.cs.Discovery().ServerVersion()
	if err != nil {
		return runtime.Info{}, fmt.Errorf("%w: Kubernetes API server: %v", runtime.ErrUnavailable, err)
	}
	return runtime.Info{ServerVersion: v.GitVersion, APIVersion: "v1", GatewayIP: r.opts.GatewayIP, HostName: r.opts.HostName}, nil
}

// EnsureImage is part of the runtime.Runtime interface: the image must be
// on a node already (the nodes' status lists their images), since Pods never
// pull.
func (r *Runtime) EnsureImage(ctx context.Context, image string) error {
	nodes, err := r.cs.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return fmt.Errorf("list nodes for image %s: %w", image, err)
	}
	want := normalizeImage(image)
	for _, n := range nodes.Items {
		for _, img := range n.Status.Images {
			for _, name := range img.Names {
				if normalizeImage(name) == want {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("%w: %s is on no node (images are loaded into the nodes: there is no pull)", runtime.ErrImageNotFound, image)
}

// normalizeImage spells an image reference as containerd lists it:
// smile-base -> docker.io/library/smile-base:latest.
func normalizeImage(ref string) string {
	if strings.Contains(ref, "@") {
		return ref
	}
	name, tag := ref, "latest"
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		name, tag = ref[:i], ref[i+1:]
	}
	first, _, found := strings.Cut(name, "/")
	switch {
	case !found:
		name = "docker.io/library/" + name
	case !strings.ContainsAny(first, ".:") && first != "localhost":
		name = "docker.io/" + name
	}
	return name + ":" + tag
}

// notFound turns the API's NotFound into runtime.ErrNotFound.
func notFound(err error) error {
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("%w: %v", runtime.ErrNotFound, err)
	}
	return err
}

// podName is the Pod's name for a container's: lower case, characters a
// DNS subdomain does not allow made '-', at most 253 characters.
func podName(name string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(name) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' {
			b.WriteRune(c)
		} else {
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-.")
	if len(s) > 253 {
		s = strings.TrimRight(s[:253], "-.")
	}
	return s
}

// errUnsupported says what a Pod cannot do.
func errUnsupported(what string) error {
	return fmt.Errorf("%s: %w (Kubernetes Pods)", what, runtime.ErrUnsupported)
}
