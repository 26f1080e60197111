package operator

import (
	"context"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// apiServer starts etcd and kube-apiserver (envtest) with the SmileRun CRD,
// or skips without the binaries (fails under CI=true).
func apiServer(t *testing.T) *rest.Config {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("KUBEBUILDER_ASSETS is not set: CI must run the operator's tests on a real API server")
		}
		t.Skip("no API server: set KUBEBUILDER_ASSETS to the folder hack/k8s-build.sh makes ($HOME/.cache/smile-k8s/v1.37.2/assets)")
	}
	env := &envtest.Environment{CRDDirectoryPaths: []string{"../manifests/crd"}, ErrorIfCRDPathMissing: true, BinaryAssetsDirectory: assets}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("start kube-apiserver and etcd: %v", err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	return cfg
}

// plays records the attempts a stand-in Player was asked to play.
type plays struct {
	mu    sync.Mutex
	calls []Student
	res   wire.StudentResultRequest
}

func (p *plays) play(ctx context.Context, s Student) (*wire.StudentResultRequest, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls = append(p.calls, s)
	res := p.res
	return &res, nil
}

func (p *plays) all() []Student {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Student(nil), p.calls...)
}

// operator is a running operator of a test.
type operator struct {
	stop    func()
	elected <-chan struct{}
}

// startOperator runs an operator (a manager with the reconciler, play as
// its Player) until stop is called or the test ends.
func startOperator(t *testing.T, cfg *rest.Config, play Player, instance string, leaderElect bool) operator {
	t.Helper()
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                  clientgoscheme.Scheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		LeaderElection:          leaderElect,
		LeaderElectionID:        "smile-operator",
		LeaderElectionNamespace: "default",
		LeaseDuration:           ptrTo(2 * time.Second),
		RenewDeadline:           ptrTo(1 * time.Second),
		RetryPeriod:             ptrTo(200 * time.Millisecond),
		// The lease goes with a stopped operator at once.
		LeaderElectionReleaseOnCancel: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Reconciler{Client: mgr.GetClient(), Play: play, Context: ctx, Instance: instance, Image: "smile-k8s-base:latest"}
	skip := true
	if err := r.SetupWithManager(mgr, controller.Options{SkipNameValidation: &skip}); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := mgr.Start(ctx); err != nil {
			t.Errorf("operator %s: %v", instance, err)
		}
	}()
	var once sync.Once
	stop := func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return operator{stop: stop, elected: mgr.Elected()}
}

// blocked is a Player whose attempts last until the operator stops.
func blocked(ctx context.Context, s Student) (*wire.StudentResultRequest, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// waitElected waits until the operator leads.
func waitElected(t *testing.T, op operator) {
	t.Helper()
	select {
	case <-op.elected:
	case <-time.After(30 * time.Second):
		t.Fatal("the operator was never elected")
	}
}

func ptrTo[T any](v T) *T { return &v }

// newClient is a plain client of the API server.
func newClient(t *testing.T, cfg *rest.Config) client.Client {
	t.Helper()
	c, err := client.New(cfg, client.Options{Scheme: clientgoscheme.Scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// createRun creates a SmileRun of examples/quickstart's files, in a
// ConfigMap it names.
func createRun(t *testing.T, c client.Client, name string) *unstructured.Unstructured {
	t.Helper()
	ctx := t.Context()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name + "-files", Namespace: "default"}, Data: map[string]string{}}
	for _, f := range []string{"tutorial.md", "smile.json"} {
		data, err := os.ReadFile("../examples/quickstart/" + f)
		if err != nil {
			t.Fatal(err)
		}
		cm.Data[f] = string(data)
	}
	if err := c.Create(ctx, cm); err != nil {
		t.Fatal(err)
	}
	run := newRun()
	run.SetName(name)
	run.SetNamespace("default")
	run.SetAnnotations(map[string]string{AnnotationSource: cm.Name})
	run.Object["spec"] = map[string]any{"tutorial": "tutorial.md", "llmProvider": "literal"}
	if err := c.Create(ctx, run); err != nil {
		t.Fatal(err)
	}
	return run
}

// waitStatus waits until the run's status satisfies ok.
func waitStatus(t *testing.T, c client.Client, name string, ok func(status.Status) bool) status.Status {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		run := newRun()
		err := c.Get(t.Context(), client.ObjectKey{Namespace: "default", Name: name}, run)
		if err == nil {
			st, err := statusOf(run)
			if err == nil && ok(st) {
				return st
			}
			if time.Now().After(deadline) {
				t.Fatalf("run %s: status never as wanted; last %+v (%v)", name, st, err)
			}
		} else if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func terminal(st status.Status) bool { return st.Phase.Terminal() }

// waitEvents waits until Events about a run have each of the reasons (the
// recorder sends them in the background) and returns the reasons seen.
func waitEvents(t *testing.T, c client.Client, name string, reasons ...string) string {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var list eventsv1.EventList
		if err := c.List(t.Context(), &list, client.InNamespace("default")); err != nil {
			t.Fatal(err)
		}
		var seen []string
		for _, e := range list.Items {
			if e.Regarding.Name == name {
				seen = append(seen, e.Reason)
			}
		}
		missing := false
		for _, r := range reasons {
			missing = missing || !slices.Contains(seen, r)
		}
		if !missing || time.Now().After(deadline) {
			return strings.Join(seen, " ")
		}
		time.Sleep(100 * time.Millisecond)
	}
}
