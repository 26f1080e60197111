package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/spec"
)

// repoTree is a repository with SmileRun manifests among other YAML files.
func repoTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeFile(t, root, "run.yaml", manifestYAML("root"))
	writeFile(t, root, "docs/guide/check.yml", manifestYAML("guide"))
	writeFile(t, root, "docs/guide/TUTORIAL.YAML", manifestYAML("upper")) // the extension in any case
	// Not SmileRun manifests.
	writeFile(t, root, "deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n")
	writeFile(t, root, "notes.yaml", "# mentions SmileRun in a comment\nkind: ConfigMap\n")
	writeFile(t, root, "broken.yaml", "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: Not A Label\n")
	writeFile(t, root, "run.yaml.txt", manifestYAML("txt"))
	writeFile(t, root, "run.json", `{"apiVersion": "smile.dev/v1alpha1", "kind": "SmileRun", "metadata": {"name": "json"}}`)
	// Folders the hook never looks into.
	for _, skipped := range []string{".git", ".smile", ".smile/applied", "node_modules/pkg", "vendor/mod", "docs/.git"} {
		writeFile(t, root, filepath.Join(skipped, "run.yaml"), manifestYAML("skipped"))
	}
	return root
}

func TestFindManifests(t *testing.T) {
	root := repoTree(t)
	got, err := findManifests(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		filepath.Join(root, "docs/guide/TUTORIAL.YAML"),
		filepath.Join(root, "docs/guide/check.yml"),
		filepath.Join(root, "run.yaml"),
	}
	if !slices.Equal(got, want) {
		t.Errorf("findManifests =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range got {
		if !filepath.IsAbs(p) {
			t.Errorf("%s is not absolute", p)
		}
	}
}

func TestFindManifestsRelative(t *testing.T) {
	root := repoTree(t)
	t.Chdir(root)
	got, err := findManifests(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[2] != filepath.Join(root, "run.yaml") {
		t.Errorf("findManifests(\".\") = %q, want 3 absolute paths under %s", got, root)
	}
}

func TestManifestInputs(t *testing.T) {
	root := t.TempDir()
	tutorial := "# Guide\n\n![overview](img/overview.png)\n\nRun:\n\n```bash\necho hi\n```\n\n<img src=\"img/flow.svg\" alt=\"flow\">\n\n![not there yet](img/later.gif)\n"
	tests := []struct {
		name     string
		manifest string
		files    map[string]string
		want     []string
	}{
		{
			name:     "tutorial and images beside the manifest",
			manifest: "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: guide\nspec:\n  tutorial: guide.md\n",
			files:    map[string]string{"smile.json": "{}", "guide.md": tutorial, "img/overview.png": "png", "img/flow.svg": "<svg/>"},
			want:     []string{"run.yaml", "smile.json", "guide.md", "img/overview.png", "img/flow.svg", "img/later.gif"},
		},
		{
			name:     "tutorial named by smile.json, in a subfolder",
			manifest: "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: guide\n",
			files:    map[string]string{"smile.json": `{"tutorial": "docs/guide.md"}`, "docs/guide.md": tutorial},
			want:     []string{"run.yaml", "smile.json", "docs/guide.md", "docs/img/overview.png", "docs/img/flow.svg", "docs/img/later.gif"},
		},
		{
			name:     "config named by the manifest",
			manifest: "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: guide\nspec:\n  config: conf/smile.json\n",
			files:    map[string]string{"conf/smile.json": `{"tutorial": "t.md"}`, "t.md": "# T\n"},
			want:     []string{"run.yaml", "conf/smile.json", "t.md"},
		},
		{
			name:     "no smile.json: still an input (creating it changes the run)",
			manifest: manifestYAML("guide"),
			files:    map[string]string{"tutorial.md": "# T\n"},
			want:     []string{"run.yaml", "smile.json", "tutorial.md"},
		},
		{
			name:     "a missing tutorial is still an input",
			manifest: manifestYAML("guide"),
			files:    map[string]string{},
			want:     []string{"run.yaml", "smile.json", "tutorial.md"},
		},
		{
			name:     "an invalid manifest is its only input",
			manifest: "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: guide\nspec:\n  tutorail: x.md\n",
			want:     []string{"run.yaml"},
		},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(root, string(rune('a'+i)))
			manifest := writeFile(t, dir, "run.yaml", tt.manifest)
			for name, content := range tt.files {
				writeFile(t, dir, name, content)
			}
			var want []string
			for _, w := range tt.want {
				want = append(want, filepath.Join(dir, w))
			}
			m, _ := runfile.Load(manifest) // nil when invalid
			if got := spec.InputFiles(m, manifest); !slices.Equal(got, want) {
				t.Errorf("spec.InputFiles =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// TestHookNothingToCheck: a commit that touches no run's input runs nothing
// and succeeds, without Docker.
func TestHookNothingToCheck(t *testing.T) {
	root := repoTree(t)
	writeFile(t, root, "README.md", "# readme\n")
	t.Chdir(root)
	code, stdout, stderr := runMain(t, "hook", "README.md", "deploy.yaml", ".git/run.yaml")
	if code != 0 || stdout != "" || !strings.Contains(stderr, "nothing to check") {
		t.Errorf("hook: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	code, stdout, stderr = runMain(t, "hook", "--fail-on", "severe", "run.yaml")
	if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "error: --fail-on must be") {
		t.Errorf("hook --fail-on severe: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// The README's pre-commit snippet pins rev to a commit or a tag: pre-commit
// refuses a branch (rev: main) as a mutable reference.
func TestREADMEHookPinsARevision(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, snippet, ok := strings.Cut(string(data), "  - repo: https://github.com/smile-loop/smile\n")
	if !ok {
		t.Fatal("the README has no pre-commit snippet for this repository")
	}
	line, _, _ := strings.Cut(snippet, "\n")
	rev, _, _ := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "rev:")), "#")
	rev = strings.TrimSpace(rev)
	if !regexp.MustCompile(`^([0-9a-f]{40}|v\d+\.\d+\.\d+)$`).MatchString(rev) {
		t.Errorf("the README's pre-commit rev is %q: pre-commit needs a commit or a tag, not a branch", rev)
	}
}
