package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/smile-loop/smile/test/browser"
)

// dashTutorial needs the Mentor once: hello.sh is never made executable, the
// literal Mentor answers with `chmod +x`, and iteration 2 completes. The
// sleep keeps iteration 1 going long enough for the browser to watch it.
const dashTutorial = "# Say hello\n" +
	"\n" +
	"Create a file named `hello.sh`:\n" +
	"\n" +
	"```bash\n" +
	"#!/bin/sh\n" +
	"echo \"hello from smile\"\n" +
	"```\n" +
	"\n" +
	"Give the machine a moment:\n" +
	"\n" +
	"```bash\n" +
	"sleep 3\n" +
	"```\n" +
	"\n" +
	"Run it:\n" +
	"\n" +
	"```console\n" +
	"$ ./hello.sh\n" +
	"hello from smile\n" +
	"```\n"

const dashManifest = `apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata: {name: dashboard}
spec:
  tutorial: tutorial.md
  llmProvider: literal
  resume: fromStart # two iterations, from the top each time (no clean replay)
`

// dashRecorder records every value the #phase element takes, from before
// the page's own script runs.
const dashRecorder = `
window.__phases = [];
document.addEventListener('DOMContentLoaded', function () {
  var el = document.getElementById('phase');
  var seen = function () {
    var v = el.getAttribute('data-phase');
    if (v && window.__phases[window.__phases.length - 1] !== v) window.__phases.push(v);
  };
  new MutationObserver(seen).observe(el, {attributes: true, childList: true, characterData: true, subtree: true});
});
`

// TestDashboardDuringALiteralRun watches a real run on the real engine in a
// real headless Chromium: the page must follow the phases, show the final
// status, mark every code block, and highlight and link every gap's line.
func TestDashboardDuringALiteralRun(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test: needs Docker, the browser's image and the binaries (skipped with -short)")
	}
	root := dashRepoRoot(t)
	bin := dashBuild(t, root)
	dashBaseImage(t, root)

	dir := t.TempDir()
	dashWrite(t, filepath.Join(dir, "tutorial.md"), dashTutorial)
	dashWrite(t, filepath.Join(dir, "run.yaml"), dashManifest)
	t.Cleanup(func() { dashRemoveContainers("dashboard") })

	// The browser starts first, so the page opens as soon as the address is
	// known: Debian's chromium in its own container (test/browser).
	browserCtx := browser.Start(t)
	if err := chromedp.Do(browserCtx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: dashRecorder})
		return err
	})); err != nil {
		t.Fatalf("prepare the browser: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "smile"), "apply", "-f", "run.yaml", "--wait", "--fail-on", "none")
	cmd.Dir = dir
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	addr := make(chan string, 1)
	errOut := &dashStderr{addr: addr}
	cmd.Stderr = errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go dashScanLog(ctx, filepath.Join(dir, ".smile", "smile.log"), addr)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var url string
	select {
	case url = <-addr:
	case err := <-exited:
		t.Fatalf("smile apply ended before printing the dashboard address: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), errOut.String())
	case <-ctx.Done():
		t.Fatal("no dashboard address within the time limit")
	}
	t.Logf("dashboard: %s", url)
	if err := chromedp.Do(browserCtx, chromedp.Navigate(url)); err != nil {
		t.Fatalf("open the dashboard: %v", err)
	}

	var runErr error
	select {
	case runErr = <-exited:
	case <-ctx.Done():
		t.Fatalf("smile apply did not finish within the time limit\nstderr:\n%s", errOut.String())
	}
	t.Logf("smile apply: %v\nstdout:\n%s", runErr, stdout.String())
	if runErr != nil {
		// --fail-on none: a finished loop exits 0 whatever it found.
		t.Fatalf("smile apply failed: %v\nstderr:\n%s", runErr, errOut.String())
	}
	if !strings.Contains(stdout.String(), " completed after 2 iteration(s)") {
		t.Fatalf("the run did not complete in 2 iterations:\n%s", stdout.String())
	}
	gapLines := dashGapLines(stdout.String())
	if len(gapLines) == 0 {
		t.Fatalf("the run reported no gap:\n%s", stdout.String())
	}

	// The page keeps what it was shown after the controller is gone.
	wait := func(expr string) {
		t.Helper()
		pctx, pcancel := context.WithTimeout(browserCtx, 15*time.Second)
		defer pcancel()
		if _, err := chromedp.Run(pctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
			t.Fatalf("the page never satisfied %s: %v", expr, err)
		}
	}
	eval := func(expr string, v any) {
		t.Helper()
		res, err := chromedp.Run(browserCtx, chromedp.Evaluate[string]("JSON.stringify("+expr+")"))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		if err := json.Unmarshal([]byte(res), v); err != nil {
			t.Fatalf("evaluate %s: %v (%s)", expr, err, res)
		}
	}
	wait(`document.getElementById('status').dataset.status === 'completed'`)

	var phases []string
	eval(`window.__phases`, &phases)
	t.Logf("phases seen by the page: %v", phases)
	if len(phases) < 3 || phases[len(phases)-1] != "Completed" {
		t.Errorf("the page's phases %v: want several, ending with Completed", phases)
	}
	if !slices.Contains(phases, "WaitingForMentor") && !slices.Contains(phases, "RunningMentor") {
		t.Errorf("the page never showed the Mentor's phase: %v", phases)
	}
	if i := slices.Index(phases, "WaitingForStudent"); i < 0 || i == len(phases)-1 {
		t.Errorf("the page never showed the Student at work before the end: %v", phases)
	}
	var header struct{ Phase, Status, Iteration string }
	eval(`({phase: document.getElementById('phase').textContent, status: document.getElementById('status').textContent,
		iteration: document.getElementById('iteration').textContent})`, &header)
	if header.Phase != "Completed" || header.Status != "completed" || !strings.HasPrefix(header.Iteration, "2") {
		t.Errorf("final header %+v, want Completed / completed / iteration 2", header)
	}

	var notes int
	eval(`document.querySelectorAll('#notes li .answer:not(.pending)').length`, &notes)
	if notes != 1 {
		t.Errorf("%d answered questions on the page, want the Mentor's one", notes)
	}
	for _, line := range gapLines {
		var got struct {
			Highlighted bool
			Listed      int
			Severity    string
		}
		eval(fmt.Sprintf(`({highlighted: !!document.querySelector('#tutorial [data-gap-lines~="%[1]d"].has-gap'),
			listed: document.querySelectorAll('#gaps [data-gap-line="%[1]d"]').length,
			severity: (document.querySelector('#tutorial [data-gap-lines~="%[1]d"]') || {dataset: {}}).dataset.severity || ''})`, line), &got)
		if !got.Highlighted || got.Listed == 0 || got.Severity == "" {
			t.Errorf("gap at line %d: highlighted %v, listed %d, severity %q", line, got.Highlighted, got.Listed, got.Severity)
		}
		var mark string
		eval(fmt.Sprintf(`(document.querySelector('#tutorial pre[data-gap-lines~="%d"]') || {dataset: {}}).dataset.mark || ''`, line), &mark)
		if mark != "failed" {
			t.Errorf("the code block of the gap at line %d is marked %q, want failed", line, mark)
		}
		// Clicking the gap goes to its line.
		if err := chromedp.Do(browserCtx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#gaps [data-gap-line="%d"] a[href="#L%d"]`, line, line)))); err != nil {
			t.Fatalf("click gap at line %d: %v", line, err)
		}
		wait(fmt.Sprintf(`location.hash === '#L%d' && document.querySelector('#tutorial [data-gap-lines~="%d"]').classList.contains('flash')`, line, line))
	}
	dashFinishedRun(t, eval, wait)
	dashMarks(t, eval)

	var shown int
	eval(`document.querySelectorAll('#gaps .gap-item').length`, &shown)
	if shown != len(gapLines) {
		t.Errorf("%d gaps on the page, the run reported %d", shown, len(gapLines))
	}

	png, err := chromedp.Run(browserCtx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	shot := filepath.Join(root, "test", "e2e", "artifacts", "dashboard.png")
	if err := os.MkdirAll(filepath.Dir(shot), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", shot)
}

func dashRepoRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := goruntime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// dashBuild builds smile and the static smile-wrapper beside it.
func dashBuild(t *testing.T, root string) string {
	t.Helper()
	bin := t.TempDir()
	for _, b := range []struct {
		pkg string
		env []string
	}{{"./cmd/smile", nil}, {"./cmd/smile-wrapper", []string{"CGO_ENABLED=0"}}} {
		cmd := exec.Command("go", "build", "-o", bin, b.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), b.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}
	return bin
}

// dashBaseImage makes sure smile-base:latest exists (the script caches).
func dashBaseImage(t *testing.T, root string) {
	t.Helper()
	if out, err := exec.Command("docker", "version", "--format", "{{.Server.Version}}").CombinedOutput(); err != nil {
		t.Fatalf("the end-to-end test needs a running Docker engine: %v\n%s", err, out)
	}
	if exec.Command("docker", "image", "inspect", "smile-base:latest").Run() == nil {
		return
	}
	cmd := exec.Command("sh", filepath.Join(root, "hack", "build-image.sh"))
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hack/build-image.sh: %v\n%s", err, out)
	}
}

func dashRemoveContainers(run string) {
	out, err := exec.Command("docker", "ps", "-aq", "--filter", "label=smile.dev/run="+run).Output()
	if err != nil {
		return
	}
	if ids := strings.Fields(string(out)); len(ids) > 0 {
		_ = exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
	}
}

func dashWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

var dashAddrLine = regexp.MustCompile(`^dashboard: (http://\S+)`)

var dashLogAddr = regexp.MustCompile(`msg=Listening api=(\S+)`)

// dashScanLog finds the API address in the controller's log, for a smile
// that does not print it.
func dashScanLog(ctx context.Context, path string, addr chan<- string) {
	for ctx.Err() == nil {
		if data, err := os.ReadFile(path); err == nil {
			if m := dashLogAddr.FindSubmatch(data); m != nil {
				time.Sleep(500 * time.Millisecond) // let stderr's line win when there is one
				select {
				case addr <- "http://" + string(m[1]) + "/":
				default:
				}
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

var dashGapLine = regexp.MustCompile(`(?m)^\s+line (\d+) \[`)

// dashGapLines are the gap lines smile apply printed.
func dashGapLines(out string) []int {
	var lines []int
	for _, m := range dashGapLine.FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		lines = append(lines, n)
	}
	return lines
}

// dashStderr keeps smile's stderr and sends the dashboard address it
// prints on a line "dashboard: URL".
type dashStderr struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan<- string
	sent bool
}

func (w *dashStderr) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.sent {
		sc := bufio.NewScanner(bytes.NewReader(w.buf.Bytes()))
		for sc.Scan() {
			if m := dashAddrLine.FindStringSubmatch(sc.Text()); m != nil {
				w.sent = true
				select {
				case w.addr <- m[1]:
				default:
				}
				break
			}
		}
	}
	return len(p), nil
}

func (w *dashStderr) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// dashFinishedRun checks what the page shows of the finished run: its
// generation, the Mentor's notes rendered from Markdown (the literal
// Mentor's workaround is a fenced shell block) with nothing runnable, and
// links to the report files.
func dashFinishedRun(t *testing.T, eval func(string, any), wait func(string)) {
	t.Helper()
	var generation string
	eval(`document.getElementById('generation').textContent`, &generation)
	if generation != "1" {
		t.Errorf("the page shows generation %q, want 1", generation)
	}
	var notes struct {
		Code    string
		Scripts int
	}
	eval(`({code: (document.querySelector('#notes .answer .markdown pre code') || {textContent: ''}).textContent,
		scripts: document.querySelectorAll('#notes script, #notes [onerror], #notes a[href^="javascript:"]').length})`, &notes)
	if !strings.Contains(notes.Code, "chmod") || notes.Scripts != 0 {
		t.Errorf("the Mentor's notes: code block %q, %d runnable elements; want the chmod workaround as a code block and none", notes.Code, notes.Scripts)
	}
	for _, file := range []string{"markdown", "json", "audit"} {
		wait(fmt.Sprintf(`!!document.querySelector('#report li[data-report="%s"] a[href^="/api/report?file=%s"]')`, file, file))
	}
}

// dashMarks checks that every code block of the finished run is marked, and
// that the sleep's block says how long it took.
func dashMarks(t *testing.T, eval func(string, any)) {
	t.Helper()
	var marks []struct{ Line, Mark, Label string }
	eval(`Array.from(document.querySelectorAll('#tutorial pre.code-block')).map(function (pre) {
		var m = pre.previousElementSibling; return {line: pre.dataset.line, mark: pre.dataset.mark || '',
		label: m && m.classList.contains('mark') ? m.textContent : ''}; })`, &marks)
	if len(marks) != 3 {
		t.Fatalf("%d code blocks on the page, want 3: %+v", len(marks), marks)
	}
	for _, m := range marks {
		if m.Mark == "" || m.Mark == "unknown" || m.Label == "" {
			t.Errorf("the block at line %s is not marked: %+v", m.Line, m)
		}
	}
	if m := marks[1]; m.Mark != "passed" || !regexp.MustCompile(`· [3-9]\.\d s$`).MatchString(m.Label) {
		t.Errorf("the sleep's block: %+v, want passed in about 3 s", m)
	}
}

// dashWorkspace opens the address `smile get` prints in a real browser: the
// index of the workspace's runs (it used to stay on "connecting" with several
// runs), each finished run's row, and a run's page through its link: every
// code block marked, and no gap said of a run that found none.
func dashWorkspace(t *testing.T, dir string, names []string) {
	t.Helper()
	res := smile(t, dir, nil, 30*time.Second, "get")
	m := regexp.MustCompile(`dashboard: (http://\S+)`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatalf("get printed no dashboard address:\n%s", res.stderr)
	}
	ctx := browser.Start(t)
	if err := chromedp.Do(ctx, chromedp.Navigate(m[1])); err != nil {
		t.Fatalf("open %s: %v", m[1], err)
	}
	browser.WaitFor(t, ctx, fmt.Sprintf(`document.querySelectorAll('#runs-body tr[data-run][data-result="Passed"]').length === %d`, len(names)), 20*time.Second)
	var rows []string
	browser.Eval(t, ctx, `Array.from(document.querySelectorAll('#runs-body tr[data-run]')).map(function (tr) { return tr.dataset.run; })`, &rows)
	if !slices.Equal(rows, names) {
		t.Errorf("the index lists %v, want %v", rows, names)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#runs-body tr[data-run="`+names[0]+`"] a`))); err != nil {
		t.Fatal(err)
	}
	browser.WaitFor(t, ctx, `location.pathname === '/run' && document.getElementById('phase').dataset.phase === 'Completed' &&
		document.querySelectorAll('#tutorial pre.code-block').length > 0 &&
		document.querySelectorAll('#tutorial pre.code-block:not([data-mark])').length === 0`, 20*time.Second)
	var empty string
	browser.Eval(t, ctx, `document.getElementById('gaps-empty').hidden ? '' : document.getElementById('gaps-empty').textContent`, &empty)
	if !strings.HasPrefix(empty, "No gaps: ") {
		t.Errorf("a run that completed without a gap says %q", empty)
	}
	browser.Screenshot(t, ctx, "workspace-run")
}
