package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"slices"
	"sort"
	"strings"
)

// Source says where a setting in force came from.
type Source string

// Where a setting can come from; the manifest wins over smile.json, which
// wins over the defaults.
const (
	SourceDefault  Source = "default"
	SourceConfig   Source = "smile.json"
	SourceManifest Source = "manifest"
)

// Setting is one setting in force: its dotted JSON path, its value (as JSON
// would print it) and where it came from.
type Setting struct {
	Path   string
	Value  string
	Source Source
	// Ignored says why the setting does not do what it says ("" when it
	// does): see Config.Warnings.
	Ignored string
}

// modelSettings are the settings of the model-backed providers (their top
// level keys): the literal learner calls no model and reads none of them.
var modelSettings = []string{"models", "maxTurns", "invocationTimeoutSeconds", "budgetUsd", "prices", "openai"}

// unusedBecause says why the run's provider never reads a setting ("" when
// it does): the literal learner no model setting, the others no openai.*.
func (c Config) unusedBecause(path string) string {
	head, _, _ := strings.Cut(path, ".")
	switch {
	case c.LLMProvider == ProviderLiteral && slices.Contains(modelSettings, head):
		return "llmProvider literal calls no model"
	case head == "openai" && c.LLMProvider != ProviderOpenAI:
		return fmt.Sprintf("only llmProvider openai reads it, not %s", c.LLMProvider)
	}
	return ""
}

// Settings lists every setting of the run in force, with its source, sorted
// by path: what `describe` shows. A default the run's provider never reads
// (a model's settings for literal) is left out; one set anyway is listed as
// ignored, with why.
func (r *SmileRun) Settings(dir string) ([]Setting, error) {
	cfg, err := r.Resolve(dir)
	if err != nil {
		return nil, err
	}
	fromConfig, err := readJSONObject(r.ConfigPath(dir))
	if err != nil {
		return nil, err
	}
	var out []Setting
	var walk func(prefix string, v reflect.Value)
	walk = func(prefix string, v reflect.Value) {
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			name := strings.Split(t.Field(i).Tag.Get("json"), ",")[0]
			if name == "" || name == "-" {
				continue
			}
			path := strings.TrimPrefix(prefix+"."+name, ".")
			if f := v.Field(i); f.Kind() == reflect.Struct {
				walk(path, f)
				continue
			}
			value, _ := json.Marshal(v.Field(i).Interface())
			src := SourceDefault
			switch {
			case has(r.Spec, path):
				src = SourceManifest
			case has(fromConfig, path):
				src = SourceConfig
			}
			ignored := cfg.ignoredBecause(path)
			if unused := cfg.unusedBecause(path); unused != "" {
				if src == SourceDefault {
					continue // a default the provider never reads says nothing
				}
				ignored = unused
			}
			out = append(out, Setting{Path: path, Value: string(value), Source: src, Ignored: ignored})
		}
	}
	walk("", reflect.ValueOf(cfg))
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// ConfigWarnings lists the keys of the smile.json at path that SMILE does not
// know: they are ignored (seed E03), but a typo should not go unnoticed, so
// each gets a warning with the nearest known name.
func ConfigWarnings(path string) ([]string, error) {
	obj, err := readJSONObject(path)
	if err != nil || obj == nil {
		return nil, err
	}
	var unknown []error
	walkUnknown("", obj, jsonFields(reflect.TypeOf(Config{})), &unknown)
	warnings := make([]string, 0, len(unknown))
	for _, u := range unknown {
		msg := strings.Replace(u.Error(), `field ".`, `field "`, 1)
		warnings = append(warnings, fmt.Sprintf("%s: %s is ignored", path, msg))
	}
	return warnings, nil
}

// readJSONObject reads a JSON object; a missing file is an empty one (E01).
func readJSONObject(path string) (map[string]any, error) {
	data, err := ReadRegularFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("read config %s: %w", path, err)
	}
	return obj, nil
}

// has reports whether a dotted path is set in a decoded JSON/YAML object.
func has(m map[string]any, path string) bool {
	head, rest, nested := strings.Cut(path, ".")
	v, ok := m[head]
	if !ok || !nested {
		return ok
	}
	child, isMap := v.(map[string]any)
	return isMap && has(child, rest)
}
