package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensions "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/smile-loop/smile/operator"
	"github.com/smile-loop/smile/runtime/kube"
	"github.com/smile-loop/smile/status"
)

// cluster is what a test needs of the one-node cluster.
type cluster struct {
	kubeconfig string
	cs         kubernetes.Interface
	runs       dynamic.NamespaceableResourceInterface
	ns         string
}

// onCluster connects to the test cluster (SMILE_KUBECONFIG), installs the
// CRD and makes a namespace of the test's own, or skips (fails under
// CI=true).
func onCluster(t *testing.T) cluster {
	t.Helper()
	path := os.Getenv(kube.EnvKubeconfig)
	if path == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must run the operator on a cluster", kube.EnvKubeconfig)
		}
		t.Skipf("no cluster: set %s (hack/k8s-up.sh prints one) to run the operator on it", kube.EnvKubeconfig)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", path)
	if err != nil {
		t.Fatal(err)
	}
	c := cluster{kubeconfig: path, cs: kubernetes.NewForConfigOrDie(cfg)}
	c.runs = dynamic.NewForConfigOrDie(cfg).Resource(schema.GroupVersionResource{Group: "smile.dev", Version: "v1alpha1", Resource: "smileruns"})
	installCRD(t, apiextensions.NewForConfigOrDie(cfg))
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	c.ns = "smile-op-" + hex.EncodeToString(b)
	ctx := t.Context()
	if _, err := c.cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: c.ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The test cluster runs no controller-manager to make it.
	if _, err := c.cs.CoreV1().ServiceAccounts(c.ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default"}}, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.cs.CoreV1().Namespaces().Delete(context.Background(), c.ns, metav1.DeleteOptions{}) })
	return c
}

// installCRD creates (or updates) the SmileRun CRD of manifests/crd and
// waits until it is established.
func installCRD(t *testing.T, ext apiextensions.Interface) {
	t.Helper()
	data, err := os.ReadFile("../../manifests/crd/smile.dev_smileruns.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	dec := yaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for crd.Kind == "" { // the file opens with a comment and an empty document
		if err := dec.Decode(&crd); err != nil {
			t.Fatal(err)
		}
	}
	ctx := t.Context()
	crds := ext.ApiextensionsV1().CustomResourceDefinitions()
	if old, err := crds.Get(ctx, crd.Name, metav1.GetOptions{}); err == nil {
		crd.ResourceVersion = old.ResourceVersion
		_, err = crds.Update(ctx, &crd, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
	} else if _, err := crds.Create(ctx, &crd, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		got, err := crds.Get(ctx, crd.Name, metav1.GetOptions{})
		if err == nil {
			for _, c := range got.Status.Conditions {
				if c.Type == apiextensionsv1.Established && c.Status == apiextensionsv1.ConditionTrue {
					return
				}
			}
		}
		if i > 100 {
			t.Fatalf("CRD %s not established: %v", crd.Name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// createRun makes a SmileRun of files (a ConfigMap it names).
func (c cluster) createRun(t *testing.T, name string, files map[string]string, spec map[string]any) {
	t.Helper()
	ctx := t.Context()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name + "-files"}, Data: files}
	if _, err := c.cs.CoreV1().ConfigMaps(c.ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	run := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "smile.dev/v1alpha1", "kind": "SmileRun",
		"metadata": map[string]any{"name": name, "annotations": map[string]any{operator.AnnotationSource: cm.Name}},
		"spec":     spec,
	}}
	if _, err := c.runs.Namespace(c.ns).Create(ctx, run, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// status reads a run's status.
func (c cluster) status(t *testing.T, name string) status.Status {
	t.Helper()
	var st status.Status
	run, err := c.runs.Namespace(c.ns).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(run.Object["status"])
	_ = json.Unmarshal(data, &st)
	return st
}

// wait waits until a run's status satisfies ok.
func (c cluster) wait(t *testing.T, name string, limit time.Duration, ok func(status.Status) bool) status.Status {
	t.Helper()
	deadline := time.Now().Add(limit)
	for {
		st := c.status(t, name)
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s: not as wanted after %s: phase %s, %s", name, limit, st.Phase, st.Message)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// startOperator runs the smile-operator binary on the test's namespace.
func (c cluster) startOperator(t *testing.T, bin, instance string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(bin, "--kubeconfig", c.kubeconfig, "--namespace", c.ns, "--instance", instance)
	logFile, err := os.Create(filepath.Join(t.TempDir(), instance+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_, _ = cmd.Process.Wait()
		if t.Failed() {
			out, _ := os.ReadFile(logFile.Name())
			t.Logf("operator %s's log:\n%s", instance, out)
		}
	})
	return cmd
}

// buildOperator builds this command.
func buildOperator(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "smile-operator")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func quickstartFiles(t *testing.T) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, f := range []string{"tutorial.md", "smile.json"} {
		data, err := os.ReadFile("../../examples/quickstart/" + f)
		if err != nil {
			t.Fatal(err)
		}
		files[f] = string(data)
	}
	return files
}

func hasGapAt(st status.Status, line int) bool {
	for _, g := range st.Gaps {
		if g.Location.LineNumber == line {
			return true
		}
	}
	return false
}
