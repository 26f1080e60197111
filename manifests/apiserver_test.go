package manifests

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// EnvAssets names the folder with etcd, kube-apiserver and kubectl that
// envtest starts (hack/k8s-build.sh lays it out; CI sets it).
const EnvAssets = "KUBEBUILDER_ASSETS"

// apiServer starts a real kube-apiserver and etcd (envtest) with the CRD of
// crd/ installed, or skips the test without the binaries (fails under
// CI=true: CI must run it).
func apiServer(t *testing.T) *rest.Config {
	t.Helper()
	assets := os.Getenv(EnvAssets)
	if assets == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set: CI must check the CRD on a real API server (hack/k8s-build.sh)", EnvAssets)
		}
		t.Skipf("no API server: set %s to the folder hack/k8s-build.sh makes (%s) to check the CRD on one", EnvAssets, "$HOME/.cache/smile-k8s/v1.37.2/assets")
	}
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{"crd"},
		ErrorIfCRDPathMissing: true,
		BinaryAssetsDirectory: assets,
	}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("start kube-apiserver and etcd from %s: %v", assets, err)
	}
	t.Cleanup(func() { _ = env.Stop() })
	return cfg
}

var smileRuns = schema.GroupVersionResource{Group: "smile.dev", Version: "v1alpha1", Resource: "smileruns"}

// The CRD installs on a real API server, which accepts every example
// manifest as a SmileRun, keeps spec and status apart (the status
// subresource), and prints `smile get`'s columns from the status.
func TestCRDOnARealAPIServer(t *testing.T) {
	cfg := apiServer(t)
	ctx := t.Context()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	runs := dyn.Resource(smileRuns).Namespace("default")
	examples, _ := filepath.Glob("examples/*.yaml")
	more, _ := filepath.Glob("examples/*/*/run.yaml")
	examples = append(examples, more...)
	if len(examples) < 5 {
		t.Fatalf("found %d example manifests", len(examples))
	}
	for _, path := range examples {
		for _, obj := range decodeAll(t, path) {
			if _, err := runs.Create(ctx, obj, metav1.CreateOptions{FieldValidation: "Strict"}); err != nil {
				t.Errorf("%s: the API server refuses SmileRun %s: %v", path, obj.GetName(), err)
			}
		}
	}

	run := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "smile.dev/v1alpha1", "kind": "SmileRun",
		"metadata": map[string]any{"name": "columns"},
		"spec":     map[string]any{"tutorial": "page.md"},
	}}
	created, err := runs.Create(ctx, run, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	created.Object["status"] = map[string]any{
		"phase": "RunningStudent", "iteration": int64(2),
		"gaps": []any{map[string]any{"id": int64(1)}, map[string]any{"id": int64(2)}},
	}
	_ = unstructured.SetNestedField(created.Object, "changed.md", "spec", "tutorial")
	if _, err := runs.UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := runs.Get(ctx, "columns", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tut, _, _ := unstructured.NestedString(got.Object, "spec", "tutorial"); tut != "page.md" {
		t.Errorf("a status update changed spec.tutorial to %q", tut)
	}
	if phase, _, _ := unstructured.NestedString(got.Object, "status", "phase"); phase != "RunningStudent" {
		t.Errorf("status.phase = %q", phase)
	}
	checkColumns(ctx, t, cfg)
}

// checkColumns reads the server's table of SmileRuns (as kubectl get does)
// and checks the run "columns"'s row.
func checkColumns(ctx context.Context, t *testing.T, cfg *rest.Config) {
	t.Helper()
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(cfg.Host, "/")+"/apis/smile.dev/v1alpha1/namespaces/default/smileruns/columns", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var table metav1.Table
	if err := json.NewDecoder(resp.Body).Decode(&table); err != nil {
		t.Fatalf("%s %s: %v", req.URL, resp.Status, err)
	}
	var names []string
	for _, col := range table.ColumnDefinitions {
		if col.Priority == 0 {
			names = append(names, col.Name)
		}
	}
	if want := []string{"Name", "Phase", "Iteration", "Gaps", "Age"}; !reflect.DeepEqual(names, want) {
		t.Errorf("columns %v, want %v", names, want)
	}
	if len(table.Rows) != 1 {
		t.Fatalf("%d rows", len(table.Rows))
	}
	cells := table.Rows[0].Cells
	if cells[0] != "columns" || cells[1] != "RunningStudent" || cells[2] != 2.0 || cells[3] != 2.0 {
		t.Errorf("row %v, want columns RunningStudent 2 2", cells)
	}
}

// decodeAll reads every document of a YAML file.
func decodeAll(t *testing.T, path string) []*unstructured.Unstructured {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*unstructured.Unstructured
	dec := yaml.NewYAMLOrJSONDecoder(f, 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if obj != nil {
			out = append(out, &unstructured.Unstructured{Object: obj})
		}
	}
}
