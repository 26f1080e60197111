package runfile

import (
	"errors"

	"github.com/smile-loop/smile/spec"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const manifestHead = "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: quickstart\n"

// go.yaml.in/yaml/v3 gives syntax errors a line and no column.
func TestParseYAMLSyntaxErrorNamesLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "unclosed flow sequence",
			in:   manifestHead + "spec:\n  maxIterations: [1\n",
			want: "run.yaml:5: invalid YAML: did not find expected ',' or ']'", // the library's line: where the context began, counted from 0,
		},
		{
			name: "bad indentation",
			in:   manifestHead + "spec:\n  maxIterations: 1\n   timeout: 2\n",
			want: "run.yaml:7: invalid YAML: mapping values are not allowed in this context",
		},
		{
			name: "tab indentation",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n\tname: demo\n",
			want: "run.yaml:4:1: invalid YAML: a tab indents this line; YAML indents with spaces only",
		},
		{
			name: "tab after spaces",
			in:   manifestHead + "spec:\n  \ttimeout: 2\n",
			want: "run.yaml:6:3: invalid YAML: a tab indents this line; YAML indents with spaces only",
		},
		{
			name: "tab inside a value",
			in:   manifestHead + "spec:\n  tutorial: [a,\t\tb]\n  timeout: @\n",
			want: "run.yaml:7: invalid YAML: found character that cannot start any token", // the @, not the tabs
		},
		{
			name: "unclosed JSON object",
			in:   `{"apiVersion": "smile.dev/v1alpha1",` + "\n" + `"kind": "SmileRun"`,
			want: "run.yaml:2: invalid YAML: did not find expected ',' or '}'",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), "run.yaml")
			if err == nil {
				t.Fatal("Parse error = nil")
			}
			if err.Error() != tt.want {
				t.Errorf("Parse error =\n  %q\nwant\n  %q", err, tt.want)
			}
		})
	}
}

// A misspelt setting must not be dropped silently: every unknown spec field is
// an error, nested ones too, each with a hint when one is close.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	t.Run("file", func(t *testing.T) {
		p := writeFile(t, dir, "run.yaml", manifestHead+"spec:\n  maxIterations: 2\n")
		run, err := Load(p)
		if err != nil {
			t.Fatalf("Load error = %v", err)
		}
		if run.Metadata.Name != "quickstart" || run.Spec["maxIterations"] != float64(2) {
			t.Errorf("Load = %+v, want name quickstart and maxIterations 2", run)
		}
	})
	t.Run("errors name the file", func(t *testing.T) {
		p := writeFile(t, dir, "bad.yaml", "kind: SmileRun\n")
		_, err := Load(p)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("Load error = %v, want it to start with %q", err, p+": ")
		}
	})
	t.Run("missing", func(t *testing.T) {
		p := filepath.Join(dir, "nope.yaml")
		_, err := Load(p)
		if err == nil || !os.IsNotExist(unwrapAll(err)) {
			t.Errorf("Load(missing) error = %v, want a not-exist error", err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "read manifest: open "+p+": ") {
			t.Errorf("Load(missing) error = %q", err)
		}
	})
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A manifest's errors name the line and column of the field they are about,
// one line per error, and keep spec's typed errors reachable.
func TestParseErrorsNameLineAndColumn(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"wrong type", manifestHead + "spec:\n  tutorial: t.md\n  maxIterations: many\n",
			"run.yaml:7:3: spec.maxIterations must be an integer, got string"},
		{"nested unknown field", manifestHead + "spec:\n  studentBehavior:\n    patience: low\n",
			`run.yaml:7:5: unknown field "spec.studentBehavior.patience" (did you mean "patienceLevel"?)`},
		{"enum", manifestHead + "spec:\n  llmProvider: gpt\n",
			`run.yaml:6:3: spec.llmProvider`},
		{"bad name", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: Not_A_Label\n",
			`run.yaml:4:3: metadata.name "Not_A_Label" must be a DNS label`},
		{"unknown top field", manifestHead + "name: x\n", `run.yaml:5:1: unknown field "name"`},
		{"two errors", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\n",
			"run.yaml:1:1: apiVersion must be \"smile.dev/v1alpha1\", got \"v1\"\nrun.yaml:2:1: kind must be"},
		{"missing name", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\n", "run.yaml: metadata.name is required"},
		{"duplicate key", manifestHead + "spec:\n  timeout: 1\n  timeout: 2\n",
			`run.yaml:7: invalid YAML: mapping key "timeout" already defined at line 6`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), "run.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("Parse error =\n  %v\nwant prefix\n  %s", err, tt.want)
			}
		})
	}
	_, err := Parse([]byte(manifestHead+"spec:\n  llmProvider: gpt\n"), "run.yaml")
	var enum *spec.EnumError
	if !errors.As(err, &enum) {
		t.Errorf("Parse error %T does not wrap *spec.EnumError", err)
	}
}

// Several manifests in one file, separated by `---`: each with the line its
// document starts on; empty documents are skipped, a name used twice is not.
func TestParseAll(t *testing.T) {
	in := "---\n# first\n" + manifestHead + "spec:\n  tutorial: a.md\n---\n" +
		strings.Replace(manifestHead, "quickstart", "second", 1) + "---\n"
	docs, err := ParseAll([]byte(in), "runs.yaml")
	if err != nil {
		t.Fatalf("ParseAll error = %v", err)
	}
	if len(docs) != 2 || docs[0].Run.Metadata.Name != "quickstart" || docs[0].Line != 3 ||
		docs[1].Run.Metadata.Name != "second" || docs[1].Line != 10 {
		for _, d := range docs {
			t.Logf("doc %s at line %d", d.Run.Metadata.Name, d.Line)
		}
		t.Fatalf("ParseAll = %d docs, want quickstart at line 3 and second at line 10", len(docs))
	}
	if _, err := Parse([]byte(in), "runs.yaml"); err == nil || !strings.Contains(err.Error(), "holds 2 manifests") {
		t.Errorf("Parse(two manifests) error = %v, want one saying it holds 2", err)
	}
	_, err = ParseAll([]byte(manifestHead+"---\n"+manifestHead), "runs.yaml")
	if err == nil || err.Error() != `runs.yaml:6:1: metadata.name "quickstart" is used by the manifest at line 1 too` {
		t.Errorf("ParseAll(same name twice) error = %v", err)
	}
	bad := manifestHead + "---\n" + strings.Replace(manifestHead, "quickstart", "b", 1) + "spec:\n  timeout: soon\n"
	if _, err := ParseAll([]byte(bad), "runs.yaml"); err == nil || !strings.HasPrefix(err.Error(), "runs.yaml:11:3: spec.timeout") {
		t.Errorf("ParseAll(second invalid) error = %v, want it at runs.yaml:11:3", err)
	}
	for _, empty := range []string{"", "---\n", "# nothing\n---\n---\n"} {
		if _, err := ParseAll([]byte(empty), "e.yaml"); err == nil || err.Error() != "e.yaml: empty manifest" {
			t.Errorf("ParseAll(%q) error = %v, want e.yaml: empty manifest", empty, err)
		}
	}
	p := writeFile(t, t.TempDir(), "runs.yaml", in)
	if run, err := LoadNamed(p, "second"); err != nil || run.Metadata.Name != "second" {
		t.Errorf("LoadNamed(second) = %v, %v", run, err)
	}
	if _, err := LoadNamed(p, "third"); err == nil {
		t.Error("LoadNamed(third) error = nil")
	}
}

// The YAML helpers go through JSON tags both ways.
func TestYAMLJSONRoundTrip(t *testing.T) {
	var v struct {
		Name  string `json:"name"`
		Count int    `json:"count"`
	}
	if err := UnmarshalYAML([]byte("name: a\ncount: 3\n"), &v, true); err != nil || v.Name != "a" || v.Count != 3 {
		t.Errorf("UnmarshalYAML = %+v, %v", v, err)
	}
	if err := UnmarshalYAML([]byte("name: a\nextra: 1\n"), &v, true); err == nil {
		t.Error("UnmarshalYAML(strict, unknown field) error = nil")
	}
	out, err := JSONToYAML([]byte(`{"b":{"c":[1,"x"]},"a":true}`))
	if err != nil || string(out) != "a: true\nb:\n  c:\n    - 1\n    - x\n" {
		t.Errorf("JSONToYAML = %q, %v", out, err)
	}
}

func TestIsManifest(t *testing.T) {
	for in, want := range map[string]bool{
		manifestHead:                       true,
		"---\n" + manifestHead:             true,
		"a: 1\n---\n" + manifestHead:       true,
		"- x\n---\n" + manifestHead:        true,
		`{"kind": "SmileRun"}`:             true,
		`{"llmProvider": "literal"}`:       false, // smile.json
		"repos:\n  - repo: local\n":        false, // .pre-commit-config.yaml
		"kind: Deployment\n":               false,
		"kind: SmileRun\n\tbad: [\n":       false,
		"":                                 false,
		"apiVersion: v1\nkind: smilerun\n": false,
	} {
		if got := IsManifest([]byte(in)); got != want {
			t.Errorf("IsManifest(%q) = %v, want %v", in, got, want)
		}
	}
}
