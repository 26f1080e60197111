// Package browser runs a real headless Chromium for the dashboard's tests:
// Debian's chromium in the image smile-browser:latest, which
// hack/build-browser-image.sh builds from the project's own base image (no
// registry), driven over the DevTools protocol with chromedp. The container
// shares the host's network, so it reaches a dashboard that listens on
// 127.0.0.1 only, and its DevTools port is bound to 127.0.0.1 as well.
package browser

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/remote"
)

// Image is the browser's image: $SMILE_BROWSER_IMAGE, as
// hack/build-browser-image.sh names it, else smile-browser:latest.
func Image() string {
	if i := os.Getenv("SMILE_BROWSER_IMAGE"); i != "" {
		return i
	}
	return "smile-browser:latest"
}

// Window is the browser window's size: screenshots of the viewport have it.
const (
	WindowWidth  = 1280
	WindowHeight = 900
)

// Start runs a headless Chromium in a container and returns a browser
// context (a tab) for chromedp; the container goes with the test. It skips
// under -short, and fails without Docker.
func Start(t testing.TB) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test: needs Docker and the smile-browser image (skipped with -short)")
	}
	EnsureImage(t)
	port := freePort(t)
	name := fmt.Sprintf("smile-browser-test-%d-%d", os.Getpid(), port)
	args := []string{"run", "-d", "--rm", "--name", name, "--network", "host", "--shm-size", "256m", Image(),
		"chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
		"--remote-debugging-address=127.0.0.1", fmt.Sprintf("--remote-debugging-port=%d", port),
		fmt.Sprintf("--window-size=%d,%d", WindowWidth, WindowHeight), "about:blank"}
	if out, err := exec.Command("docker", args...).CombinedOutput(); err != nil {
		t.Fatalf("docker run %s: %v\n%s", Image(), err, out)
	}
	t.Cleanup(func() { _ = exec.Command("docker", "rm", "-f", name).Run() })
	endpoint := fmt.Sprintf("http://127.0.0.1:%d/", port)
	waitDevTools(t, endpoint+"json/version", name)
	alloc, cancelAlloc := remote.NewAllocator(context.Background(), endpoint)
	thrown := &scriptErrors{}
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(thrown.listen))
	t.Cleanup(func() { cancel(); cancelAlloc(); thrown.check(t) })
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(WindowWidth, WindowHeight), chromedp.Navigate("about:blank")); err != nil {
		t.Fatalf("open a tab in the browser: %v", err)
	}
	return ctx
}

// scriptErrors are the exceptions the pages' scripts threw: each fails the
// test at its end (a dashboard whose script broke shows stale text that
// might still pass an assertion).
type scriptErrors struct {
	mu     sync.Mutex
	thrown []string
}

func (s *scriptErrors) listen(ev any) {
	e, ok := ev.(*cdpruntime.EventExceptionThrown)
	if !ok || e.ExceptionDetails == nil {
		return
	}
	d := e.ExceptionDetails
	what := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		what += " " + d.Exception.Description
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.thrown = append(s.thrown, fmt.Sprintf("%s (%s:%d)", what, d.URL, d.LineNumber+1))
}

func (s *scriptErrors) check(t testing.TB) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, e := range s.thrown {
		t.Errorf("the page's script threw: %s", e)
	}
}

// EnsureImage builds the browser's image (and the base image it starts
// from) unless they are up to date: the scripts cache by a recipe hash.
func EnsureImage(t testing.TB) {
	t.Helper()
	if out, err := exec.Command("docker", "version", "--format", "{{.Server.Version}}").CombinedOutput(); err != nil {
		t.Fatalf("the browser test needs a running Docker engine: %v\n%s", err, out)
	}
	root := RepoRoot()
	scripts := []string{"build-browser-image.sh"}
	if exec.Command("docker", "image", "inspect", "smile-base:latest").Run() != nil {
		scripts = append([]string{"build-image.sh"}, scripts...)
	}
	for _, s := range scripts {
		cmd := exec.Command("sh", filepath.Join(root, "hack", s))
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("hack/%s: %v\n%s", s, err, out)
		}
	}
}

// RepoRoot is the repository's root folder.
func RepoRoot() string {
	_, file, _, _ := goruntime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// waitDevTools waits for the browser's DevTools endpoint to answer.
func waitDevTools(t testing.TB, url, container string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if resp, err := http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	logs, _ := exec.Command("docker", "logs", container).CombinedOutput()
	t.Fatalf("the browser's DevTools endpoint %s never answered; its log:\n%s", url, logs)
}

// Eval evaluates a JavaScript expression in the page and decodes its value
// (through JSON) into v.
func Eval(t testing.TB, ctx context.Context, expr string, v any) {
	t.Helper()
	res, err := chromedp.Run(ctx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	if err := json.Unmarshal([]byte(res), v); err != nil {
		t.Fatalf("evaluate %s: %v (%s)", expr, err, res)
	}
}

// WaitFor waits until a JavaScript expression is true in the page. An
// evaluation that fails (the page is navigating) is tried again.
func WaitFor(t testing.TB, ctx context.Context, expr string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var err error
	for time.Now().Before(deadline) {
		ectx, cancel := context.WithTimeout(ctx, 5*time.Second)
		var ok bool
		ok, err = chromedp.Run(ectx, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body ? document.body.innerText : ''"))
	t.Fatalf("the page never satisfied %s (last error: %v); its text:\n%s", expr, err, text)
}

// Shot is a screenshot of the viewport, decoded.
type Shot struct {
	PNG   []byte
	Image image.Image
}

// Screenshot takes a screenshot of the viewport and keeps it, with the
// page's DOM, in the artifacts folder under name (.png, .html).
func Screenshot(t testing.TB, ctx context.Context, name string) Shot {
	t.Helper()
	data, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("screenshot %s is no PNG: %v", name, err)
	}
	dom, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.documentElement.outerHTML"))
	if err != nil {
		t.Fatalf("dump the DOM: %v", err)
	}
	dir := filepath.Join(RepoRoot(), "test", "browser", "artifacts")
	if err := os.MkdirAll(dir, 0o755); err == nil {
		_ = os.WriteFile(filepath.Join(dir, name+".png"), data, 0o644)
		_ = os.WriteFile(filepath.Join(dir, name+".html"), []byte(dom), 0o644)
		t.Logf("screenshot and DOM: %s.{png,html}", filepath.Join(dir, name))
	}
	return Shot{PNG: data, Image: img}
}

// Inked is the share of the screenshot's pixels that differ from its
// top-left pixel (the page's background), from 0 to 1: a blank page is 0.
func (s Shot) Inked() float64 {
	b := s.Image.Bounds()
	bg := s.Image.At(b.Min.X, b.Min.Y)
	br, bgc, bb, _ := bg.RGBA()
	n, inked := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := s.Image.At(x, y).RGBA()
			n++
			if r != br || g != bgc || bl != bb {
				inked++
			}
		}
	}
	return float64(inked) / float64(max(n, 1))
}

// InkedIn is Inked within a rectangle of the page (CSS pixels, as
// getBoundingClientRect gives them).
func (s Shot) InkedIn(x, y, w, h int) float64 {
	sub, ok := s.Image.(interface {
		SubImage(image.Rectangle) image.Image
	})
	if !ok {
		return 0
	}
	return Shot{Image: sub.SubImage(image.Rect(x, y, x+w, y+h))}.Inked()
}

// Text is the page's visible text.
func Text(t testing.TB, ctx context.Context) string {
	t.Helper()
	var s string
	Eval(t, ctx, "document.body.innerText", &s)
	return strings.TrimSpace(s)
}
