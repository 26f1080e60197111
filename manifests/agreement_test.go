package manifests

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/distribution/reference"

	"github.com/smile-loop/smile/spec"
)

// The schemas and the Go code must give the same answer for every document
// below: an editor that shows no error for a file SMILE then rejects (or the
// reverse) is worse than no schema.
//
// Known differences, all outside what a person writes by hand, and so not
// tested: SMILE reads null as "keep the default" where the schemas want a
// value; it rejects the numerals 1.0 and 1e3 for an integer in smile.json,
// which JSON Schema cannot tell from 1 and 1000 (in YAML they become 1 and 1000
// before SMILE sees them); it trims Unicode spaces around enum values where
// RE2's \s knows only ASCII ones; and it rejects image names longer than 255
// characters.

// agree reports a disagreement between the schema and the Go code on doc.
func agree(t *testing.T, what string, doc []byte, schemaErr, goErr error, wantValid bool) {
	t.Helper()
	if (schemaErr == nil) != wantValid {
		t.Errorf("%s: schema error = %v, want valid=%v\n%s", what, schemaErr, wantValid, doc)
	}
	if (goErr == nil) != wantValid {
		t.Errorf("%s: Go error = %v, want valid=%v\n%s", what, goErr, wantValid, doc)
	}
}

const manifestHead = "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: demo\n"

func TestManifestsAgree(t *testing.T) {
	s := compileSchemas(t)
	for _, tt := range []struct {
		name  string
		doc   string
		valid bool
	}{
		{"no spec", manifestHead, true},
		{"empty spec", manifestHead + "spec: {}\n", true},
		{"status is ignored", manifestHead + "spec: {}\nstatus:\n  phase: Completed\n", true},
		{"labels and annotations", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: demo\n  labels: {team: docs}\n  annotations: {a: b}\n", true},
		{"other Kubernetes metadata", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: demo\n  namespace: default\n  uid: 1234\n", true},
		{"63-character name", strings.Replace(manifestHead, "demo", strings.Repeat("a", 63), 1), true},
		{"one-character name", strings.Replace(manifestHead, "demo", "a", 1), true},
		{"mixed-case enums", manifestHead + "spec:\n  llmProvider: OpenAI\n  studentBehavior:\n    patienceLevel: HIGH\n", true},
		{"spec.config", manifestHead + "spec:\n  config: ../shared/smile.json\n", true},
		{"JSON manifest", `{"apiVersion":"smile.dev/v1alpha1","kind":"SmileRun","metadata":{"name":"demo"},"spec":{"maxIterations":2}}`, true},

		{"wrong apiVersion", strings.Replace(manifestHead, "smile.dev/v1alpha1", "smile.dev/v1", 1), false},
		{"missing apiVersion", strings.Replace(manifestHead, "apiVersion: smile.dev/v1alpha1\n", "", 1), false},
		{"wrong kind", strings.Replace(manifestHead, "SmileRun", "Deployment", 1), false},
		{"missing metadata", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nspec: {}\n", false},
		{"missing name", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  labels: {a: b}\n", false},
		{"upper-case name", strings.Replace(manifestHead, "demo", "Demo", 1), false},
		{"name with a dot", strings.Replace(manifestHead, "demo", "demo.v2", 1), false},
		{"name starting with a dash", strings.Replace(manifestHead, "demo", "-demo", 1), false},
		{"name ending with a dash", strings.Replace(manifestHead, "demo", "demo-", 1), false},
		{"64-character name", strings.Replace(manifestHead, "demo", strings.Repeat("a", 64), 1), false},
		{"name not a string", strings.Replace(manifestHead, "demo", "[demo]", 1), false},
		{"label value not a string", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: demo\n  labels: {a: {b: c}}\n", false},
		{"unknown top-level field", manifestHead + "specs: {}\n", false},
		{"unknown spec field", manifestHead + "spec:\n  maxIteration: 3\n", false},
		{"setting one level too high", manifestHead + "spec:\n  patienceLevel: low\n", false},
		{"unknown studentBehavior field", manifestHead + "spec:\n  studentBehavior:\n    patience: low\n", false},
		{"unknown container field", manifestHead + "spec:\n  container:\n    keepOnFail: true\n", false},
		{"spec not an object", manifestHead + "spec: [tutorial.md]\n", false},
		{"maxIterations 0", manifestHead + "spec:\n  maxIterations: 0\n", false},
		{"invalid llmProvider", manifestHead + "spec:\n  llmProvider: gpt-4\n", false},
		{"invalid patienceLevel", manifestHead + "spec:\n  studentBehavior:\n    patienceLevel: extreme\n", false},
		{"blank spec.config", manifestHead + "spec:\n  config: \"  \"\n", false},
		{"spec.config not a string", manifestHead + "spec:\n  config: {path: smile.json}\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte(tt.doc)
			_, goErr := runfile.Parse(doc, "run.yaml")
			agree(t, "manifest", doc, validate(s.run, doc), goErr, tt.valid)
		})
	}
}

func TestConfigFilesAgree(t *testing.T) {
	s := compileSchemas(t)
	for _, tt := range []struct {
		name  string
		doc   string
		valid bool
	}{
		{"empty object", `{}`, true},
		{"unknown root field (forward compatibility)", `{"futureSetting": {"x": 1}}`, true},
		{"unknown studentBehavior field", `{"studentBehavior": {"futureTrigger": true}}`, true},
		{"unknown container field", `{"container": {"keepOnCancel": true}}`, true},
		{"editor's $schema", `{"$schema": "https://example.com/smile.schema.json"}`, true},
		{"array", `[]`, false},
		{"string", `"tutorial.md"`, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := []byte(tt.doc)
			agree(t, "smile.json", doc, validate(s.smile, doc), loadConfig(t, doc), tt.valid)
		})
	}
}

// TestSettingsAgree tries valid and invalid values for every field of
// spec.Config, found by reflection, both in smile.json and in a manifest's
// spec: a new field is covered without touching this test.
func TestSettingsAgree(t *testing.T) {
	s := compileSchemas(t)
	leaves := settingFields(t, reflect.TypeFor[spec.Config](), nil)
	if len(leaves) < 14 {
		t.Fatalf("found %d settings, want the seed's 14 at least", len(leaves))
	}
	for _, f := range leaves {
		for _, v := range f.values {
			name := fmt.Sprintf("%s=%s", strings.Join(f.path, "."), mustJSON(t, v.value))
			t.Run(name, func(t *testing.T) {
				cfg := mustJSON(t, nest(f.path, v.value))
				agree(t, "smile.json", cfg, validate(s.smile, cfg), loadConfig(t, cfg), v.valid)

				run := mustJSON(t, map[string]any{
					"apiVersion": spec.APIVersion, "kind": spec.Kind,
					"metadata": map[string]any{"name": "demo"},
					"spec":     nest(f.path, v.value),
				})
				_, goErr := runfile.Parse(run, "run.yaml")
				agree(t, "manifest", run, validate(s.run, run), goErr, v.valid)
			})
		}
	}
}

type trial struct {
	value any
	valid bool
}

type setting struct {
	path   []string
	values []trial
}

// settingFields lists the leaf fields of a Config type with values to try,
// chosen by the field's Go type.
func settingFields(t *testing.T, typ reflect.Type, prefix []string) []setting {
	t.Helper()
	var out []setting
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		path := append(append([]string(nil), prefix...), name)
		wrongType := []trial{{[]any{}, false}}
		switch {
		case f.Type.Kind() == reflect.Struct:
			out = append(out, setting{path, []trial{{map[string]any{}, true}, {"yes", false}, {5, false}}})
			out = append(out, settingFields(t, f.Type, path)...)
		case f.Type.Kind() == reflect.Int:
			// 1<<23 is above every integer setting's upper bound.
			out = append(out, setting{path, append(wrongType,
				trial{1, true}, trial{600, true}, trial{0, false}, trial{-1, false}, trial{2.5, false}, trial{"3", false}, trial{true, false},
				trial{1 << 23, false})})
		case name == "memory":
			// The schema checks the form only; the bounds (6m to 1t) are SMILE's.
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"2g", true}, trial{"512m", true}, trial{"512MiB", true}, trial{"1.5G", true}, trial{"8000000", true},
				trial{"lots", false}, trial{"", false}, trial{"-1g", false}, trial{"2 g", false}, trial{"1e9", false})})
		case name == "checkpointDisk":
			// The schema checks the form only; the bound (1t) is SMILE's.
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"2g", true}, trial{"500m", true}, trial{"1b", true}, trial{"10GiB", true},
				trial{"lots", false}, trial{"", false}, trial{"-1g", false}, trial{"2 g", false})})
		case name == "cpus":
			out = append(out, setting{path, append(wrongType,
				trial{1, true}, trial{1.5, true}, trial{0.01, true}, trial{1024, true}, trial{0.001, false},
				trial{0, false}, trial{-1, false}, trial{1025, false}, trial{"2", false}, trial{true, false})})
		case f.Type.Kind() == reflect.Bool:
			out = append(out, setting{path, append(wrongType,
				trial{true, true}, trial{false, true}, trial{"true", false}, trial{1, false})})
		case f.Type.Kind() == reflect.String && f.Type != reflect.TypeFor[string]():
			// A named string type is an enum: any letter case, spaces around.
			values := append(wrongType, trial{"", false}, trial{3, false})
			if allowed := allowedValues(t, f.Type); !slices.Contains(allowed, "none") {
				values = append(values, trial{"none", false})
			} else {
				values = append(values, trial{"nothing", false})
			}
			for _, a := range allowedValues(t, f.Type) {
				values = append(values, trial{a, true}, trial{strings.ToUpper(a), true},
					trial{strings.ToUpper(a[:1]) + a[1:], true}, trial{" " + a + " ", true}, trial{a + "x", false})
			}
			out = append(out, setting{path, values})
		case name == "containerImage":
			values := append(wrongType, trial{5, false})
			for _, ref := range imageRefs {
				_, err := reference.ParseNormalizedNamed(ref)
				values = append(values, trial{ref, err == nil})
			}
			out = append(out, setting{path, values})
		case name == "baseUrl":
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"http://localhost:11434/v1", true}, trial{"https://api.example.com/v1", true}, trial{"http://10.0.0.2:8000", true},
				trial{"x", false}, trial{"", false}, trial{"localhost:11434/v1", false}, trial{"ftp://host/v1", false},
				trial{"http://", false}, trial{"http://host/a b", false}, trial{"HTTP://host", false})})
		case name == "apiKeyEnv":
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"OPENAI_API_KEY", true}, trial{"_key2", true}, trial{"", false}, trial{"2KEY", false},
				trial{"MY-KEY", false}, trial{"$OPENAI_API_KEY", false}, trial{" KEY", false})})
		case f.Type.Kind() == reflect.String && len(prefix) == 1 && prefix[0] == "models":
			// A model may be left empty (the provider's default).
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"", true}, trial{"gpt-5", true}, trial{"qwen3-coder:30b", true}, trial{"models/gemini-2.5-pro", true},
				trial{" gpt-5", false}, trial{"gpt 5", false}, trial{"gpt-5\n", false})})
		case len(prefix) == 1 && prefix[0] == "container" && name == "user":
			// Empty is the default (root); else a user name or UID[:GID].
			out = append(out, setting{path, append(wrongType, trial{5, false},
				trial{"", true}, trial{"nobody", true}, trial{"student_1", true}, trial{"1000", true}, trial{"1000:1000", true},
				trial{"Nobody", false}, trial{"docs/a b", false}, trial{"1000:", false}, trial{" nobody", false}, trial{"root;id", false})})
		case len(prefix) == 0 && (name == "stateFile" || name == "outputDir"):
			// Empty is the default: the run's own folder in its workspace.
			out = append(out, setting{path, append(wrongType,
				trial{"x", true}, trial{"docs/a b", true}, trial{"", true}, trial{"  ", false}, trial{false, false})})
		case f.Type.Kind() == reflect.String:
			out = append(out, setting{path, append(wrongType,
				trial{"x", true}, trial{"docs/a b.md", true}, trial{"", false}, trial{"  ", false}, trial{false, false})})
		case name == "minCoverage":
			// A share of the page's code blocks: 0 (off) to 1.
			out = append(out, setting{path, append(wrongType,
				trial{0, true}, trial{0.5, true}, trial{1, true}, trial{1.01, false}, trial{2.5, false}, trial{-0.01, false},
				trial{"0.5", false}, trial{true, false})})
		case f.Type.Kind() == reflect.Float64:
			out = append(out, setting{path, append(wrongType,
				trial{0, true}, trial{2.5, true}, trial{100, true}, trial{-1, false}, trial{-0.01, false}, trial{"3", false}, trial{true, false})})
		case name == "runners":
			out = append(out, setting{path, append(wrongType,
				trial{map[string]any{}, true}, trial{map[string]any{"sql": "sqlite3 shop.db", "python": "python3"}, true},
				trial{map[string]any{"sql": ""}, false}, trial{map[string]any{"sql": "  "}, false},
				trial{map[string]any{"sql": 5}, false}, trial{"sqlite3", false})})
		case name == "setup":
			out = append(out, setting{path, []trial{
				{[]any{}, true}, {[]any{"mkdir -p data", "touch data/ready"}, true},
				{[]any{""}, false}, {[]any{" "}, false}, {[]any{5}, false}, {"mkdir -p data", false}, {map[string]any{}, false}}})
		case f.Type.Kind() == reflect.Map:
			price := func(in, out any) map[string]any {
				return map[string]any{"inputPerMillion": in, "outputPerMillion": out}
			}
			out = append(out, setting{path, append(wrongType,
				trial{map[string]any{}, true},
				trial{map[string]any{"gpt-5": price(1.25, 10), "qwen3-coder": price(0, 0)}, true},
				trial{map[string]any{"gpt-5": map[string]any{"inputPerMillion": 1}}, true},
				trial{map[string]any{"gpt-5": price(-1, 10)}, false},
				trial{map[string]any{"gpt-5": price(1, "10")}, false},
				trial{map[string]any{"gpt-5": 5}, false},
				trial{"gpt-5", false})})
		default:
			t.Fatalf("%s: no trial values for Go kind %s", strings.Join(path, "."), f.Type.Kind())
		}
	}
	return out
}

// imageRefs are tried against reference.ParseNormalizedNamed, which SMILE
// uses, and the schema's pattern; the test expects what the Go library says.
var imageRefs = []string{
	"smile-base:latest",
	"busybox",
	"library/debian:bookworm-slim",
	"ghcr.io/smile-loop/smile-base:1.2.3",
	"localhost:5000/team/image",
	"[::1]:5000/image:tag",
	"registry.example.com/a/b/c:v1_2.3-rc.1",
	"image@sha256:" + strings.Repeat("ab", 32),
	"image:tag@sha256:" + strings.Repeat("0f", 32),
	"My.Registry.io/image",
	"",
	" ",
	"Smile-Base:latest",
	"smile base",
	"image:",
	":latest",
	"image:" + strings.Repeat("t", 129),
	"-image",
	"image@sha256:abc",
	"https://ghcr.io/image",
	strings.Repeat("ab", 32),
}

func TestImagePatternIsTheReferenceGrammar(t *testing.T) {
	smile := rawSchema(t, SmileSchema)
	def := smile["$defs"].(map[string]any)["containerImage"].(map[string]any)
	// [[:xdigit:]] is RE2-only; the rest of the grammar is valid ECMA-262.
	want := strings.ReplaceAll(reference.ReferenceRegexp.String(), "[[:xdigit:]]", "[a-fA-F0-9]")
	if got := def["pattern"]; got != want {
		t.Errorf("containerImage pattern =\n  %v\nwant (github.com/distribution/reference)\n  %s", got, want)
	}
	valid := 0
	for _, ref := range imageRefs {
		if _, err := reference.ParseNormalizedNamed(ref); err == nil {
			valid++
		}
	}
	if valid == 0 || valid == len(imageRefs) {
		t.Errorf("%d of %d image references are valid: the table must have both kinds", valid, len(imageRefs))
	}
}

// nest puts v at path: nest([a b], 1) = {"a": {"b": 1}}.
func nest(path []string, v any) map[string]any {
	if len(path) == 1 {
		return map[string]any{path[0]: v}
	}
	return map[string]any{path[0]: nest(path[1:], v)}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
