package spec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestResolveRefusesPathsOutsideTheProject: every path of a run must stay in
// the project, after symbolic links; the error names the field.
func TestResolveRefusesPathsOutsideTheProject(t *testing.T) {
	tests := []struct {
		name, spec, config, want string
	}{
		{"stateFile up", "  stateFile: ../x/state.json\n", "", `spec.stateFile: "../x/state.json" is outside the project root`},
		{"outputDir absolute", "  outputDir: /etc\n", "", `spec.outputDir: "/etc" is outside the project root`},
		{"tutorial absolute", "  tutorial: /etc/passwd\n", "", `spec.tutorial: "/etc/passwd" is outside the project root`},
		{"config up", "  config: ../smile.json\n", "", `spec.config: "../smile.json" is outside the project root`},
		{"from smile.json", "", `{"tutorial": "docs/tutorial.md", "outputDir": "../../reports"}`, `outputDir: "../../reports" is outside the project root`},
		{"symlink out", "  outputDir: link/reports\n", "", `spec.outputDir: "link/reports" is outside the project root`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, _ := digestFixture(t)
			if tt.config != "" {
				writeFile(t, dir, ConfigFileName, tt.config)
			}
			if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			_, err := Resolve(mustParse(t, manifestHead+"spec:\n"+tt.spec), dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Resolve error = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestProjectRootIsTheRepository: a .git above the manifest's folder makes
// the repository the root; without one the manifest's folder is.
func TestProjectRootIsTheRepository(t *testing.T) {
	repo := t.TempDir()
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	want := resolvePath(sub)
	if got := ProjectRoot(sub); got != want {
		t.Errorf("ProjectRoot without .git = %q, want %q", got, want)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, want := ProjectRoot(sub), resolvePath(repo); got != want {
		t.Errorf("ProjectRoot = %q, want %q", got, want)
	}
}

// TestResolveRefusesUnwritableStateFile: a folder where the state file
// should be, or a folder SMILE cannot write in, fails at apply.
func TestResolveRefusesUnwritableStateFile(t *testing.T) {
	t.Run("directory", func(t *testing.T) {
		dir, _ := digestFixture(t)
		_, err := Resolve(mustParse(t, manifestHead+"spec:\n  stateFile: \".\"\n"), dir)
		if err == nil || !strings.Contains(err.Error(), "is a directory, not a file") {
			t.Fatalf("Resolve error = %v, want the state file refused as a directory", err)
		}
	})
	t.Run("file in the way", func(t *testing.T) {
		dir, _ := digestFixture(t)
		_, err := Resolve(mustParse(t, manifestHead+"spec:\n  stateFile: docs/tutorial.md/state.json\n"), dir)
		if err == nil || !strings.Contains(err.Error(), "is not a directory") {
			t.Fatalf("Resolve error = %v, want the state file refused", err)
		}
	})
	t.Run("read-only folder", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes in read-only folders")
		}
		dir, _ := digestFixture(t)
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		_, err := Resolve(mustParse(t, manifestHead+"spec:\n  stateFile: ro/state.json\n"), dir)
		if err == nil || !strings.Contains(err.Error(), "cannot write in") {
			t.Fatalf("Resolve error = %v, want the state file refused", err)
		}
	})
}

// TestImagesOutsideTheProjectAreMissing: an image reference leading out of
// the project, by ../ or by a symbolic link, is missing and its bytes are
// never read.
func TestImagesOutsideTheProjectAreMissing(t *testing.T) {
	dir, _ := digestFixture(t)
	outside := t.TempDir()
	writeFile(t, outside, "secret.png", "\x89PNG-secret")
	if err := os.Symlink(filepath.Join(outside, "secret.png"), filepath.Join(dir, "docs", "img", "link.png")); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Join(dir, "docs"), filepath.Join(outside, "secret.png"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "docs/tutorial.md", "# T\n\n![a](img/link.png) ![b]("+filepath.ToSlash(rel)+") ![c](img/s.png)\n")
	d, err := Resolve(mustParse(t, manifestHead+"spec:\n  timeout: 300\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	for i, wantMissing := range []bool{true, true, false} {
		img := d.Tutorial.Images[i]
		if img.Missing != wantMissing || strings.Contains(string(img.Data), "secret") {
			t.Errorf("image %q: missing %v data %q, want missing %v and nothing read from outside", img.Reference, img.Missing, img.Data, wantMissing)
		}
	}
}

// TestFindWorkspace: from any folder inside it, as git finds a repository.
func TestFindWorkspace(t *testing.T) {
	mk := func(parts ...string) string {
		p := filepath.Join(parts...)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	repo := resolvePath(t.TempDir())
	mk(repo, ".git")
	deep := mk(repo, "docs", "guides", "intro")
	if got := FindWorkspace(deep); got != repo {
		t.Errorf("in a git repository: FindWorkspace(%s) = %s, want %s", deep, got, repo)
	}
	if got := FindWorkspace(repo); got != repo {
		t.Errorf("at the repository's root: %s, want %s", got, repo)
	}
	plain := resolvePath(t.TempDir())
	mk(plain, ".smile", "applied")
	sub := mk(plain, "part")
	if got := FindWorkspace(sub); got != plain {
		t.Errorf("outside git, below the folder runs were applied in: %s, want %s", got, plain)
	}
	none := mk(resolvePath(t.TempDir()), "x")
	if got := FindWorkspace(none); got != none {
		t.Errorf("outside git, no runs anywhere: %s, want the folder itself", got)
	}
}
