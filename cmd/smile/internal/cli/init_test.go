package cli

import (
	"bytes"
	"os"
	"os/exec"
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
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, dir, ""); err != nil {
		t.Fatal(err)
	}
	if want := "smile.json created\nrun.yaml created\ntutorial.md created\n.gitignore created\n"; out.String() != want {
		t.Errorf("stdout = %q, want %q", out.String(), want)
	}
	if !strings.HasPrefix(errOut.String(), "next: ") || !strings.Contains(errOut.String(), "smile apply -f") {
		t.Errorf("stderr = %q, want the next step", errOut.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 4 {
		t.Errorf("the folder holds %d entries, want the 3 files and .gitignore", len(entries))
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
	if err := scaffold(Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, dir, "mine"); err != nil {
		t.Fatal(err)
	}
	for _, f := range scaffolded {
		writeFile(t, dir, f, "edited "+f)
	}
	var out, errOut bytes.Buffer
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, dir, "other"); err != nil {
		t.Fatal(err)
	}
	want := "smile.json exists, left unchanged\nrun.yaml exists, left unchanged\ntutorial.md exists, left unchanged\n.gitignore exists, left unchanged\n"
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
	if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, dir, "other"); err != nil {
		t.Fatal(err)
	}
	want = "smile.json exists, left unchanged\nrun.yaml created\ntutorial.md exists, left unchanged\n.gitignore exists, left unchanged\n"
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
			if err := scaffold(Streams{Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}, dir, ""); err != nil {
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
	if code != 0 || stdout != "smile.json created\nrun.yaml created\ntutorial.md created\n.gitignore created\n" || !strings.HasPrefix(stderr, "next: ") {
		t.Errorf("init: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if m, err := runfile.Load(filepath.Join(dir, "run.yaml")); err != nil || m.Metadata.Name != "getting-started" {
		t.Errorf("run.yaml: %v, %v; want name getting-started", m, err)
	}
	code, stdout, _ = runMain(t, "init", "--dir", dir)
	if code != 0 || strings.Count(stdout, "left unchanged") != 4 {
		t.Errorf("second init: exit %d, stdout %q", code, stdout)
	}
}

func TestScaffoldRefusesANameThatIsNotADNSLabel(t *testing.T) {
	dir := t.TempDir()
	var out, errOut strings.Builder
	err := scaffold(Streams{Out: &out, ErrOut: &errOut}, dir, "Bad Name")
	if err == nil || !strings.Contains(err.Error(), "DNS label") {
		t.Fatalf("scaffold with --name \"Bad Name\" = %v, want a DNS label error", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a refused init wrote %d files", len(entries))
	}
}

// A user's .gitignore keeps its lines; init adds only the run outputs it
// lacks, once, and a git repository then ignores what a run leaves behind.
func TestInitIgnoresRunOutputs(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\nsmile-audit.log"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	for range 2 {
		if err := scaffold(Streams{Out: &out, ErrOut: &errOut}, dir, ""); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if lines[0] != "node_modules/" || lines[1] != "smile-audit.log" {
		t.Errorf("the user's lines changed:\n%s", data)
	}
	for _, want := range []string{".smile/", "smile-report.*", "smile-audit.log"} {
		if n := countLines(lines, want); n != 1 {
			t.Errorf(".gitignore has %q %d times:\n%s", want, n, data)
		}
	}
	if !strings.Contains(out.String(), ".gitignore updated\n") || !strings.Contains(out.String(), ".gitignore exists, left unchanged\n") {
		t.Errorf("init printed %q", out.String())
	}
	if _, err := exec.LookPath("git"); err != nil {
		return
	}
	for _, f := range []string{".smile/state.json", "smile-report.md", "smile-report.sarif"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "-C", dir, "init", "-q").CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	st, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=all").Output()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(st), "smile-report") || strings.Contains(string(st), ".smile/") {
		t.Errorf("git would stage a run's outputs:\n%s", st)
	}
}

func countLines(lines []string, want string) int {
	n := 0
	for _, l := range lines {
		if l == want {
			n++
		}
	}
	return n
}
