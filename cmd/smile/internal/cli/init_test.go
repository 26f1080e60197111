package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/spec"
)

var scaffolded = []string{"smile.json", "run.yaml", "tutorial.md"}

func TestScaffoldCreatesThreeFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "quickstart")
	var out, errOut bytes.Buffer
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, initOptions{dir: dir}); err != nil {
		t.Fatal(err)
	}
	if want := "smile.json created\nrun.yaml created\ntutorial.md created\n"; out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	if !strings.HasPrefix(errOut.String(), "next: ") || !strings.Contains(errOut.String(), "smile apply -f") {
		t.Errorf("stderr = %q, want the next step", errOut.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 3 {
		t.Errorf("the folder holds %d entries, want the 3 files", len(entries))
	}
	// The three files are what apply reads, and they are valid.
	m, err := runfile.Load(filepath.Join(dir, "run.yaml"))
	if err != nil {
		t.Fatalf("the scaffolded run.yaml does not load: %v", err)
	}
	if m.Metadata.Name != "quickstart" {
		t.Errorf("metadata.name = %q, want the folder's name", m.Metadata.Name)
	}
	cfg, err := m.Resolve(dir)
	if err != nil {
		t.Fatalf("the scaffolded smile.json and run.yaml do not resolve: %v", err)
	}
	if cfg.LLMProvider != spec.ProviderLiteral {
		t.Errorf("llmProvider = %q, want literal (runs with no model)", cfg.LLMProvider)
	}
	tut, err := spec.LoadTutorial(filepath.Join(dir, cfg.Tutorial))
	if err != nil {
		t.Fatalf("the scaffolded tutorial does not load: %v", err)
	}
	if len(tut.Blocks) == 0 {
		t.Error("the scaffolded tutorial has no blocks")
	}
}

func TestScaffoldOverwritesNothing(t *testing.T) {
	dir := t.TempDir()
	if err := scaffold(Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, initOptions{dir: dir, name: "mine"}); err != nil {
		t.Fatal(err)
	}
	for _, f := range scaffolded {
		writeFile(t, dir, f, "edited "+f)
	}
	var out, errOut bytes.Buffer
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, initOptions{dir: dir, name: "other"}); err != nil {
		t.Fatal(err)
	}
	want := "smile.json exists, left unchanged\nrun.yaml exists, left unchanged\ntutorial.md exists, left unchanged\n"
	if out.String() != want {
		t.Errorf("second init printed %q, want %q", out.String(), want)
	}
	if errOut.Len() != 0 {
		t.Errorf("second init printed a next step though it created nothing: %q", errOut.String())
	}
	for _, f := range scaffolded {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || string(data) != "edited "+f {
			t.Errorf("%s = %q, %v: init replaced it", f, data, err)
		}
	}

	// With one file gone, init creates that one only.
	if err := os.Remove(filepath.Join(dir, "run.yaml")); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, initOptions{dir: dir, name: "other"}); err != nil {
		t.Fatal(err)
	}
	want = "smile.json exists, left unchanged\nrun.yaml created\ntutorial.md exists, left unchanged\n"
	if out.String() != want {
		t.Errorf("third init printed %q, want %q", out.String(), want)
	}
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

func TestScaffoldNameFromFolder(t *testing.T) {
	tests := []struct{ folder, want string }{
		{"quickstart", "quickstart"},
		{"My Tutorial_v2", "my-tutorial-v2"},
		{"--Docs.Site--", "docs-site"},
		{"2024 release notes", "2024-release-notes"},
		{"café crème", "caf-cr-me"},
		{"日本語", "tutorial"},
		{"___", "tutorial"},
		{strings.Repeat("a", 70), strings.Repeat("a", 63)},
		{strings.Repeat("ab ", 30), strings.TrimSuffix(strings.Repeat("ab-", 21), "-")},
	}
	for _, tt := range tests {
		t.Run(tt.folder, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tt.folder)
			if err := scaffold(Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, initOptions{dir: dir}); err != nil {
				t.Fatal(err)
			}
			m, err := runfile.Load(filepath.Join(dir, "run.yaml"))
			if err != nil {
				t.Fatalf("run.yaml for folder %q does not load: %v", tt.folder, err)
			}
			name := m.Metadata.Name
			if name != tt.want {
				t.Errorf("name = %q, want %q", name, tt.want)
			}
			if len(name) > 63 || !dnsLabel.MatchString(name) {
				t.Errorf("name %q is not a DNS label", name)
			}
		})
	}
}

func TestInitCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docs")
	code, stdout, stderr := runMain(t, "init", "--dir", dir, "--name", "getting-started")
	if code != 0 || stdout != "smile.json created\nrun.yaml created\ntutorial.md created\n" || !strings.HasPrefix(stderr, "next: ") {
		t.Errorf("init: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if m, err := runfile.Load(filepath.Join(dir, "run.yaml")); err != nil || m.Metadata.Name != "getting-started" {
		t.Errorf("run.yaml: %v, %v; want name getting-started", m, err)
	}
	code, stdout, _ = runMain(t, "init", "--dir", dir)
	if code != 0 || strings.Count(stdout, "left unchanged") != 3 {
		t.Errorf("second init: exit %d, stdout %q", code, stdout)
	}
}

func TestScaffoldRefusesANameThatIsNotADNSLabel(t *testing.T) {
	dir := t.TempDir()
	var out, errOut strings.Builder
	err := scaffold(Streams{Out: &out, ErrOut: &errOut}, initOptions{dir: dir, name: "Bad Name"})
	if err == nil || !strings.Contains(err.Error(), "DNS label") {
		t.Fatalf("scaffold with --name \"Bad Name\" = %v, want a DNS label error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused init wrote %d files", len(entries))
	}
}

// smile init writes the workspace model's smile.json: no stateFile and no
// outputDir, so a run's state and reports go to its own .smile/runs/NAME/
// in the workspace, and a second manifest in the folder is a second run
// (with the old stateFile: .smile/state.json, both runs shared one state
// file and the second was refused).
func TestScaffoldLeavesStateAndReportsToTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "install.md", "# Install\n\n```bash\necho hi\n```\n")
	streams := Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	if err := scaffold(streams, initOptions{dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := scaffold(streams, initOptions{dir: dir, tutorial: filepath.Join(dir, "install.md")}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "smile.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{"stateFile", "outputDir"} {
		if strings.Contains(string(data), field) {
			t.Errorf("smile.json sets %s, which the workspace model leaves unset:\n%s", field, data)
		}
	}
	seen := map[string]string{}
	for _, manifest := range []string{"run.yaml", "install.run.yaml"} {
		m, err := runfile.Load(filepath.Join(dir, manifest))
		if err != nil {
			t.Fatal(err)
		}
		d, err := spec.Resolve(m, dir)
		if err != nil {
			t.Fatalf("%s does not resolve: %v", manifest, err)
		}
		own := filepath.Join(dir, ".smile", "runs", m.Metadata.Name)
		if d.Paths.StateFile != filepath.Join(own, "state.json") || d.Paths.OutputDir != own {
			t.Errorf("%s: state %s, reports in %s; want both in %s", manifest, d.Paths.StateFile, d.Paths.OutputDir, own)
		}
		for _, p := range []string{d.Paths.StateFile, d.Paths.OutputDir, m.Metadata.Name} {
			if other, ok := seen[p]; ok {
				t.Errorf("%s and %s share %s", other, manifest, p)
			}
			seen[p] = manifest
		}
	}
}

// --tutorial checks a page the user has: the manifest is named after it and
// names it, and no starter tutorial is written.
func TestScaffoldExistingTutorial(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "docs/Getting Started.md", "# Getting started\n\n```bash\necho hi\n```\n")
	dir := filepath.Join(root, "docs")
	t.Chdir(root)
	var out, errOut bytes.Buffer
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, initOptions{dir: "docs", tutorial: "docs/Getting Started.md"}); err != nil {
		t.Fatal(err)
	}
	if want := "smile.json created\nGetting Started.run.yaml created\n"; out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	if want := "next: run `smile apply -f docs/Getting Started.run.yaml --wait`\n"; errOut.String() != want {
		t.Errorf("stderr = %q, want %q", errOut.String(), want)
	}
	if _, err := os.Stat(filepath.Join(dir, "tutorial.md")); err == nil {
		t.Error("init --tutorial wrote a starter tutorial.md too")
	}
	m, err := runfile.Load(filepath.Join(dir, "Getting Started.run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	d, err := spec.Resolve(m, dir)
	if err != nil {
		t.Fatal(err)
	}
	if m.Metadata.Name != "getting-started" || d.Paths.Tutorial != filepath.Join(dir, "Getting Started.md") {
		t.Errorf("name %q, tutorial %s; want getting-started checking the page", m.Metadata.Name, d.Paths.Tutorial)
	}

	// A page that is not there writes nothing.
	err = scaffold(Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, initOptions{dir: "other", tutorial: "docs/getting-started.md"})
	if err == nil || !strings.HasPrefix(err.Error(), "--tutorial: tutorial not found") {
		t.Errorf("init --tutorial with a missing page = %v, want tutorial not found", err)
	}
	if _, serr := os.Stat(filepath.Join(root, "other")); serr == nil {
		t.Error("init --tutorial with a missing page created its folder")
	}
}
