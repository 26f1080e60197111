// Package hack checks the programs under hack/ (benchmarks, the corpus
// measure, the first-contact scorer): nothing else builds or runs them, so
// without this they rot unnoticed. Every one is vetted and built here; those
// that need no Docker run here (benchevents with its smallest counts,
// firstcontact from a round's labels, benchplan, k8spause until it is told
// to end), the others run in test/e2e
// (TestHackPrograms).
package hack

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// repoRoot is the repository's top folder.
func repoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// programs are the folders under hack/ that hold a main package.
func programs(t *testing.T) []string {
	t.Helper()
	dirs, err := os.ReadDir(filepath.Join(repoRoot(t), "hack"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, _ := filepath.Glob(filepath.Join(repoRoot(t), "hack", d.Name(), "*.go"))
		for _, f := range files {
			ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.PackageClauseOnly)
			if err == nil && ast.Name.Name == "main" && !strings.HasSuffix(f, "_test.go") {
				out = append(out, d.Name())
				break
			}
		}
	}
	return out
}

func goCmd(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// Every hack/ program vets and builds.
func TestHackProgramsBuild(t *testing.T) {
	progs := programs(t)
	for _, want := range []string{"bench", "benchcheckpoint", "benchcontroller", "benchevents", "benchplan", "corpus", "firstcontact", "k8spause"} {
		if !slices.Contains(progs, want) {
			t.Errorf("hack/%s is not found as a program (found %v)", want, progs)
		}
	}
	goCmd(t, "vet", "./hack/...")
	bin := t.TempDir()
	goCmd(t, "build", "-o", bin+string(filepath.Separator), "./hack/...")
	for _, p := range progs {
		if _, err := os.Stat(filepath.Join(bin, p)); err != nil {
			t.Errorf("hack/%s built no binary: %v", p, err)
		}
	}
}

// hack/benchevents runs a controller on the in-memory runtime: it runs
// here, with its smallest counts, and prints both its tables.
func TestBenchEventsRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "benchevents")
	goCmd(t, "build", "-o", bin, "./hack/benchevents")
	cmd := exec.Command(bin, "-cycles", "1", "-clients", "1", "-concurrency", "1")
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchevents: %v\n%s", err, out)
	}
	for _, want := range []string{"Event delivery latency", "GET /api/status"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("benchevents printed no %q:\n%s", want, out)
		}
	}
}

// hack/benchplan reads pages into steps with no Docker: it runs here, one
// plan a size, and prints a row for each size with the steps it read.
func TestBenchPlanRuns(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "benchplan")
	goCmd(t, "build", "-o", bin, "./hack/benchplan")
	cmd := exec.Command(bin, "-n", "1")
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchplan: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "SIZE") {
		t.Fatalf("benchplan printed %d lines, want a header and 3 rows:\n%s", len(lines), out)
	}
	for _, row := range lines[1:] {
		if f := strings.Fields(row); len(f) < 7 || f[3] == "0" {
			t.Errorf("row %q: no steps read", row)
		}
	}
}

// hack/firstcontact scores a round from its labels with no Docker: it runs
// here on the scorer's own made-up round and prints the totals.
func TestFirstContactLabelsOnly(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "firstcontact")
	goCmd(t, "build", "-o", bin, "./hack/firstcontact")
	cmd := exec.Command(bin, "-labels-only", "-round", filepath.Join("hack", "firstcontact", "round", "testdata", "round1"))
	cmd.Dir = repoRoot(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("firstcontact: %v\n%s", err, out)
	}
	for _, want := range []string{"TOTAL (3 pages)", "precision:", "recall:", "vacuous:", "completion:"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("firstcontact printed no %q:\n%s", want, out)
		}
	}
}

// hack/k8spause, the test cluster's sandbox process, sleeps until SIGTERM
// and then exits 0 at once.
func TestK8sPauseEndsOnSIGTERM(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "k8spause")
	goCmd(t, "build", "-o", bin, "./hack/k8spause")
	cmd := exec.Command(bin)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("k8spause ended by itself: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("k8spause after SIGTERM: %v, want exit 0", err)
		}
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("k8spause still runs 5 s after SIGTERM")
	}
}
