package manifests

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/spec"
)

const crdFile = "crd/smile.dev_smileruns.yaml"

func crdDocument(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(crdFile)
	if err != nil {
		t.Fatal(err)
	}
	js, err := runfile.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", crdFile, err)
	}
	var doc map[string]any
	if err := json.Unmarshal(js, &doc); err != nil {
		t.Fatalf("%s: %v", crdFile, err)
	}
	return doc
}

// crdVersion is the CRD's only version, checked to be v1alpha1.
type crdVersion struct {
	Name         string          `json:"name"`
	Served       bool            `json:"served"`
	Storage      bool            `json:"storage"`
	Subresources map[string]any  `json:"subresources"`
	Columns      []printerColumn `json:"additionalPrinterColumns"`
	Schema       struct {
		OpenAPIV3Schema map[string]any `json:"openAPIV3Schema"`
	} `json:"schema"`
}

type printerColumn struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	JSONPath string `json:"jsonPath"`
	Priority int    `json:"priority"`
}

type crd struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind       string   `json:"kind"`
			ListKind   string   `json:"listKind"`
			Plural     string   `json:"plural"`
			Singular   string   `json:"singular"`
			ShortNames []string `json:"shortNames"`
		} `json:"names"`
		Scope    string       `json:"scope"`
		Versions []crdVersion `json:"versions"`
	} `json:"spec"`
}

func loadCRD(t *testing.T) crd {
	t.Helper()
	var c crd
	if err := json.Unmarshal(mustJSON(t, crdDocument(t)), &c); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCRDIdentity(t *testing.T) {
	c := loadCRD(t)
	group, version, _ := strings.Cut(spec.APIVersion, "/")
	checks := []struct{ field, got, want string }{
		{"apiVersion", c.APIVersion, "apiextensions.k8s.io/v1"},
		{"kind", c.Kind, "CustomResourceDefinition"},
		{"metadata.name", c.Metadata.Name, "smileruns." + group},
		{"spec.group", c.Spec.Group, group},
		{"spec.names.kind", c.Spec.Names.Kind, spec.Kind},
		{"spec.names.listKind", c.Spec.Names.ListKind, spec.Kind + "List"},
		{"spec.names.plural", c.Spec.Names.Plural, "smileruns"},
		{"spec.names.singular", c.Spec.Names.Singular, "smilerun"},
		{"spec.names.shortNames", strings.Join(c.Spec.Names.ShortNames, ","), "sr"},
		{"spec.scope", c.Spec.Scope, "Namespaced"},
		// `smile get -o name` prints smilerun.smile.dev/NAME, as kubectl would.
		{"singular.group", c.Spec.Names.Singular + "." + c.Spec.Group, spec.Resource},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s = %q, want %q", ch.field, ch.got, ch.want)
		}
	}
	if len(c.Spec.Versions) != 1 {
		t.Fatalf("%d versions, want 1", len(c.Spec.Versions))
	}
	v := c.Spec.Versions[0]
	if v.Name != version || !v.Served || !v.Storage {
		t.Errorf("version = %s served=%v storage=%v, want %s served and storage", v.Name, v.Served, v.Storage, version)
	}
	if _, ok := v.Subresources["status"]; !ok {
		t.Error("no status subresource: the controller could not write status without touching spec")
	}
}

// The default columns are `smile get`'s: NAME PHASE ITERATION GAPS AGE.
func TestCRDPrinterColumns(t *testing.T) {
	v := loadCRD(t).Spec.Versions[0]
	var got []printerColumn
	for _, c := range v.Columns {
		if c.Priority == 0 {
			got = append(got, c)
		}
	}
	want := []printerColumn{
		{"Phase", "string", ".status.phase", 0},
		{"Iteration", "integer", ".status.iteration", 0},
		// Gap ids run 1..n (reconcile numbers them), so the last id is the count.
		{"Gaps", "integer", ".status.gaps[-1:].id", 0},
		{"Age", "date", ".metadata.creationTimestamp", 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("printer columns =\n  %+v\nwant\n  %+v", got, want)
	}
}

// TestCRDSchemaIsTheManifestSchema: the CRD's spec is smilerun.schema.json's
// spec with references inlined, minus what a structural schema may not say
// (additionalProperties next to properties) or what the API server would act
// on wrongly (default: it would write smile.json's defaults into every spec,
// where they would win over smile.json) and editor-only keywords.
func TestCRDSchemaIsTheManifestSchema(t *testing.T) {
	smile := rawSchema(t, SmileSchema)
	run := rawSchema(t, SmileRunSchema)
	root := loadCRD(t).Spec.Versions[0].Schema.OpenAPIV3Schema
	crdProps := properties(root)

	want := inline(t, smile, properties(run)["spec"])
	got := crdProps["spec"]
	if g, w := propertyPaths(got, ""), propertyPaths(want, ""); !slices.Equal(g, w) {
		t.Fatalf("CRD spec properties =\n  %q\nwant (%s)\n  %q", g, SmileRunSchemaFile, w)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CRD spec schema differs from %s:\n got: %s\nwant: %s", SmileRunSchemaFile, mustJSON(t, got), mustJSON(t, want))
	}

	name := properties(properties(run)["metadata"].(map[string]any))["name"].(map[string]any)
	crdName, _ := properties(crdProps["metadata"].(map[string]any))["name"].(map[string]any)
	for _, k := range []string{"type", "maxLength", "pattern"} {
		if crdName[k] != name[k] {
			t.Errorf("CRD metadata.name %s = %v, want %v", k, crdName[k], name[k])
		}
	}
	status, _ := crdProps["status"].(map[string]any)
	if status["type"] != "object" || status["x-kubernetes-preserve-unknown-fields"] != true {
		t.Errorf("CRD status = %v, want a free object (x-kubernetes-preserve-unknown-fields)", status)
	}
}

// inline resolves $refs into smile.schema.json and drops the keywords the
// CRD leaves out.
func inline(t *testing.T, smile map[string]any, v any) any {
	t.Helper()
	switch v := v.(type) {
	case map[string]any:
		node := deref(t, smile, v)
		out := map[string]any{}
		for k, x := range node {
			switch k {
			case "default", "$comment", "patternErrorMessage":
				continue
			case "additionalProperties":
				// true/false go (structural schemas forbid them next to
				// properties); a schema of a map's values stays.
				if sub, isSchema := x.(map[string]any); isSchema {
					out[k] = inline(t, smile, sub)
				}
				continue
			case "properties":
				props := map[string]any{}
				for name, p := range x.(map[string]any) {
					props[name] = inline(t, smile, p)
				}
				out[k] = props
			default:
				out[k] = inline(t, smile, x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = inline(t, smile, x)
		}
		return out
	}
	return v
}

func propertyPaths(v any, prefix string) []string {
	node, _ := v.(map[string]any)
	var out []string
	for name, p := range properties(node) {
		out = append(out, prefix+name)
		out = append(out, propertyPaths(p, prefix+name+".")...)
	}
	sort.Strings(out)
	return out
}

// TestCRDSchemaIsStructural checks the rules the API server enforces on a
// CRD's schema (apiextensions.k8s.io/v1 "structural schemas"), so that a
// broken CRD fails here rather than at kubectl apply.
func TestCRDSchemaIsStructural(t *testing.T) {
	root := loadCRD(t).Spec.Versions[0].Schema.OpenAPIV3Schema
	var problems []string
	structural(root, "openAPIV3Schema", false, &problems)
	for _, p := range problems {
		t.Error(p)
	}
	if len(properties(root)) == 0 {
		t.Error("openAPIV3Schema has no properties")
	}
	// The API server owns metadata's schema; a CRD may only restrict these.
	meta, _ := properties(root)["metadata"].(map[string]any)
	for name := range properties(meta) {
		if name != "name" && name != "generateName" {
			t.Errorf("openAPIV3Schema.metadata.%s: only name and generateName may be specified", name)
		}
	}
}

// Keywords a CRD schema may use (JSONSchemaProps); anything else is dropped or
// rejected by the API server.
var crdKeywords = []string{
	"description", "type", "format", "title", "default", "maximum", "exclusiveMaximum", "minimum",
	"exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems",
	"multipleOf", "enum", "maxProperties", "minProperties", "required", "items", "allOf", "oneOf",
	"anyOf", "not", "properties", "additionalProperties", "nullable", "example", "externalDocs",
	"x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
	"x-kubernetes-int-or-string", "x-kubernetes-list-map-keys", "x-kubernetes-list-type",
	"x-kubernetes-map-type", "x-kubernetes-validations",
}

func structural(node map[string]any, path string, inJunctor bool, problems *[]string) {
	add := func(msg string) { *problems = append(*problems, path+": "+msg) }
	for k := range node {
		if !slices.Contains(crdKeywords, k) {
			add("keyword " + k + " is not allowed in a CRD schema")
		}
	}
	_, hasType := node["type"]
	if inJunctor {
		// Inside anyOf/allOf/oneOf/not only value validations may appear.
		for _, k := range []string{"type", "description", "default", "additionalProperties", "nullable", "properties", "items"} {
			if _, ok := node[k]; ok {
				add(k + " is not allowed inside anyOf, allOf, oneOf or not")
			}
		}
	} else if !hasType && node["x-kubernetes-preserve-unknown-fields"] != true && node["x-kubernetes-int-or-string"] != true {
		add("no type")
	}
	if _, ok := node["additionalProperties"]; ok {
		if _, props := node["properties"]; props {
			add("additionalProperties next to properties")
		}
		if node["additionalProperties"] == false {
			add("additionalProperties: false")
		}
	}
	if path != "openAPIV3Schema" && strings.HasPrefix(path, "openAPIV3Schema.spec") {
		if _, ok := node["default"]; ok {
			add("default in spec would be written into every SmileRun and win over smile.json")
		}
	}
	for name, p := range properties(node) {
		if child, ok := p.(map[string]any); ok {
			structural(child, path+"."+name, false, problems)
		}
	}
	for _, k := range []string{"items", "additionalProperties"} {
		if child, ok := node[k].(map[string]any); ok {
			structural(child, path+"."+k, inJunctor, problems)
		}
	}
	if child, ok := node["not"].(map[string]any); ok {
		structural(child, path+".not", true, problems)
	}
	for _, k := range []string{"anyOf", "allOf", "oneOf"} {
		list, _ := node[k].([]any)
		for _, x := range list {
			if child, ok := x.(map[string]any); ok {
				structural(child, path+"."+k, true, problems)
			}
		}
	}
}
