package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status"
)

// TestWorkspace uses SMILE in a documentation repository: tutorials in two
// folders, two manifests in one of them. Runs applied from different folders
// share the repository's one controller; `get` from the root and from a
// subfolder lists them all (the folder in -o wide); the two runs of one
// folder complete without colliding; a name used twice is refused; and what
// the runs leave never shows in `git status`.
func TestWorkspace(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	repo := t.TempDir()
	t.Cleanup(func() { removeRunContainers(repo) })
	stopControllers(t, repo)
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tutorial := readFile(t, filepath.Join(repoRoot(t), "test", "e2e", "testdata", "clean", "tutorial.md"))
	manifest := func(name, tut string) []byte {
		return []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: " + name + "}\nspec:\n  tutorial: " + tut +
			"\n  llmProvider: literal\n  maxIterations: 2\n  timeout: 120\n")
	}
	for path, content := range map[string][]byte{
		"docs/a/one.md": tutorial, "docs/a/two.md": tutorial, "docs/b/tutorial.md": tutorial,
		"docs/a/one.yaml": manifest("a-one", "one.md"), "docs/a/two.yaml": manifest("a-two", "two.md"),
		"docs/b/run.yaml": manifest("b", "tutorial.md"),
	} {
		writeFile(t, filepath.Join(repo, path), content)
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("-c", "user.name=Doc Writer", "-c", "user.email=docs@example.com", "-c", "commit.gpgsign=false", "commit", "-qm", "tutorials")

	// Applied from the root, from the folder, and waited for from the
	// other folder: one controller serves them all.
	docsA, docsB := filepath.Join(repo, "docs", "a"), filepath.Join(repo, "docs", "b")
	for _, c := range []struct{ dir, file, want string }{
		{repo, "docs/a/one.yaml", "smilerun.smile.dev/a-one created\n"},
		{docsA, "two.yaml", "smilerun.smile.dev/a-two created\n"},
	} {
		if res := smile(t, c.dir, nil, time.Minute, "apply", "-f", c.file); res.code != 0 || res.stdout != c.want {
			t.Fatalf("apply -f %s in %s: exit %d, stdout %q, want %q\n%s", c.file, c.dir, res.code, res.stdout, c.want, res.stderr)
		}
	}
	info := controllerInfo(t, repo)
	res := smile(t, docsB, nil, 4*time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 0 || !strings.Contains(res.stdout, "report: "+runFile(repo, "b", "smile-report.md")) {
		t.Fatalf("apply --wait in docs/b: exit %d, want 0 and its report in .smile/runs/b\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "dashboard: http://"+info.APIAddr+"/") {
		t.Errorf("apply --wait in docs/b did not use the workspace's controller (%s):\n%s", info.APIAddr, res.stderr)
	}
	for _, name := range []string{"a-one", "a-two"} {
		o := waitObject(t, docsB, name, 3*time.Minute, name+" to finish", finished)
		if o.Status.Phase != status.PhaseCompleted || len(o.Status.Gaps) != 0 {
			t.Errorf("run %s of docs/a: %s, gaps %+v; want completed without a gap", name, describeStatus(o.Status), o.Status.Gaps)
		}
		if _, err := os.Stat(runFile(repo, name, "smile-report.md")); err != nil {
			t.Errorf("run %s has no report of its own: %v", name, err)
		}
	}

	// get lists every run of the workspace, from the root and from a subfolder.
	want := "smilerun.smile.dev/a-one\nsmilerun.smile.dev/a-two\nsmilerun.smile.dev/b\n"
	for _, dir := range []string{repo, docsA, filepath.Join(repo, "docs")} {
		if res := smile(t, dir, nil, 30*time.Second, "get", "-o", "name"); res.code != 0 || res.stdout != want {
			t.Errorf("get -o name in %s: exit %d, stdout %q, want %q\n%s", dir, res.code, res.stdout, want, res.stderr)
		}
	}
	wide := smile(t, docsB, nil, 30*time.Second, "get", "-o", "wide")
	var rows [][]string
	for _, l := range strings.Split(strings.TrimSpace(wide.stdout), "\n") {
		rows = append(rows, strings.Fields(l))
	}
	// The FOLDER column found by its header, not by its position.
	col := slices.Index(rows[0], "FOLDER")
	folders := map[string]string{}
	for _, r := range rows {
		if col >= 0 && len(r) > col {
			folders[r[0]] = r[col]
		}
	}
	if folders["NAME"] != "FOLDER" || folders["a-one"] != "docs/a" || folders["a-two"] != "docs/a" || folders["b"] != "docs/b" {
		t.Errorf("get -o wide: FOLDER column %v:\n%s", folders, wide.stdout)
	}
	dashWorkspace(t, docsB, []string{"a-one", "a-two", "b"})
	if res := smile(t, docsA, nil, 30*time.Second, "describe", "b"); res.code != 0 || !strings.Contains(res.stdout, "Name:") {
		t.Errorf("describe b from docs/a: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}

	// A name is one run per workspace, whatever the folder.
	writeFile(t, filepath.Join(docsB, "clash.yaml"), manifest("a-one", "tutorial.md"))
	res = smile(t, docsB, nil, time.Minute, "apply", "-f", "clash.yaml")
	if res.code != 1 || !strings.Contains(res.stderr, `metadata.name "a-one" is already the name of the run applied from docs/a/one.yaml`) {
		t.Errorf("apply of a second a-one in docs/b: exit %d, stderr %q", res.code, res.stderr)
	}
	if err := os.Remove(filepath.Join(docsB, "clash.yaml")); err != nil {
		t.Fatal(err)
	}

	// Nothing the runs left is something `git add` would stage.
	if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status after the runs:\n%s", st)
	}

	// The dashboard's address is printed only while it is served: not for a
	// run already finished; and by an apply --wait that serves it itself,
	// taken back when it ends. The controller is stopped from a subfolder.
	res = smile(t, docsB, nil, time.Minute, "apply", "-f", "run.yaml", "--wait")
	if res.code != 0 || res.stdout == "" || strings.Contains(res.stderr, "dashboard:") {
		t.Errorf("apply --wait of a finished, unchanged run: exit %d, it printed a dashboard address\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if res := smile(t, docsA, nil, time.Minute, "controller", "stop"); res.code != 0 || !strings.Contains(res.stdout, "stopped") {
		t.Fatalf("controller stop in docs/a: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	writeFile(t, filepath.Join(docsA, "two.md"), append(append([]byte(nil), tutorial...), "\nThat is all.\n"...))
	res = smile(t, docsA, nil, 4*time.Minute, "apply", "-f", "two.yaml", "--wait")
	if res.code != 0 || !strings.Contains(res.stderr, "(served until this apply ends)") || !strings.HasSuffix(res.stderr, "dashboard: closed\n") {
		t.Errorf("apply --wait serving its own dashboard: exit %d\nstderr:\n%s", res.code, res.stderr)
	}
	git("checkout", "docs/a/two.md")
	if st := git("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("git status after the in-process run:\n%s", st)
	}
	for _, stray := range []string{".smile", "smile-report.md"} {
		for _, dir := range []string{docsA, docsB} {
			if _, err := os.Stat(filepath.Join(dir, stray)); err == nil {
				t.Errorf("a run left %s in its tutorial's folder %s", stray, dir)
			}
		}
	}
}
