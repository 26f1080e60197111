// Package e2e holds SMILE's end-to-end tests: the real binaries, the real
// Docker engine, the real wrapper in real containers. Nothing is faked.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is the repository's top folder.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
	imageOnce sync.Once
	imageErr  error
)

// smileBinaries builds smile, smile-controller and the static smile-wrapper
// once per test binary, with the repository's own hack/build.sh.
func smileBinaries(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test: needs Docker and builds the binaries (skipped with -short)")
	}
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "smile-e2e-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("bash", filepath.Join(repoRoot(t), "hack", "build.sh"))
		cmd.Dir = repoRoot(t)
		cmd.Env = append(os.Environ(), "BIN_DIR="+binDir)
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out) + err.Error())
		}
	})
	if buildErr != nil {
		t.Fatalf("build binaries: %v", buildErr)
	}
	return binDir
}

// baseImage makes sure smile-base:latest exists (hack/build-image.sh caches).
func baseImage(t testing.TB) {
	t.Helper()
	imageOnce.Do(func() {
		cmd := exec.Command("bash", filepath.Join(repoRoot(t), "hack", "build-image.sh"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			imageErr = errors.New(string(out) + err.Error())
		}
	})
	if imageErr != nil {
		t.Fatalf("build smile-base:latest: %v", imageErr)
	}
}

// result is what a smile command did.
type result struct {
	code           int
	stdout, stderr string
}

// smile runs the smile binary in dir with extra environment and a deadline.
func smile(t testing.TB, dir string, env []string, timeout time.Duration, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(smileBinaries(t), "smile"), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		res.code = exit.ExitCode()
	case err != nil:
		t.Fatalf("smile %s: %v\nstderr:\n%s", strings.Join(args, " "), err, res.stderr)
	}
	if ctx.Err() != nil {
		t.Fatalf("smile %s did not finish within %s\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), timeout, res.stdout, res.stderr)
	}
	return res
}

// runFile is a file of run NAME's own folder in the workspace dir: where its
// state file (state.json) and reports go unless its settings say otherwise.
func runFile(dir, name, file string) string {
	return filepath.Join(dir, ".smile", "runs", name, file)
}

// copyFixture copies testdata/NAME into a fresh folder and returns it.
func copyFixture(t testing.TB, name string) string {
	t.Helper()
	return copyFixtureTo(t, name, t.TempDir())
}

// copyFixtureTo copies testdata/NAME into the folder dst and returns it.
func copyFixtureTo(t testing.TB, name, dst string) string {
	t.Helper()
	src := filepath.Join(repoRoot(t), "test", "e2e", "testdata", name)
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.OpenFile(target, os.O_CREATE|os.O_WRONLY, info.Mode())
		if err != nil {
			return err
		}
		defer out.Close()
		_, err = io.Copy(out, in)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeRunContainers(dst) })
	return dst
}

// removeRunContainers removes what a test's runs left behind (kept for
// debugging on failure by default), and the checkpoints' snapshots the runs
// of the folder kept as a cache (their state file lies under it).
func removeRunContainers(dir string) {
	out, _ := exec.Command("docker", "ps", "-aq", "--filter", "label=smile.dev/owner=smile").Output()
	for _, id := range strings.Fields(string(out)) {
		mounts, _ := exec.Command("docker", "inspect", "--format", "{{range .Mounts}}{{.Source}} {{end}}", id).Output()
		if strings.Contains(string(mounts), dir) {
			_ = exec.Command("docker", "rm", "-f", id).Run()
		}
	}
	// Every state file under the folder: the workspace's runs/NAME ones and
	// any a manifest names.
	out, _ = exec.Command("docker", "images", "-q", "--no-trunc", "--filter", "label=smile.dev/kind=snapshot").Output()
	for _, id := range strings.Fields(string(out)) {
		state, _ := exec.Command("docker", "image", "inspect", "--format", `{{index .Config.Labels "smile.dev/state-file"}}`, id).Output()
		if strings.HasPrefix(strings.TrimSpace(string(state)), dir+string(filepath.Separator)) {
			_ = exec.Command("docker", "rmi", "-f", id).Run()
		}
	}
}

// report is the part of smile-report.json the tests read.
type report struct {
	Summary struct {
		Status     string `json:"status"`
		Iterations int    `json:"iterations"`
	} `json:"summary"`
	Gaps []struct {
		ID       int    `json:"id"`
		Category string `json:"category"`
		Severity string `json:"severity"`
		Location struct {
			LineNumber int    `json:"lineNumber"`
			Quote      string `json:"quote"`
		} `json:"location"`
		Problem      string `json:"problem"`
		SuggestedFix string `json:"suggestedFix"`
		Iteration    int    `json:"iteration"`
	} `json:"gaps"`
	MentorNotes []struct {
		Line       int    `json:"line"`
		Resolution string `json:"resolution"`
		Workaround string `json:"workaround"`
	} `json:"mentorNotes"`
	AuditTrail struct {
		Commands []struct {
			Line       int    `json:"line"`
			Command    string `json:"command"`
			ExitCode   int    `json:"exitCode"`
			Workaround bool   `json:"workaround"`
		} `json:"commands"`
		Files []struct {
			Path string `json:"path"`
		} `json:"files"`
	} `json:"auditTrail"`
	Coverage *struct {
		Blocks    int `json:"blocks"`
		Exercised int `json:"exercised"`
		Skipped   int `json:"skipped"`
		SkippedBy []struct {
			Reason string `json:"reason"`
			Blocks int    `json:"blocks"`
		} `json:"skippedBy"`
	} `json:"coverage"`
}

func readReport(t testing.TB, path string) report {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read report: %v", err)
	}
	var r report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return r
}

// lineOf returns the 1-based line of the first line of file equal to text
// (trimmed), so fixtures can be edited without renumbering the tests.
func lineOf(t testing.TB, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == text {
			return i + 1
		}
	}
	t.Fatalf("%s has no line %q", file, text)
	return 0
}
