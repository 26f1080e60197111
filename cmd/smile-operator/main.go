// Command smile-operator is SMILE's Kubernetes operator (issue 22, first
// slice): a controller-runtime manager, with leader election, that
// reconciles the SmileRuns of one namespace. Each run's files come from the
// ConfigMap its smile.dev/configmap annotation names; its literal Student
// plays in this process against a Pod (runtime/kube) of an image that holds
// smile-wrapper; its status in the API is the only state, so a successor
// resumes what a dead operator left. It runs outside the cluster too (the
// one-node test cluster has no Service routing): --kubeconfig. What it does
// not do yet is in docs/kubernetes.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/go-logr/logr"
	"github.com/go-logr/logr/funcr"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/smile-loop/smile/operator"
	"github.com/smile-loop/smile/runtime/kube"
	"github.com/smile-loop/smile/status/wire"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "error: %v\n", err)
		os.Exit(1)
	}
}

// options are the operator's flags.
type options struct {
	kubeconfig, namespace, image, instance string
	leaderElect                            bool
	parallel, verbosity                    int
}

func run() error {
	var o options
	host, _ := os.Hostname()
	flag.StringVar(&o.kubeconfig, "kubeconfig", os.Getenv("KUBECONFIG"), "kubeconfig of the cluster (default $KUBECONFIG; empty: in-cluster)")
	flag.StringVar(&o.namespace, "namespace", "default", "the namespace whose SmileRuns this operator reconciles, and where their Pods run")
	flag.StringVar(&o.image, "image", "smile-k8s-base:latest", "the image of the runs' Pods: on the nodes already, with smile-wrapper at "+wire.ContainerWrapperPath)
	flag.StringVar(&o.instance, "instance", fmt.Sprintf("%s-%d", host, os.Getpid()), "this operator's name in the runs' status")
	flag.BoolVar(&o.leaderElect, "leader-elect", true, "run only while holding the lease smile-operator in the namespace")
	flag.IntVar(&o.parallel, "parallel", 4, "Student attempts played at once")
	flag.IntVar(&o.verbosity, "v", 0, "log verbosity")
	flag.Parse()

	log := funcr.New(func(prefix, args string) { fmt.Fprintln(os.Stderr, prefix, args) }, funcr.Options{Verbosity: o.verbosity})
	ctrllog.SetLogger(log)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(logr.NewContext(ctx, log), o)
}

// serve runs the manager until ctx ends.
func serve(ctx context.Context, o options) error {
	cfg, err := config(o.kubeconfig)
	if err != nil {
		return err
	}
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                  clientgoscheme.Scheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		Cache:                   cache.Options{DefaultNamespaces: map[string]cache.Config{o.namespace: {}}},
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "smile-operator",
		LeaderElectionNamespace: o.namespace,
		// A stopped operator gives the lease up at once.
		LeaderElectionReleaseOnCancel: true,
	})
	if err != nil {
		return fmt.Errorf("new manager: %w", err)
	}
	rt, err := kube.New(cfg, kube.Options{Namespace: o.namespace, InImage: []string{wire.ContainerWrapperPath}})
	if err != nil {
		return err
	}
	r := &operator.Reconciler{
		Client: mgr.GetClient(), Reader: mgr.GetAPIReader(), Runtime: rt, Play: operator.PlayStudent,
		Context: ctx, Image: o.image, Instance: o.instance, Parallel: o.parallel,
	}
	if err := r.SetupWithManager(mgr, controller.Options{MaxConcurrentReconciles: 2}); err != nil {
		return fmt.Errorf("set up the SmileRun controller: %w", err)
	}
	logr.FromContextOrDiscard(ctx).Info("Starting operator", "namespace", o.namespace, "instance", o.instance, "image", o.image)
	return mgr.Start(ctx)
}

// config is the kubeconfig's, or the in-cluster one without a kubeconfig.
func config(kubeconfig string) (*rest.Config, error) {
	if kubeconfig == "" {
		cfg, err := rest.InClusterConfig()
		if err != nil {
			return nil, fmt.Errorf("no --kubeconfig and not in a cluster: %w", err)
		}
		return cfg, nil
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("read kubeconfig %s: %w", kubeconfig, err)
	}
	return cfg, nil
}
