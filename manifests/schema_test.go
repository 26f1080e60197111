package manifests

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/smile-loop/smile/spec"
)

// quickstart is the example `smile init` users start from; it must stay valid.
const quickstart = "../examples/quickstart"

// schemas are the two schemas compiled the way an editor sees them: from
// files in this folder, the SmileRun schema referring to smile.schema.json by
// a relative reference.
type schemas struct {
	smile, run *jsonschema.Schema
}

func compileSchemas(t *testing.T) schemas {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	base := (&url.URL{Scheme: "file", Path: filepath.ToSlash(dir) + "/"}).String()
	c := jsonschema.NewCompiler()
	// A reference to a file that is not registered must fail, not be read from
	// disk behind the test's back.
	c.UseLoader(jsonschema.SchemeURLLoader{})
	for name, data := range map[string][]byte{SmileSchemaFile: SmileSchema, SmileRunSchemaFile: SmileRunSchema} {
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		if err := c.AddResource(base+name, doc); err != nil {
			t.Fatalf("add %s: %v", name, err)
		}
	}
	var s schemas
	if s.smile, err = c.Compile(base + SmileSchemaFile); err != nil {
		t.Fatalf("compile %s: %v", SmileSchemaFile, err)
	}
	if s.run, err = c.Compile(base + SmileRunSchemaFile); err != nil {
		t.Fatalf("compile %s: %v", SmileRunSchemaFile, err)
	}
	return s
}

// validate checks a YAML or JSON document against a schema.
func validate(sch *jsonschema.Schema, doc []byte) error {
	js, err := runfile.YAMLToJSON(doc)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// loadConfig runs smile.json through the Go loader, from a file as SMILE reads it.
func loadConfig(t *testing.T, doc []byte) error {
	t.Helper()
	path := filepath.Join(t.TempDir(), spec.ConfigFileName)
	if err := os.WriteFile(path, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := spec.LoadConfig(path)
	return err
}

// example is a manifest (.yaml) or a smile.json under manifests/examples, or
// one of the quickstart's two.
type example struct {
	path string
	data []byte
}

func examples(t *testing.T) []example {
	t.Helper()
	// Only the quickstart's inputs: running it leaves reports and state there.
	paths := []string{quickstart + "/run.yaml", quickstart + "/" + spec.ConfigFileName}
	err := filepath.WalkDir("examples", func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir // .smile/ and the like
		case filepath.Ext(path) == ".yaml" || d.Name() == spec.ConfigFileName:
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]example, len(paths))
	for i, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = example{p, data}
	}
	return out
}

func TestExamplesAreValid(t *testing.T) {
	s := compileSchemas(t)
	var manifests, configs int
	for _, ex := range examples(t) {
		t.Run(ex.path, func(t *testing.T) {
			if filepath.Ext(ex.path) == ".json" {
				configs++
				if err := validate(s.smile, ex.data); err != nil {
					t.Errorf("%s: %v", SmileSchemaFile, err)
				}
				if err := loadConfig(t, ex.data); err != nil {
					t.Errorf("spec.LoadConfig: %v", err)
				}
				return
			}
			manifests++
			if err := validate(s.run, ex.data); err != nil {
				t.Errorf("%s: %v", SmileRunSchemaFile, err)
			}
			run, err := runfile.Parse(ex.data, ex.path)
			if err != nil {
				t.Fatalf("runfile.Parse: %v", err)
			}
			// Resolve reads the smile.json the manifest names (which must
			// exist) and checks the merged settings.
			if _, err := run.Resolve(filepath.Dir(ex.path)); err != nil {
				t.Errorf("Resolve: %v", err)
			}
		})
	}
	// The quickstart's two files, minimal, claude, ci, the two team runs, the
	// team's smile.json and the defaults.
	if manifests < 6 || configs < 3 {
		t.Errorf("found %d manifests and %d smile.json examples, want at least 6 and 3", manifests, configs)
	}
}

// schemaPointer matches the modeline yaml-language-server reads.
var schemaPointer = regexp.MustCompile(`(?m)^# yaml-language-server: \$schema=(\S+)$`)

// An editor finds the schema through a path relative to the example; a wrong
// one silently turns off completion and validation.
func TestExamplesPointAtTheirSchema(t *testing.T) {
	for _, ex := range examples(t) {
		t.Run(ex.path, func(t *testing.T) {
			var ref, want string
			if filepath.Ext(ex.path) == ".json" {
				var doc struct {
					Schema string `json:"$schema"`
				}
				if err := json.Unmarshal(ex.data, &doc); err != nil {
					t.Fatal(err)
				}
				ref, want = doc.Schema, SmileSchemaFile
				if ref == "" && strings.HasPrefix(ex.path, quickstart) {
					t.Skip("the quickstart's smile.json names no schema")
				}
			} else {
				m := schemaPointer.FindSubmatch(ex.data)
				if m == nil {
					t.Fatal("no `# yaml-language-server: $schema=...` line")
				}
				ref, want = string(m[1]), SmileRunSchemaFile
			}
			got, err := filepath.Abs(filepath.Join(filepath.Dir(ex.path), filepath.FromSlash(ref)))
			if err != nil {
				t.Fatal(err)
			}
			wantAbs, _ := filepath.Abs(want)
			if got != wantAbs {
				t.Errorf("$schema %q resolves to %s, want %s", ref, got, wantAbs)
			}
		})
	}
}

// The example that lists every setting at its default documents the defaults,
// so it must say exactly what spec.DefaultConfig says, field for field.
func TestDefaultsExampleIsDefaultConfig(t *testing.T) {
	data, err := os.ReadFile("examples/defaults/smile.json")
	if err != nil {
		t.Fatal(err)
	}
	var got spec.Config // decoded over zero values: a missing field shows up
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if want := spec.DefaultConfig(); !reflect.DeepEqual(got, want) {
		t.Errorf("examples/defaults/smile.json =\n  %+v\nwant spec.DefaultConfig()\n  %+v", got, want)
	}
}

func TestSchemasDeclareDraft2020(t *testing.T) {
	for name, data := range map[string][]byte{SmileSchemaFile: SmileSchema, SmileRunSchemaFile: SmileRunSchema} {
		var doc struct {
			Schema string `json:"$schema"`
			ID     string `json:"$id"`
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if doc.Schema != "https://json-schema.org/draft/2020-12/schema" {
			t.Errorf("%s: $schema = %q, want draft 2020-12", name, doc.Schema)
		}
		// An absolute $id would make editors resolve smile.schema.json against
		// it, over the network, instead of beside the file.
		if doc.ID != "" {
			t.Errorf("%s: $id = %q, want none", name, doc.ID)
		}
	}
}
