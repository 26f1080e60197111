package runfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const manifestHead = "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: quickstart\n"

func TestParseYAMLSyntaxErrorNamesLine(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "unclosed flow sequence",
			in:   manifestHead + "spec:\n  maxIterations: [1\n",
			want: "run.yaml: invalid YAML: yaml: line 6: did not find expected ',' or ']'",
		},
		{
			name: "bad indentation",
			in:   manifestHead + "spec:\n  maxIterations: 1\n   timeout: 2\n",
			want: "run.yaml: invalid YAML: yaml: line 7: mapping values are not allowed in this context",
		},
		{
			name: "tab indentation",
			in:   "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n\tname: demo\n",
			want: "run.yaml: invalid YAML: yaml: line 4: found character that cannot start any token",
		},
		{
			name: "unclosed JSON object",
			in:   `{"apiVersion": "smile.dev/v1alpha1",` + "\n" + `"kind": "SmileRun"`,
			want: "run.yaml: invalid YAML: yaml: line 2: did not find expected ',' or '}'",
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
