package e2e

import (
	"context"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// TestPreCommit uses SMILE the way a documentation repository would: the real
// pre-commit tool installs the hook from .pre-commit-hooks.yaml (SMILE is
// built in pre-commit's cache), and git commit runs it. A commit of a
// tutorial with a major gap is refused and names the gap's line; the fixed
// tutorial is accepted; commits touching no tutorial do not run SMILE. After
// each, `git status` shows nothing the hook left (the repository has no
// .gitignore: SMILE's .smile/ ignores itself).
func TestPreCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: needs Docker, git, pre-commit and Go (skipped with -short)")
	}
	baseImage(t)
	preCommit := ensurePreCommit(t)
	t.Parallel()

	hookRepo, rev := hookRepository(t)
	repo := copyFixture(t, "precommit-repo")
	home := t.TempDir()
	gomodcache, _ := exec.Command("go", "env", "GOMODCACHE").Output()
	env := []string{
		"PRE_COMMIT_HOME=" + home,
		// The hook's build reuses the modules already downloaded.
		"GOMODCACHE=" + strings.TrimSpace(string(gomodcache)),
		"SKIP=", // a SKIP=smile in the caller's environment would skip the hook
	}
	run := func(timeout time.Duration, name string, args ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if ctx.Err() != nil {
			t.Fatalf("%s %s did not finish within %s:\n%s", name, strings.Join(args, " "), timeout, out)
		}
		var exit *exec.ExitError
		switch {
		case err == nil:
			return string(out), 0
		case errors.As(err, &exit):
			return string(out), exit.ExitCode()
		}
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		return "", 0
	}
	must := func(timeout time.Duration, name string, args ...string) string {
		t.Helper()
		out, code := run(timeout, name, args...)
		if code != 0 {
			t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), code, out)
		}
		return out
	}

	must(time.Minute, "git", "init", "-q", "-b", "main")
	must(time.Minute, "git", "config", "user.name", "Doc Writer")
	must(time.Minute, "git", "config", "user.email", "docs@example.com")
	must(time.Minute, "git", "config", "commit.gpgsign", "false")
	writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), fmt.Appendf(nil, `repos:
  - repo: %s
    rev: %s
    hooks:
      - id: smile
        args: [--fail-on, major]
        verbose: true
`, hookRepo, rev))
	// clean fails when the hook left something a later `git add` would
	// stage, or changed a staged file ("files were modified by this hook"):
	// every status line is then a staged file the test added itself.
	clean := func(after string, staged bool) {
		t.Helper()
		st := must(time.Minute, "git", "status", "--porcelain", "--untracked-files=all")
		for _, l := range strings.Split(strings.TrimRight(st, "\n"), "\n") {
			if l != "" && (!staged || !strings.HasPrefix(l, "A  ")) {
				t.Errorf("git status after %s is not clean:\n%s", after, st)
				return
			}
		}
	}
	must(time.Minute, preCommit, "install")
	must(10*time.Minute, preCommit, "install-hooks")
	// 1. A tutorial whose script is never made executable: a major gap.
	line := lineOf(t, filepath.Join(repo, "tutorial.md"), "$ ./hello.sh")
	must(time.Minute, "git", "add", "-A")
	started := time.Now()
	out, code := run(10*time.Minute, "git", "commit", "-m", "Add the hello tutorial") // the first run may build SMILE
	t.Logf("first hook run (with any build of SMILE it needs) took %s", time.Since(started).Round(time.Second))
	if code == 0 {
		t.Fatalf("the commit of a tutorial with a major gap was accepted:\n%s", out)
	}
	for _, want := range []string{"SMILE tutorial check", "Failed", fmt.Sprintf("tutorial.md:%d: [major/permission_denied] ", line), "    fix: "} {
		if !strings.Contains(out, want) {
			t.Errorf("the refused commit's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "smilerun.smile.dev/") {
		t.Errorf("the hook printed apply's outcome line; its output is the gaps alone:\n%s", out)
	}
	if _, code := run(time.Minute, "git", "rev-parse", "--verify", "-q", "HEAD"); code == 0 {
		t.Fatalf("a commit was made despite the hook")
	}
	clean("the refused commit", true)

	// 2. The fixed tutorial is accepted.
	tutorial := filepath.Join(repo, "tutorial.md")
	fixed := strings.Replace(string(readFile(t, tutorial)), "Run it:", "Make it executable:\n\n```bash\nchmod +x hello.sh\n```\n\nRun it:", 1)
	writeFile(t, tutorial, []byte(fixed))
	must(time.Minute, "git", "add", "-A")
	out, code = run(5*time.Minute, "git", "commit", "-m", "Add the hello tutorial")
	if code != 0 {
		t.Fatalf("the commit of the fixed tutorial was refused (exit %d):\n%s", code, out)
	}
	if strings.Contains(out, "tutorial.md:") || strings.Contains(out, "dashboard:") {
		t.Errorf("the accepted commit's hook printed more than its verdict:\n%s", out)
	}
	state := runFile(repo, "docs-hello", "state.json")
	if run, err := store.Load(state); err != nil || run.Status.Phase != status.PhaseCompleted || len(run.Status.Gaps) != 0 {
		t.Errorf("the hook's run of the fixed tutorial: %v %+v", err, run)
	}
	checked := readFile(t, state)
	clean("the accepted commit", false)

	// 3. Commits that touch no tutorial do not run SMILE: a file the hook does
	// not even match, and a Markdown file that is no run's tutorial.
	for _, c := range []struct{ file, want string }{
		{"LICENSE", "Skipped"},
		{"README.md", "nothing to check"},
	} {
		writeFile(t, filepath.Join(repo, c.file), []byte("Written by people, checked by SMILE.\n"))
		must(time.Minute, "git", "add", c.file)
		out, code := run(5*time.Minute, "git", "commit", "-m", "Add "+c.file)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("commit of %s: exit %d, want 0 and %q:\n%s", c.file, code, c.want, out)
		}
		if now := readFile(t, state); string(now) != string(checked) {
			t.Errorf("the commit of %s ran SMILE: the state file changed", c.file)
		}
		clean("the commit of "+c.file, false)
	}
	if log := must(time.Minute, "git", "log", "--format=%s"); log != "Add README.md\nAdd LICENSE\nAdd the hello tutorial\n" {
		t.Errorf("git log:\n%s", log)
	}

	// The wrapper the hook mounts into containers must start in any image with
	// a shell: it must not need the host's C library.
	var wrappers []string
	_ = filepath.WalkDir(home, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == "smile-wrapper" {
			wrappers = append(wrappers, path)
		}
		return nil
	})
	if len(wrappers) == 0 {
		t.Fatalf("no smile-wrapper under PRE_COMMIT_HOME %s: where did the hook find its wrapper?", home)
	}
	for _, w := range wrappers {
		if interp := elfInterpreter(t, w); interp != "" {
			t.Errorf("the smile-wrapper the hook built, %s, is dynamically linked (interpreter %s): "+
				"it cannot start in an image without glibc (alpine, busybox, distroless/static)", w, interp)
		}
	}
}

// elfInterpreter returns the dynamic loader an executable asks for ("" for a
// static one).
func elfInterpreter(t *testing.T, path string) string {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			data, _ := io.ReadAll(p.Open())
			return strings.TrimRight(string(data), "\x00")
		}
	}
	return ""
}

// ensurePreCommit finds the pre-commit tool, installing Debian's package if
// it is missing (hack/test.sh does the same for CI).
func ensurePreCommit(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("pre-commit"); err == nil {
		return p
	}
	install := func() ([]byte, error) {
		cmd := exec.Command("apt-get", "install", "-y", "-qq", "--no-install-recommends", "pre-commit")
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		return cmd.CombinedOutput()
	}
	out, err := install()
	if err != nil {
		_ = exec.Command("apt-get", "update", "-qq").Run()
		out, err = install()
	}
	p, lerr := exec.LookPath("pre-commit")
	if lerr != nil {
		t.Fatalf("pre-commit is not installed and apt-get install -y pre-commit failed (%v): %s", err, out)
	}
	return p
}

// hookRepository makes a git repository holding the current working tree of
// this repository (tracked and untracked files, not ignored ones), so the
// hook is built from the code under test, committed or not. It returns the
// repository and its commit.
func hookRepository(t *testing.T) (string, string) {
	t.Helper()
	root := repoRoot(t)
	out, err := exec.Command("git", "-C", root, "ls-files", "-z", "-c", "-o", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	dst := t.TempDir()
	for _, rel := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		src := filepath.Join(root, rel)
		fi, err := os.Lstat(src)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the working tree, or not a file
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-C", dst, "-c", "user.name=SMILE tests", "-c", "user.email=tests@smile.invalid", "-c", "commit.gpgsign=false"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-q", "-m", "the working tree under test")
	return dst, git("rev-parse", "HEAD")
}
