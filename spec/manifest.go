package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
	"sigs.k8s.io/yaml"
)

// The manifest's type, as kubectl would print it.
const (
	APIVersion = "smile.dev/v1alpha1"
	Kind       = "SmileRun"
	// Resource is the prefix of `-o name` output and of apply's lines.
	Resource = "smilerun.smile.dev"
)

// SmileRun is the manifest a user applies: which tutorial to check and how.
// Its spec may set any smile.json field (and wins over the file) plus
// `config`, the path of the smile.json to read.
type SmileRun struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   ObjectMeta     `json:"metadata"`
	Spec       map[string]any `json:"spec,omitempty"`
}

// ObjectMeta is the part of Kubernetes' metadata that SMILE uses.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// ParseManifest decodes a SmileRun from YAML or JSON and checks its shape.
// Unknown fields anywhere in spec are errors: a misspelt setting must not be
// dropped silently.
func ParseManifest(data []byte, source string) (*SmileRun, error) {
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid YAML: %w", source, trimYAMLPrefix(err))
	}
	if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
		return nil, fmt.Errorf("%s: empty manifest", source)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("%s: a manifest must be an object: %w", source, err)
	}
	var errs []error
	for k := range top {
		switch k {
		case "apiVersion", "kind", "metadata", "spec", "status":
		default:
			errs = append(errs, fmt.Errorf("unknown field %q", k))
		}
	}
	var run SmileRun
	dec := json.NewDecoder(bytes.NewReader(js))
	if err := dec.Decode(&run); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	if run.APIVersion != APIVersion {
		errs = append(errs, fmt.Errorf("apiVersion must be %q, got %q", APIVersion, run.APIVersion))
	}
	if run.Kind != Kind {
		errs = append(errs, fmt.Errorf("kind must be %q, got %q", Kind, run.Kind))
	}
	switch name := run.Metadata.Name; {
	case name == "":
		errs = append(errs, errors.New("metadata.name is required"))
	case len(name) > 63 || !dnsLabel.MatchString(name):
		errs = append(errs, fmt.Errorf("metadata.name %q must be a DNS label: lower-case letters, digits and '-', at most 63 characters", name))
	}
	errs = append(errs, unknownSpecFields(run.Spec)...)
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &run, nil
}

// LoadManifest reads and parses a manifest file.
func LoadManifest(path string) (*SmileRun, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	return ParseManifest(data, path)
}

// ConfigPath is the smile.json this run reads, relative to dir (the manifest's
// folder) unless absolute.
func (r *SmileRun) ConfigPath(dir string) string {
	p, _ := r.Spec["config"].(string)
	if p == "" {
		p = ConfigFileName
	}
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// Resolve merges the run's spec over smile.json over the defaults and checks
// the result.
func (r *SmileRun) Resolve(dir string) (Config, error) {
	cfg, err := LoadConfig(r.ConfigPath(dir))
	if err != nil {
		return cfg, err
	}
	overrides := make(map[string]any, len(r.Spec))
	for k, v := range r.Spec {
		if k != "config" {
			overrides[k] = v
		}
	}
	js, err := json.Marshal(overrides)
	if err != nil {
		return cfg, fmt.Errorf("encode spec of %s: %w", r.Metadata.Name, err)
	}
	if err := decodeJSONOver(&cfg, js, "spec"); err != nil {
		return cfg, fmt.Errorf("smilerun %s: %w", r.Metadata.Name, err)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("smilerun %s: %w", r.Metadata.Name, err)
	}
	return cfg, nil
}

// unknownSpecFields lists every spec key that is not a Config field (or
// `config`), with the nearest known name as a hint.
func unknownSpecFields(specMap map[string]any) []error {
	known := jsonFields(reflect.TypeOf(Config{}))
	known["config"] = nil
	var errs []error
	walkUnknown("spec", specMap, known, &errs)
	return errs
}

// fieldSet maps each JSON field name of a struct to its nested fields (nil for
// scalars), so the manifest check follows the real types.
type fieldSet map[string]fieldSet

func walkUnknown(prefix string, m map[string]any, known fieldSet, errs *[]error) {
	for _, k := range mapKeys(m) {
		sub, ok := known[k]
		if !ok {
			msg := fmt.Sprintf("unknown field %q", prefix+"."+k)
			if near := nearest(k, mapKeys(known)); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			*errs = append(*errs, errors.New(msg))
			continue
		}
		if child, isMap := m[k].(map[string]any); isMap && sub != nil {
			walkUnknown(prefix+"."+k, child, sub, errs)
		}
	}
}

func jsonFields(t reflect.Type) fieldSet {
	out := fieldSet{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name := strings.Split(f.Tag.Get("json"), ",")[0]
		if name == "" || name == "-" {
			continue
		}
		if f.Type.Kind() == reflect.Struct {
			out[name] = jsonFields(f.Type)
			continue
		}
		out[name] = nil
	}
	return out
}

func mapKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// nearest returns the candidate closest to word when it is close enough to be
// a likely typo, else "".
func nearest(word string, candidates []string) string {
	best, bestDist := "", 1<<30
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(strings.ToLower(word), strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	if bestDist <= max(2, len(word)/4) {
		return best
	}
	return ""
}

func trimYAMLPrefix(err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	return errors.New(msg)
}
