package runfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/smile-loop/smile/spec"
)

// YAMLToJSON converts a YAML document (the first of data) to JSON, so that
// types with JSON tags decode YAML with encoding/json's rules.
func YAMLToJSON(data []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return json.Marshal(jsonValue(v))
}

// JSONToYAML writes a JSON value as YAML (kubectl's -o yaml: keys sorted,
// two-space indent).
func JSONToYAML(js []byte) ([]byte, error) {
	var v any
	if err := json.Unmarshal(js, &v); err != nil {
		return nil, fmt.Errorf("JSON to YAML: %w", err)
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// UnmarshalYAML decodes YAML into v through its JSON tags; with strict,
// fields v does not have are an error.
func UnmarshalYAML(data []byte, v any, strict bool) error {
	js, err := YAMLToJSON(data)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	if strict {
		dec.DisallowUnknownFields()
	}
	return dec.Decode(v)
}

// IsManifest says whether data looks like SmileRun manifests: a YAML or JSON
// document with kind SmileRun. Other files a folder holds (smile.json, CI
// and pre-commit configurations) do not, nor does text that is not YAML.
func IsManifest(data []byte) bool {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc struct {
			Kind string `yaml:"kind"`
		}
		if err := dec.Decode(&doc); err != nil {
			// A document that is no mapping says nothing; stop at the end
			// or at a syntax error.
			var te *yaml.TypeError
			if errors.As(err, &te) {
				continue
			}
			return false
		}
		if doc.Kind == spec.Kind {
			return true
		}
	}
}
