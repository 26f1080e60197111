package e2e

import (
	"archive/tar"
	"bytes"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// noGlibcImage is an image without a C library's loader: like alpine (musl)
// or distroless/static, an image in which a dynamically linked (glibc, cgo)
// program cannot start.
const noGlibcImage = "smile-e2e-noglibc:latest"

// TestDynamicWrapperInAnImageWithoutGlibc: a wrapper built with cgo, in an
// image without glibc, is caught by doctor and by apply with a message that
// says why and how to build a static one, before any run starts.
func TestDynamicWrapperInAnImageWithoutGlibc(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	work := t.TempDir()
	wrapper := filepath.Join(work, "smile-wrapper")
	build := exec.Command("go", "build", "-o", wrapper, "./cmd/smile-wrapper")
	build.Dir = repoRoot(t)
	build.Env = append(build.Environ(), "CGO_ENABLED=1")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build a cgo wrapper: %v\n%s", err, out)
	}
	if interp := elfInterpreter(t, wrapper); interp == "" {
		t.Skip("CGO_ENABLED=1 built a static wrapper here: nothing to catch")
	}
	// An image with no C library at all (a folder tree and nothing else),
	// imported from a tar: no loader can be left behind by a storage driver
	// or a layout that keeps one where a deletion did not reach.
	imp := exec.Command("docker", "import", "-", noGlibcImage)
	imp.Stdin = bytes.NewReader(emptyRootTar(t))
	if out, err := imp.CombinedOutput(); err != nil {
		t.Fatalf("docker import: %v\n%s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "-f", noGlibcImage).Run() })

	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "tutorial.md"), []byte("# Hi\n\n```bash\necho hi\n```\n"))
	writeFile(t, filepath.Join(dir, "run.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: nolibc}\n"+
		"spec:\n  llmProvider: literal\n  containerImage: "+noGlibcImage+"\n"))
	want := []string{"cannot start in " + noGlibcImage, "dynamically linked", "CGO_ENABLED=0"}

	res := smile(t, dir, nil, 2*time.Minute, "doctor", "--wrapper", wrapper)
	if res.code != 1 || !strings.Contains(res.stdout, "FAIL  wrapper-run") {
		t.Errorf("doctor: exit %d, want 1 and a failed wrapper-run line\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	for _, w := range want {
		if !strings.Contains(res.stdout, w) {
			t.Errorf("doctor's output lacks %q:\n%s", w, res.stdout)
		}
	}
	res = smile(t, dir, nil, 2*time.Minute, "apply", "-f", "run.yaml", "--wait", "--wrapper", wrapper)
	if res.code != 1 || res.stdout != "" {
		t.Errorf("apply --wait: exit %d, stdout %q; want 1 and no run", res.code, res.stdout)
	}
	for _, w := range want {
		if !strings.Contains(res.stderr, w) {
			t.Errorf("apply's error lacks %q:\n%s", w, res.stderr)
		}
	}
	if res := smile(t, dir, nil, time.Minute, "doctor"); !strings.Contains(res.stdout, "ok    wrapper-run  static: starts in "+noGlibcImage) {
		t.Errorf("doctor with SMILE's own static wrapper:\n%s%s", res.stdout, res.stderr)
	}
}

// emptyRootTar is a root file system of empty folders only (tmp, workspace).
func emptyRootTar(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, dir := range []string{"tmp/", "workspace/", "etc/"} {
		if err := tw.WriteHeader(&tar.Header{Name: dir, Typeflag: tar.TypeDir, Mode: 0o1777}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
