package spec

import "sigs.k8s.io/yaml"

// parseManifest reads a YAML manifest as spec/runfile does; spec's tests
// cannot import runfile (it imports spec), and writing manifests in YAML keeps
// them readable. A test-only import links nothing into the binaries.
func parseManifest(data []byte, source string) (*SmileRun, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	return DecodeManifest(js, source)
}
