package operator

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/runfile"
)

// AnnotationSource names the ConfigMap, in the SmileRun's namespace, that
// holds the run's files: the tutorial, smile.json and images, one key each
// (as `kubectl create configmap --from-file` makes it).
const AnnotationSource = "smile.dev/configmap"

// desired reads a SmileRun's files from its ConfigMap into a new folder and
// resolves the run there, as `smile apply` does from a run.yaml beside
// them. The caller removes the folder (Desired.Dir).
func desired(ctx context.Context, c client.Reader, run *unstructured.Unstructured) (*spec.Desired, error) {
	name := run.GetAnnotations()[AnnotationSource]
	if name == "" {
		return nil, fmt.Errorf("annotation %s names no ConfigMap with the run's files", AnnotationSource)
	}
	var cm corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: run.GetNamespace(), Name: name}, &cm); err != nil {
		return nil, fmt.Errorf("read ConfigMap %s: %w", name, err)
	}
	dir, err := os.MkdirTemp("", "smile-run-")
	if err != nil {
		return nil, err
	}
	write := func(key string, data []byte) error {
		if filepath.Base(key) != key || key == "." || key == ".." {
			return fmt.Errorf("ConfigMap %s: key %q is not a file name", name, key)
		}
		return os.WriteFile(filepath.Join(dir, key), data, 0o644)
	}
	for k, v := range cm.Data {
		if err = write(k, []byte(v)); err != nil {
			break
		}
	}
	for k, v := range cm.BinaryData {
		if err == nil {
			err = write(k, v)
		}
	}
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	d, err := resolve(run, dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return d, nil
}

// resolve reads the SmileRun's manifest (its spec as written, not its
// status) as `smile apply` reads a run.yaml in dir.
func resolve(run *unstructured.Unstructured, dir string) (*spec.Desired, error) {
	manifest := map[string]any{
		"apiVersion": run.GetAPIVersion(), "kind": run.GetKind(),
		"metadata": map[string]any{"name": run.GetName()},
		"spec":     run.Object["spec"],
	}
	data, err := json.Marshal(manifest)
	if err != nil {
		return nil, err
	}
	m, err := runfile.Parse(data, run.GetNamespace()+"/"+run.GetName())
	if err != nil {
		return nil, err
	}
	return spec.Resolve(m, dir)
}
