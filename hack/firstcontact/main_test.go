package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/hack/firstcontact/round"
)

const testRound = "round/testdata/round1"

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// mirror makes MIRRORS/example+kettle/repo, a bare mirror whose one commit
// holds docs/basics.md, and returns MIRRORS and the commit.
func mirror(t *testing.T, text string) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	src := t.TempDir()
	git(t, src, "init", "-q")
	if err := os.MkdirAll(filepath.Join(src, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "docs", "basics.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, src, "add", ".")
	git(t, src, "commit", "-qm", "page")
	out, err := exec.Command("git", "-C", src, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	mirrors := t.TempDir()
	git(t, mirrors, "clone", "-q", "--mirror", src, filepath.Join("example+kettle", "repo"))
	// A repository whose name only starts like this one's is another's.
	git(t, mirrors, "clone", "-q", "--mirror", src, filepath.Join("example+kettles", "repo"))
	return mirrors, strings.TrimSpace(string(out))
}

func TestPageText(t *testing.T) {
	const published = "# Boil\n\n```sh\nkettle boil\n```\n"
	mirrors, commit := mirror(t, published)
	page := round.Page{Name: "kettle-basics", Repo: "example/kettle", Commit: commit, Path: "docs/basics.md"}
	copies := t.TempDir()
	writeCopy := func(text string) {
		t.Helper()
		dir := filepath.Join(copies, page.Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "tutorial.md"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name             string
		copy             string // "" for none
		mirrors          string
		want, note, fail string
	}{
		{"from the mirror", "", mirrors, published, "", ""},
		{"the copy, the same as the mirror's", published, mirrors, published, "", ""},
		{"the copy differs from the labelled commit", "# Edited\n", mirrors, "# Edited\n", "differs from " + commit + ":docs/basics.md", ""},
		{"the copy, no mirror", "# Only a copy\n", t.TempDir(), "# Only a copy\n", "", ""},
		{"neither", "", t.TempDir(), "", "", "kettle-basics: no copy at " + filepath.Join(copies, page.Name, "tutorial.md") + " and no mirror of example/kettle under"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.RemoveAll(filepath.Join(copies, page.Name))
			if tt.copy != "" {
				writeCopy(tt.copy)
			}
			text, note, err := pageText(page, copies, tt.mirrors)
			if tt.fail != "" {
				if err == nil || !strings.Contains(err.Error(), tt.fail) || !strings.Contains(err.Error(), "fetch github:example/kettle") {
					t.Errorf("error %v; want one containing %q and how to fetch the page", err, tt.fail)
				}
				return
			}
			if err != nil || string(text) != tt.want || (tt.note == "") != (note == "") || !strings.Contains(note, tt.note) {
				t.Errorf("pageText = %q, note %q, %v; want %q, note %q", text, note, err, tt.want, tt.note)
			}
		})
	}
	// A commit the mirror does not hold is named in the error.
	page.Commit = strings.Repeat("0", 40)
	if _, _, err := pageText(page, t.TempDir(), mirrors); err == nil || !strings.Contains(err.Error(), "no mirror of example/kettle holds "+page.Commit+":docs/basics.md") {
		t.Errorf("error %v; want the commit the mirror lacks", err)
	}
}

func TestMirrorDirs(t *testing.T) {
	mirrors, _ := mirror(t, "x\n")
	want := []string{filepath.Join(mirrors, "example+kettle", "repo")}
	if got := mirrorDirs(mirrors, "Example/Kettle"); !reflect.DeepEqual(got, want) {
		t.Errorf("mirrorDirs = %v; want %v", got, want)
	}
}

func TestExercised(t *testing.T) {
	// Lines: 1 heading, 3-5 a fence, 7 prose, 9-11 a fence, 13-15 a fence.
	text := "# Title\n\n```sh\nmake tea\n```\n\nThen run `pour` yourself.\n\n```\nout\n```\n\n```sh\nsip\n```\n"
	tests := []struct {
		name  string
		lines []int
		want  int
	}{
		{"nothing ran", nil, 0},
		{"one block, twice", []int{4, 5}, 1},
		{"two blocks", []int{4, 14}, 2},
		{"a command from the prose counts once", []int{4, 7}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := exercised([]byte(text), tt.lines); got != tt.want {
				t.Errorf("exercised(%v) = %d; want %d", tt.lines, got, tt.want)
			}
		})
	}
}

func TestRunLabelsOnly(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"-labels-only", "-round", testRound, "-run", "^(kettle|teapot)"}, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"kettle-basics", "teapot-guide", "TOTAL (2 pages)", "precision:    1/3 (33%)", "recall:       1/3 (33%)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "saucer-howto") {
		t.Errorf("-run left saucer-howto in:\n%s", out.String())
	}
	for _, args := range [][]string{{"-labels-only"}, {"-labels-only", "-round", testRound, "-run", "^nothing$"}, {"-labels-only", "-round", "round/testdata"}} {
		if err := run(args, &out, &errOut); err == nil {
			t.Errorf("run %q: no error", args)
		}
	}
}

// Pages found neither as copies nor in a mirror are named with how to
// fetch them, and the round is scored without them (here: with nothing run).
func TestRunMissingPages(t *testing.T) {
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "smile"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	args := []string{"-round", testRound, "-bin", bin, "-copies", t.TempDir(), "-mirrors", t.TempDir()}
	if err := run(args, &out, &errOut); err != nil {
		t.Fatalf("%v\n%s", err, errOut.String())
	}
	for _, want := range []string{"pages not scored: 3", "kettle-basics: no copy at", "fetch github:example/kettle", "TOTAL (0 pages)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "missing: saucer-howto: no copy") {
		t.Errorf("stderr names no missing page:\n%s", errOut.String())
	}
}

func TestStageImagesFromTheCopy(t *testing.T) {
	copies, stage := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(copies, "p", "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(copies, "p", "img", "a.png"), []byte("png"), 0o644); err != nil {
		t.Fatal(err)
	}
	text := []byte("# P\n\n![a](img/a.png)\n\n![b](../up.png)\n\n![c](/site/c.png)\n")
	p := round.Page{Name: "p", Repo: "o/r", Commit: strings.Repeat("0", 40), Path: "docs/p.md"}
	if err := stageImages(p, stage, text, copies, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(stage, "img", "a.png")); err != nil || string(data) != "png" {
		t.Errorf("the copy's image was not staged beside the page: %q, %v", data, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(stage))
	for _, e := range entries {
		if e.Name() == "up.png" {
			t.Errorf("an image above the page's folder was written outside the stage")
		}
	}
}

func TestStageCopyFilesBesideThePage(t *testing.T) {
	copies, stage := t.TempDir(), t.TempDir()
	for name, data := range map[string]string{"p/tutorial.md": "# P\n", "p/divide.c": "int d;\n", "p/Demo1/main.c": "int m;\n", "p/smile.json": "{}", "p/.smile/x": "state"} {
		if err := os.MkdirAll(filepath.Join(copies, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copies, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := stageCopyFiles(round.Page{Name: "p"}, stage, copies); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"divide.c", "Demo1/main.c"} {
		if _, err := os.Stat(filepath.Join(stage, name)); err != nil {
			t.Errorf("%s was not staged beside the page: %v", name, err)
		}
	}
	for _, name := range []string{"tutorial.md", "smile.json", ".smile"} {
		if _, err := os.Stat(filepath.Join(stage, name)); err == nil {
			t.Errorf("%s, which is not the page's, was staged", name)
		}
	}
}
