package manifests

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec"
)

// rawSchema is a schema file as plain JSON values, for the drift checks.
func rawSchema(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// deref follows a "$ref" into smile.schema.json's $defs, from either file.
func deref(t *testing.T, smile, node map[string]any) map[string]any {
	t.Helper()
	ref, ok := node["$ref"].(string)
	if !ok {
		return node
	}
	_, name, ok := strings.Cut(ref, "#/$defs/")
	if !ok || (!strings.HasPrefix(ref, "#") && !strings.HasPrefix(ref, SmileSchemaFile+"#")) {
		t.Fatalf("$ref %q: want #/$defs/NAME or %s#/$defs/NAME", ref, SmileSchemaFile)
	}
	def, ok := smile["$defs"].(map[string]any)[name].(map[string]any)
	if !ok {
		t.Fatalf("$ref %q: no such definition", ref)
	}
	return def
}

func properties(node map[string]any) map[string]any {
	p, _ := node["properties"].(map[string]any)
	return p
}

// jsonType is the JSON Schema type of a Go field.
func jsonType(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "string"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Bool:
		return "boolean"
	case reflect.Float64:
		return "number"
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice:
		return "array"
	}
	return "unsupported Go kind " + k.String()
}

// TestSchemasFollowConfigType walks spec.Config by its json tags: every field
// must be a property of both schemas (smile.json's and the manifest's spec)
// with the right type and spec.DefaultConfig's default, and every property
// must be a field.
func TestSchemasFollowConfigType(t *testing.T) {
	smile := rawSchema(t, SmileSchema)
	run := rawSchema(t, SmileRunSchema)
	runSpec := properties(run)["spec"].(map[string]any)
	var defaults any
	js, _ := json.Marshal(spec.DefaultConfig())
	if err := json.Unmarshal(js, &defaults); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		node   map[string]any
		extra  []string // properties that are not Config fields
		closed bool     // additionalProperties false (the manifest) or true (smile.json)
	}{
		{SmileSchemaFile, smile, []string{"$schema"}, false},
		{SmileRunSchemaFile + " spec", runSpec, []string{"config"}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			compareFields(t, smile, tt.node, reflect.TypeFor[spec.Config](), defaults, "", tt.extra, tt.closed)
		})
	}
}

func compareFields(t *testing.T, smile, node map[string]any, typ reflect.Type, defaults any, prefix string, extra []string, closed bool) {
	t.Helper()
	if got := node["type"]; got != "object" {
		t.Errorf("%s: type = %v, want object", prefix, got)
	}
	// The seed: smile.json ignores unknown fields (forward compatibility); the
	// manifest reports them.
	if got, want := node["additionalProperties"], !closed; got != want {
		t.Errorf("%s: additionalProperties = %v, want %v", prefix, got, want)
	}
	props := properties(node)
	seen := map[string]bool{}
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		path := prefix + name
		seen[name] = true
		raw, ok := props[name].(map[string]any)
		if !ok {
			t.Errorf("%s: Config field %s is not in the schema", path, f.Name)
			continue
		}
		prop := deref(t, smile, raw)
		if got, want := prop["type"], jsonType(f.Type.Kind()); got != want {
			t.Errorf("%s: type = %v, want %s", path, got, want)
		}
		def := defaults.(map[string]any)[name]
		if f.Type.Kind() == reflect.Struct {
			compareFields(t, smile, prop, f.Type, def, path+".", nil, closed)
			continue
		}
		if got, ok := prop["default"]; !ok || !reflect.DeepEqual(got, def) {
			t.Errorf("%s: default = %v, want %v (spec.DefaultConfig)", path, got, def)
		}
		// Hover text in editors and kubectl explain show only the description.
		wantSuffix, _ := json.Marshal(def)
		if desc, _ := prop["description"].(string); !strings.HasSuffix(desc, " Default: "+string(wantSuffix)+".") {
			t.Errorf("%s: description %q does not end with the default %s", path, desc, wantSuffix)
		}
		switch f.Type.Kind() {
		case reflect.Int:
			if got := prop["minimum"]; got != 1.0 {
				t.Errorf("%s: minimum = %v, want 1 (spec.Config.Validate wants a positive integer)", path, got)
			}
		case reflect.Float64:
			if path == "container.cpus" {
				if got := prop["minimum"]; got != spec.MinContainerCPUs {
					t.Errorf("%s: minimum = %v, want %v (Docker's smallest CPU share)", path, got, spec.MinContainerCPUs)
				}
			} else if got := prop["minimum"]; got != 0.0 {
				t.Errorf("%s: minimum = %v, want 0 (spec.Config.Validate rejects negative amounts)", path, got)
			}
		case reflect.Map:
			compareMapValues(t, smile, prop, f.Type.Elem(), path)
		}
	}
	for name := range props {
		if !seen[name] && !slices.Contains(extra, name) {
			t.Errorf("%s%s: in the schema but not a field of %s", prefix, name, typ)
		}
	}
}

// compareMapValues checks the schema of a map's values (the price table's
// entries): an object with every field of the Go type, as a non-negative
// number.
func compareMapValues(t *testing.T, smile, prop map[string]any, typ reflect.Type, path string) {
	t.Helper()
	raw, ok := prop["additionalProperties"].(map[string]any)
	if !ok {
		t.Errorf("%s: additionalProperties = %v, want the schema of the values", path, prop["additionalProperties"])
		return
	}
	values := deref(t, smile, raw)
	if typ.Kind() != reflect.Struct { // runners: the values are plain strings
		if got, want := values["type"], jsonType(typ.Kind()); got != want {
			t.Errorf("%s.*: type = %v, want %s", path, got, want)
		}
		return
	}
	if got := values["type"]; got != "object" {
		t.Errorf("%s.*: type = %v, want object", path, got)
	}
	props := properties(values)
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		p, ok := props[name].(map[string]any)
		if !ok {
			t.Errorf("%s.*.%s: field of %s is not in the schema", path, name, typ)
			continue
		}
		if p["type"] != jsonType(typ.Field(i).Type.Kind()) || p["minimum"] != 0.0 {
			t.Errorf("%s.*.%s: type %v minimum %v, want %s minimum 0", path, name, p["type"], p["minimum"], jsonType(typ.Field(i).Type.Kind()))
		}
	}
	if len(props) != typ.NumField() {
		t.Errorf("%s.*: %d properties, want the %d fields of %s", path, len(props), typ.NumField(), typ)
	}
}

// caseInsensitive is the pattern that accepts names in any letter case with
// surrounding spaces, as spec's enums decode them. ECMA-262, which editors
// use, has no (?i) flag inside a pattern, so each letter becomes a class.
func caseInsensitive(names []string) string {
	alts := make([]string, len(names))
	for i, n := range names {
		var b strings.Builder
		for _, r := range n {
			if lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r)); lo != up {
				fmt.Fprintf(&b, "[%s%s]", up, lo)
			} else {
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		alts[i] = b.String()
	}
	return `^\s*(?:` + strings.Join(alts, "|") + `)\s*$`
}

// allowedValues asks a Go enum type for its values: decoding an invalid one
// fails with an EnumError that lists them.
func allowedValues(t *testing.T, typ reflect.Type) []string {
	t.Helper()
	err := json.Unmarshal([]byte(`"not-a-value"`), reflect.New(typ).Interface())
	enum, ok := err.(*spec.EnumError)
	if !ok {
		t.Fatalf("%s: decoding an invalid value returned %v, want *spec.EnumError", typ, err)
	}
	return enum.Allowed
}

func TestEnumsMatchGoTypes(t *testing.T) {
	smile := rawSchema(t, SmileSchema)
	defs := smile["$defs"].(map[string]any)
	for _, tt := range []struct {
		def string
		typ reflect.Type
	}{
		{"llmProvider", reflect.TypeFor[spec.Provider]()},
		{"patienceLevel", reflect.TypeFor[spec.Patience]()},
		{"studentNetwork", reflect.TypeFor[spec.Network]()},
		{"resume", reflect.TypeFor[spec.Resume]()},
	} {
		t.Run(tt.def, func(t *testing.T) {
			want := allowedValues(t, tt.typ)
			anyOf, _ := defs[tt.def].(map[string]any)["anyOf"].([]any)
			if len(anyOf) != 2 {
				t.Fatalf("anyOf = %v, want [{enum}, {pattern}]", anyOf)
			}
			var got []string
			for _, v := range anyOf[0].(map[string]any)["enum"].([]any) {
				got = append(got, v.(string))
			}
			if !slices.Equal(got, want) {
				t.Errorf("enum = %q, want %q", got, want)
			}
			if got, want := anyOf[1].(map[string]any)["pattern"], caseInsensitive(want); got != want {
				t.Errorf("pattern =\n  %v\nwant\n  %s", got, want)
			}
		})
	}
}

// TestPatternsArePortable: editors evaluate "pattern" as ECMA-262, the Go
// validators (jsonschema, the Kubernetes API server) as RE2. Only the syntax
// both share may be used.
func TestPatternsArePortable(t *testing.T) {
	crd := crdDocument(t)
	docs := map[string]any{SmileSchemaFile: rawSchema(t, SmileSchema), SmileRunSchemaFile: rawSchema(t, SmileRunSchema), crdFile: crd}
	re2Only := []string{"(?i", "(?s", "(?m", "(?U", "(?P<", "[[:", `\A`, `\z`, `\Q`}
	n := 0
	for name, doc := range docs {
		for _, p := range patterns(doc) {
			n++
			for _, bad := range re2Only {
				if strings.Contains(p, bad) {
					t.Errorf("%s: pattern %q uses %q, which ECMA-262 does not have", name, p, bad)
				}
			}
			if _, err := regexp.Compile(p); err != nil {
				t.Errorf("%s: pattern %q: %v", name, p, err)
			}
		}
	}
	if n == 0 {
		t.Fatal("found no patterns")
	}
}

func patterns(v any) []string {
	var out []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "pattern" {
				out = append(out, s)
			}
			out = append(out, patterns(x)...)
		}
	case []any:
		for _, x := range v {
			out = append(out, patterns(x)...)
		}
	}
	return out
}
