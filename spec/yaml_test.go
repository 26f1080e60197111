package spec

import (
	"encoding/json"

	"go.yaml.in/yaml/v3"
)

// parseManifest reads a YAML manifest much as spec/runfile does; spec's tests
// cannot import runfile (it imports spec), and writing manifests in YAML keeps
// them readable. A test-only import links nothing into the binaries.
func parseManifest(data []byte, source string) (*SmileRun, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	js, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeManifest(js, source)
}
