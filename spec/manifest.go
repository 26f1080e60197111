package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
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

// DecodeManifest decodes a SmileRun from its JSON form and checks its shape.
// Reading YAML is spec/runfile's job, so that a binary which only needs the
// settings (the in-container wrapper) links no YAML library. Unknown fields
// anywhere in spec are errors: a misspelt setting must not be dropped
// silently. Every problem is reported, not just the first.
func DecodeManifest(js []byte, source string) (*SmileRun, error) {
	if bytes.Equal(bytes.TrimSpace(js), []byte("null")) {
		return nil, fmt.Errorf("%s: empty manifest", source)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js, &top); err != nil {
		return nil, fmt.Errorf("%s: a manifest must be an object with apiVersion, kind, metadata and spec", source)
	}
	var errs []error
	topFields := []string{"apiVersion", "kind", "metadata", "spec", "status"}
	for _, k := range mapKeys(top) {
		if !slices.Contains(topFields, k) {
			errs = append(errs, unknownField(k, Nearest(k, topFields)))
		}
	}
	var run SmileRun
	if err := json.Unmarshal(js, &run); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return nil, fmt.Errorf("%s: %s must be %s, got %s", source, typ.Field, describeGoType(typ.Type.Kind().String()), typ.Value)
		}
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
	if c, ok := run.Spec["config"]; ok {
		if p, isString := c.(string); !isString || strings.TrimSpace(p) == "" {
			errs = append(errs, errors.New("spec.config must be the path of a smile.json file"))
		}
	}
	// The spec's own values are checked now, over valid defaults, so that any
	// error is the manifest's; the merge with smile.json is checked in Resolve.
	cfg := DefaultConfig()
	if err := applySpec(&cfg, run.Spec); err != nil {
		errs = append(errs, err)
	} else if err := cfg.validate("spec."); err != nil {
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	return &run, nil
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
	path := r.ConfigPath(dir)
	if root := ProjectRoot(dir); !Within(root, path) {
		// Checked before reading: smile.json must not be a way to read a
		// file elsewhere on the machine.
		written, _ := r.Spec["config"].(string)
		return DefaultConfig(), fmt.Errorf("smilerun %s: spec.config: %q %w %s", r.Metadata.Name, written, ErrOutsideProject, root)
	}
	if _, named := r.Spec["config"]; named {
		// Only the implicit smile.json may be absent (E01): a file the
		// manifest names is one the user expects to be read.
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return DefaultConfig(), fmt.Errorf("smilerun %s: spec.config: %s not found", r.Metadata.Name, path)
		}
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		return cfg, err
	}
	if err := applySpec(&cfg, r.Spec); err != nil {
		return cfg, fmt.Errorf("smilerun %s: %w", r.Metadata.Name, err)
	}
	if err := cfg.Validate(); err != nil {
		return cfg, fmt.Errorf("smilerun %s: %w", r.Metadata.Name, err)
	}
	return cfg, nil
}

// applySpec decodes the spec's settings (everything but config) over cfg.
// Errors name the field as spec.<path>; there is no line to point at, since
// the YAML has become JSON by now.
func applySpec(cfg *Config, spec map[string]any) error {
	overrides := make(map[string]any, len(spec))
	for k, v := range spec {
		if k != "config" {
			overrides[k] = v
		}
	}
	if len(overrides) == 0 {
		return nil
	}
	js, err := json.Marshal(overrides)
	if err != nil {
		return fmt.Errorf("encode spec: %w", err)
	}
	if err := json.Unmarshal(js, cfg); err != nil {
		var typ *json.UnmarshalTypeError
		var enum *EnumError
		switch {
		case errors.As(err, &typ):
			return fmt.Errorf("spec.%s must be %s, got %s", typ.Field, describeGoType(typ.Type.Kind().String()), typ.Value)
		case errors.As(err, &enum):
			return &EnumError{Field: "spec." + enum.Field, Value: enum.Value, Allowed: enum.Allowed}
		}
		return fmt.Errorf("spec: %w", err)
	}
	return nil
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
			hint := Nearest(k, mapKeys(known))
			if hint == "" {
				hint = nestedHome(k, known)
			}
			*errs = append(*errs, unknownField(prefix+"."+k, hint))
			continue
		}
		if child, isMap := m[k].(map[string]any); isMap && sub != nil {
			walkUnknown(prefix+"."+k, child, sub, errs)
		}
	}
}

func unknownField(path, hint string) error {
	if hint != "" {
		return fmt.Errorf("unknown field %q (did you mean %q?)", path, hint)
	}
	return fmt.Errorf("unknown field %q", path)
}

// nestedHome finds a field written one level too high: patienceLevel for
// studentBehavior.patienceLevel.
func nestedHome(name string, known fieldSet) string {
	for _, parent := range mapKeys(known) {
		if _, ok := known[parent][name]; ok {
			return parent + "." + name
		}
	}
	return ""
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

// Nearest returns the candidate closest to word when it is close enough to
// be a likely typo (or word is the start of it, like keepOnFail), else "":
// the did-you-mean of every key SMILE reads.
func Nearest(word string, candidates []string) string {
	lw := strings.ToLower(word)
	best, bestDist := "", 1<<30
	for _, c := range candidates {
		d := levenshtein.ComputeDistance(lw, strings.ToLower(c))
		if d < bestDist {
			best, bestDist = c, d
		}
	}
	if best != "" && bestDist <= max(2, len(word)/4) {
		return best
	}
	if len(lw) >= 4 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), lw) {
				return c
			}
		}
	}
	return ""
}
