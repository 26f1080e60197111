// Package runfile reads a SmileRun manifest (run.yaml) from YAML or JSON. It
// is the only package of the spec side that imports a YAML library, so the
// in-container wrapper, which needs spec's settings but never a manifest,
// links none.
package runfile

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/smile-loop/smile/spec"
)

// Parse decodes a SmileRun from YAML or JSON and checks its shape; every
// error starts with source.
func Parse(data []byte, source string) (*spec.SmileRun, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid YAML: %w", source, trimYAMLPrefix(err))
	}
	return spec.DecodeManifest(js, source)
}

// Load reads and parses a manifest file.
func Load(path string) (*spec.SmileRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return Parse(data, path)
}

// trimYAMLPrefix drops the converter's own prefix: the user wrote YAML, and
// the message already says "invalid YAML".
func trimYAMLPrefix(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	return errors.New(msg)
}
