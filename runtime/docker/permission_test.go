package docker

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/runtime"
)

// deniedSocketEnv hands the socket to this test re-run without root.
const deniedSocketEnv = "SMILE_TEST_DENIED_SOCKET"

// TestUnavailablePermissionDenied: a socket the user may not open is E08 too,
// and the message says so rather than blaming the daemon. Root opens any
// socket, so as root the test re-runs itself as nobody.
func TestUnavailablePermissionDenied(t *testing.T) {
	if sock := os.Getenv(deniedSocketEnv); sock != "" {
		checkDenied(t, sock)
		return
	}
	dir, err := os.MkdirTemp("", "smile-denied-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "docker.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	if err := os.Chmod(sock, 0); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		checkDenied(t, sock)
		return
	}

	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatalf("setpriv (util-linux) is needed to re-run this test without root: %v", err)
	}
	bin := filepath.Join(dir, "docker.test")
	if err := copyFile(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		bin, "-test.run=^TestUnavailablePermissionDenied$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), deniedSocketEnv+"="+sock)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestUnavailablePermissionDenied") {
		t.Fatalf("as nobody: %v\n%s", err, out)
	}
}

func checkDenied(t *testing.T, sock string) {
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.Info(context.Background())
	if !errors.Is(err, runtime.ErrUnavailable) || !errors.Is(err, os.ErrPermission) {
		t.Fatalf("Info = %v, want ErrUnavailable caused by os.ErrPermission", err)
	}
	want := "Docker is required but not available: permission denied on " + sock
	if !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("message %q, want it to start with %q", err, want)
	}
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
