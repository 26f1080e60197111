package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// This file tests the controller on the real engine: the background start and
// hand-off of `smile apply`, the watch that turns saves into new generations,
// crash-resume after kill -9 (seed E19), and one loop per state file (E14,
// E18). Its helpers are shared by cli_test.go and precommit_test.go.

// object is what `smile get NAME -o json` prints.
type object struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name       string `json:"name"`
		UID        string `json:"uid"`
		Generation int64  `json:"generation"`
	} `json:"metadata"`
	Spec   map[string]any `json:"spec"`
	Status *status.Status `json:"status"`
}

// getObject runs `smile get NAME -o json` in dir.
func getObject(t testing.TB, dir, name string) object {
	t.Helper()
	res := smile(t, dir, nil, 30*time.Second, "get", name, "-o", "json")
	if res.code != 0 {
		t.Fatalf("smile get %s -o json: exit %d\n%s", name, res.code, res.stderr)
	}
	var o object
	if err := json.Unmarshal([]byte(res.stdout), &o); err != nil {
		t.Fatalf("smile get %s -o json printed no object (%v):\n%s", name, err, res.stdout)
	}
	return o
}

// waitObject polls `smile get NAME -o json` until ok holds.
func waitObject(t testing.TB, dir, name string, timeout time.Duration, what string, ok func(o object) bool) object {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		o := getObject(t, dir, name)
		if o.Status != nil && ok(o) {
			return o
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s; last seen: generation %d, %s", timeout, what, o.Metadata.Generation, describeStatus(o.Status))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitState polls a state file (every 20 ms) until ok holds.
func waitState(t testing.TB, path string, timeout time.Duration, what string, ok func(run *status.Run) bool) *status.Run {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last *status.Run
	for {
		if run, err := store.Load(path); err == nil {
			last = run
			if ok(run) {
				return run
			}
		}
		if time.Now().After(deadline) {
			if last == nil {
				t.Fatalf("waited %s for %s: no state file at %s", timeout, what, path)
			}
			t.Fatalf("waited %s for %s; last seen: generation %d, %s", timeout, what, last.Metadata.Generation, describeStatus(&last.Status))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func describeStatus(st *status.Status) string {
	if st == nil {
		return "no status yet"
	}
	return fmt.Sprintf("phase %s (%s: %s), iteration %d, observedGeneration %d", st.Phase, st.Reason, st.Message, st.Iteration, st.ObservedGeneration)
}

func finished(o object) bool {
	return o.Status.Phase.Terminal() && o.Status.Report != nil && o.Status.ObservedGeneration == o.Metadata.Generation
}

// alive reports whether a process exists and is not a zombie (a killed
// controller whose parent is gone may linger as one).
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false
	}
	state := data[i+2]
	return state != 'Z' && state != 'X'
}

func waitDead(t testing.TB, pid int, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for alive(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still alive after %s", pid, timeout)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// controllerInfo returns the live controller serving dir (its
// .smile/controller.json, checked against the process and its lock).
func controllerInfo(t testing.TB, dir string) store.ControllerInfo {
	t.Helper()
	info, err := store.ReadControllerInfo(dir)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, store.HomeDir, "controller.log"))
		t.Fatalf("no live controller for %s: %v\ncontroller.log:\n%s", dir, err, log)
	}
	return info
}

// stopControllers ends, when the test ends, whatever controller serves dir
// then (SIGTERM, then SIGKILL if it does not go).
func stopControllers(t testing.TB, dir string) {
	t.Cleanup(func() {
		data, err := os.ReadFile(store.ControllerInfoPath(dir))
		if err != nil {
			return
		}
		var info store.ControllerInfo
		if json.Unmarshal(data, &info) != nil || info.PID <= 0 || !alive(info.PID) {
			return
		}
		_ = syscall.Kill(info.PID, syscall.SIGTERM)
		deadline := time.Now().Add(15 * time.Second)
		for alive(info.PID) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(info.PID) {
			t.Errorf("controller %d ignored SIGTERM for 15s", info.PID)
			_ = syscall.Kill(info.PID, syscall.SIGKILL)
		}
	})
}

// killController sends SIGKILL to the controller serving dir and waits until
// it is gone and its folder lock free; it returns what the dead controller
// had published.
func killController(t testing.TB, dir string) store.ControllerInfo {
	t.Helper()
	info := controllerInfo(t, dir)
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, info.PID, 10*time.Second)
	// The main thread shows as a zombie while the other threads still exit
	// and hold the process's files (its locks, its listeners).
	deadline := time.Now().Add(10 * time.Second)
	for store.Held(store.ControllerLockPath(dir)) {
		if time.Now().After(deadline) {
			t.Fatalf("the folder lock is still held 10s after the controller %d died", info.PID)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return info
}

// startController runs `smile-controller --dir DIR` as a child of the test,
// its log appended to .smile/controller.log, and waits until it serves the
// folder. It is stopped (SIGTERM) when the test ends.
func startController(t testing.TB, dir string) store.ControllerInfo {
	t.Helper()
	log, err := os.OpenFile(filepath.Join(dir, store.HomeDir, "controller.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd := exec.Command(filepath.Join(smileBinaries(t), "smile-controller"), "--dir", dir)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it, also after a kill -9
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			t.Errorf("smile-controller %d ignored SIGTERM for 15s", cmd.Process.Pid)
			_ = cmd.Process.Kill()
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if info, err := store.ReadControllerInfo(dir); err == nil && info.PID == cmd.Process.Pid {
			return info
		}
		if !alive(cmd.Process.Pid) || time.Now().After(deadline) {
			data, _ := os.ReadFile(filepath.Join(dir, store.HomeDir, "controller.log"))
			t.Fatalf("smile-controller --dir %s did not start serving:\n%s", dir, data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// container is a container of a test's folder as docker inspect shows it.
type container struct {
	ID     string
	Name   string
	State  string
	Labels map[string]string
}

// dirContainers lists SMILE's containers that mount something under dir
// (other tests and other users of the engine have their own).
func dirContainers(t testing.TB, dir string) []container {
	t.Helper()
	out, err := exec.Command("docker", "ps", "-aq", "--no-trunc", "--filter", "label=smile.dev/owner=smile").Output()
	if err != nil {
		t.Fatalf("docker ps: %v", err)
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return nil
	}
	// A container removed between the list and the inspect makes inspect
	// exit 1 but still print the others.
	data, _ := exec.Command("docker", append([]string{"inspect"}, ids...)...).Output()
	var inspected []struct {
		ID    string `json:"Id"`
		Name  string
		State struct {
			Status string
		}
		Config struct {
			Labels map[string]string
		}
		Mounts []struct {
			Source string
		}
	}
	if err := json.Unmarshal(data, &inspected); err != nil && len(data) > 0 {
		t.Fatalf("docker inspect: %v", err)
	}
	var cs []container
	for _, c := range inspected {
		for _, m := range c.Mounts {
			if m.Source == dir || strings.HasPrefix(m.Source, dir+"/") {
				cs = append(cs, container{ID: c.ID, Name: strings.TrimPrefix(c.Name, "/"), State: c.State.Status, Labels: c.Config.Labels})
				break
			}
		}
	}
	return cs
}

func containerNames(cs []container) []string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	slices.Sort(names)
	return names
}

var (
	slowImageOnce sync.Once
	slowImageErr  error
)

// slowImageName is smile-base:latest with an entrypoint that sleeps 3 s
// before it runs the wrapper, and 6 s when its work folder is read-only (a
// Mentor's): every Student and Mentor container then stays in its waiting
// phase long enough to be seen (and killed) there, the Mentor's too although
// it is prepared while the Student works. The literal Mentor alone answers
// in a fraction of a second.
const slowImageName = "smile-e2e-slow:latest"

func slowImage(t testing.TB) {
	t.Helper()
	baseImage(t)
	slowImageOnce.Do(func() {
		out, err := exec.Command("docker", "create", "smile-base:latest", "true").CombinedOutput()
		if err != nil {
			slowImageErr = fmt.Errorf("docker create: %v: %s", err, out)
			return
		}
		id := strings.TrimSpace(string(out))
		defer exec.Command("docker", "rm", "-f", id).Run()
		out, err = exec.Command("docker", "commit",
			"--change", `ENTRYPOINT ["/bin/sh", "-c", "sleep 3; f=/workspace/work/.smile-e2e-rw; if touch $f 2>/dev/null; then rm -f $f; else sleep 3; fi; exec \"$0\" \"$@\""]`,
			"--change", `CMD []`, id, slowImageName).CombinedOutput()
		if err != nil {
			slowImageErr = fmt.Errorf("docker commit: %v: %s", err, out)
		}
	})
	if slowImageErr != nil {
		t.Fatalf("build %s: %v", slowImageName, slowImageErr)
	}
}

// sampler reads a state file in a tight loop while a run goes, keeping every
// distinct content it saw and counting the reads that were not valid JSON.
type sampler struct {
	path    string
	stop    chan struct{}
	done    chan struct{}
	reads   int
	invalid []string
	samples []*status.Run
}

func sampleState(t testing.TB, path string) *sampler {
	s := &sampler{path: path, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(s.done)
		var last []byte
		for {
			select {
			case <-s.stop:
				return
			default:
			}
			data, err := os.ReadFile(path)
			if err == nil {
				s.reads++
				if !bytes.Equal(data, last) {
					last = data
					var run status.Run
					if err := json.Unmarshal(data, &run); err != nil {
						s.invalid = append(s.invalid, fmt.Sprintf("%v: %.200q", err, data))
					} else {
						s.samples = append(s.samples, &run)
					}
				}
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	t.Cleanup(s.finish)
	return s
}

// finish stops the reader; then its fields may be read.
func (s *sampler) finish() {
	select {
	case <-s.stop:
	default:
		close(s.stop)
	}
	<-s.done
}

// checkValid fails the test if any read of the state file was not valid
// JSON (a half-written file).
func (s *sampler) checkValid(t testing.TB) {
	t.Helper()
	s.finish()
	if len(s.invalid) > 0 {
		t.Errorf("the state file was not valid JSON in %d of %d reads; first: %s", len(s.invalid), s.reads, s.invalid[0])
	}
	if s.reads < 50 || len(s.samples) < 3 {
		t.Errorf("the state file was read %d times with %d distinct contents: too few to say it is never half-written", s.reads, len(s.samples))
	}
	t.Logf("state file read %d times, %d distinct valid contents, %d invalid", s.reads, len(s.samples), len(s.invalid))
}

// bgProcess is a smile command left running (get --watch, logs -f, apply --wait).
type bgProcess struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	mu     sync.Mutex
	stdout bytes.Buffer
	stderr bytes.Buffer
	done   chan struct{}
	err    error
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// smileBackground starts smile in dir and returns at once; the process is
// killed when the test ends if it still runs.
func smileBackground(t testing.TB, dir string, env []string, args ...string) *bgProcess {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &bgProcess{cancel: cancel, done: make(chan struct{})}
	p.cmd = exec.CommandContext(ctx, filepath.Join(smileBinaries(t), "smile"), args...)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout = lockedWriter{&p.mu, &p.stdout}
	p.cmd.Stderr = lockedWriter{&p.mu, &p.stderr}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cancel()
		<-p.done
	})
	return p
}

func (p *bgProcess) output() (string, string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stdout.String(), p.stderr.String()
}

// wait waits for the process to end by itself; ok is false on timeout.
func (p *bgProcess) wait(timeout time.Duration) (code int, ok bool) {
	select {
	case <-p.done:
	case <-time.After(timeout):
		return -1, false
	}
	var exit *exec.ExitError
	if errors.As(p.err, &exit) {
		return exit.ExitCode(), true
	}
	if p.err != nil {
		return -1, true
	}
	return 0, true
}

// interrupt ends the process (SIGINT, as Ctrl-C would) and waits for it.
func (p *bgProcess) interrupt() {
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.done:
	case <-time.After(10 * time.Second):
		p.cancel()
		<-p.done
	}
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// saveLikeAnEditor writes a temporary file beside path and renames it over
// path, the way vim, VS Code and most editors save.
func saveLikeAnEditor(t testing.TB, path string, data []byte) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".swp")
	writeFile(t, tmp, data)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// onePixelPNG is a valid 1x1 PNG of one colour.
func onePixelPNG(r, g, b uint8) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{r, g, b, 255})
	var buf bytes.Buffer
	_ = png.Encode(&buf, img)
	return buf.Bytes()
}

// TestControllerApply: apply without --wait starts a background controller
// and returns; applying the unchanged manifest again starts nothing, but with
// --force it runs again as a new generation; apply --wait while the controller runs hands the manifest to it and exits by the
// run's result.
func TestControllerApply(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	dir := copyFixture(t, "ctl-slow")
	stopControllers(t, dir)

	started := time.Now()
	res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml")
	if res.code != 0 || res.stdout != "smilerun.smile.dev/ctl-slow created\n" {
		t.Fatalf("apply: exit %d, stdout %q, want 0 and the created line\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	t.Logf("apply without --wait returned in %s", time.Since(started).Round(time.Millisecond))
	info := controllerInfo(t, dir)
	if info.Foreground || info.PID == os.Getpid() {
		t.Errorf("controller.json describes %+v, want a background controller", info)
	}
	if log := string(readFile(t, filepath.Join(dir, ".smile", "controller.log"))); !strings.Contains(log, "Controller ready") {
		t.Errorf(".smile/controller.log lacks the controller's start:\n%s", log)
	}

	// The run goes on without the CLI.
	done := waitObject(t, dir, "ctl-slow", 3*time.Minute, "the run to complete in the background", finished)
	if done.Status.Phase != status.PhaseCompleted || len(done.Status.Gaps) != 0 || done.Metadata.Generation != 1 {
		t.Fatalf("background run: generation %d, %s, gaps %+v", done.Metadata.Generation, describeStatus(done.Status), done.Status.Gaps)
	}
	if _, err := os.Stat(runFile(dir, "ctl-slow", "smile-report.md")); err != nil {
		t.Errorf("the background run wrote no report: %v", err)
	}
	containersBefore := containerNames(dirContainers(t, dir))

	res = smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml")
	if res.code != 0 || res.stdout != "smilerun.smile.dev/ctl-slow unchanged\n" {
		t.Fatalf("second apply: exit %d, stdout %q, want the unchanged line\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	if again := controllerInfo(t, dir); again.PID != info.PID || again.Instance != info.Instance {
		t.Errorf("the second apply replaced the controller: %d/%s, then %d/%s", info.PID, info.Instance, again.PID, again.Instance)
	}
	time.Sleep(1500 * time.Millisecond) // what would start, starts within this
	after := getObject(t, dir, "ctl-slow")
	if after.Metadata.Generation != done.Metadata.Generation || after.Status.ObservedGeneration != done.Status.ObservedGeneration ||
		len(after.Status.Timeline) != len(done.Status.Timeline) || after.Status.Phase != status.PhaseCompleted {
		t.Errorf("an unchanged apply started something: generation %d -> %d, timeline %d -> %d events, %s",
			done.Metadata.Generation, after.Metadata.Generation, len(done.Status.Timeline), len(after.Status.Timeline), describeStatus(after.Status))
	}
	if got := containerNames(dirContainers(t, dir)); !slices.Equal(got, containersBefore) {
		t.Errorf("an unchanged apply changed the containers: %v -> %v", containersBefore, got)
	}

	// apply --force runs the unchanged run again, as a new generation, and
	// --wait follows that generation to its end (not the old verdict).
	res = smile(t, dir, nil, 4*time.Minute, "apply", "-f", "run.yaml", "--force", "--wait")
	if res.code != 0 || !strings.Contains(res.stdout, "smilerun.smile.dev/ctl-slow configured\n") {
		t.Fatalf("apply --force --wait: exit %d, stdout %q, want 0 and the configured line\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	forced := getObject(t, dir, "ctl-slow")
	if forced.Metadata.Generation != done.Metadata.Generation+1 || forced.Status.ObservedGeneration != forced.Metadata.Generation ||
		forced.Status.Phase != status.PhaseCompleted {
		t.Errorf("apply --force: generation %d -> %d (observed %d), %s; want the next generation, completed",
			done.Metadata.Generation, forced.Metadata.Generation, forced.Status.ObservedGeneration, describeStatus(forced.Status))
	}

	// apply --wait while the controller runs: it hands off (no controller of
	// its own: no .smile/smile.log) and exits by the result.
	res = smile(t, dir, nil, 4*time.Minute, "apply", "-f", "gap.yaml", "--wait")
	line := lineOf(t, filepath.Join(dir, "gap.md"), "$ ./hello.sh")
	if res.code != 2 {
		t.Fatalf("apply --wait of a tutorial with a gap: exit %d, want 2\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"smilerun.smile.dev/ctl-slow-gap created\n", fmt.Sprintf("line %d [major/permission_denied]", line),
		"report: " + filepath.Join(dir, "gap-report", "smile-report.md")} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("apply --wait stdout lacks %q:\n%s", want, res.stdout)
		}
	}
	if !strings.Contains(res.stderr, "dashboard: http://"+info.APIAddr+"/") {
		t.Errorf("apply --wait did not follow the running controller (%s):\n%s", info.APIAddr, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".smile", "smile.log")); err == nil {
		t.Errorf("apply --wait ran a controller of its own (.smile/smile.log exists) instead of handing off")
	}
	if again := controllerInfo(t, dir); again.PID != info.PID {
		t.Errorf("apply --wait replaced the controller %d by %d", info.PID, again.PID)
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "-o", "name")
	if res.stdout != "smilerun.smile.dev/ctl-slow\nsmilerun.smile.dev/ctl-slow-gap\n" {
		t.Errorf("get -o name after two applies:\n%s", res.stdout)
	}
}

// TestControllerWatch: while the controller runs, saving any input (the
// tutorial, also the editor way, smile.json, the manifest, an image) starts a
// new generation whose first reconcile removes the old containers; a save
// that changes nothing starts nothing.
func TestControllerWatch(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	dir := copyFixture(t, "ctl-watch")
	stopControllers(t, dir)
	res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml")
	if res.code != 0 {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	tutorial := filepath.Join(dir, "tutorial.md")
	manifest := filepath.Join(dir, "run.yaml")
	config := filepath.Join(dir, "smile.json")
	picture := filepath.Join(dir, "images", "plan.png")

	// running waits until generation gen's Student container runs.
	running := func(t *testing.T, gen int64) container {
		t.Helper()
		var c container
		waitObject(t, dir, "ctl-watch", 2*time.Minute, fmt.Sprintf("generation %d's Student to run", gen), func(o object) bool {
			if o.Metadata.Generation != gen || o.Status.ObservedGeneration != gen || o.Status.Phase != status.PhaseWaitingForStudent {
				return false
			}
			for _, dc := range dirContainers(t, dir) {
				if strings.Contains(dc.Name, fmt.Sprintf("-g%d-i1-student", gen)) && dc.State == "running" {
					c = dc
					return true
				}
			}
			return false
		})
		return c
	}

	gen := int64(1)
	saves := []struct {
		name string
		save func(t *testing.T)
	}{
		{"tutorial", func(t *testing.T) {
			writeFile(t, tutorial, append(readFile(t, tutorial), "\nOne more sentence.\n"...))
		}},
		{"tutorial-renamed-over", func(t *testing.T) {
			saveLikeAnEditor(t, tutorial, append(readFile(t, tutorial), "\nAnd another.\n"...))
		}},
		{"smile.json", func(t *testing.T) {
			writeFile(t, config, []byte(`{"maxIterations": 3, "studentBehavior": {"timeoutSeconds": 120}}`+"\n"))
		}},
		{"manifest", func(t *testing.T) {
			writeFile(t, manifest, bytes.Replace(readFile(t, manifest), []byte("timeout: 600"), []byte("timeout: 700"), 1))
		}},
		{"manifest-renamed-over", func(t *testing.T) {
			saveLikeAnEditor(t, manifest, bytes.Replace(readFile(t, manifest), []byte("timeout: 700"), []byte("timeout: 800"), 1))
		}},
		{"image", func(t *testing.T) {
			writeFile(t, picture, onePixelPNG(200, 100, 50))
		}},
	}
	var latencies []time.Duration
	for _, s := range saves {
		ok := t.Run(s.name, func(t *testing.T) {
			old := running(t, gen)
			saved := time.Now()
			s.save(t)
			next := waitObject(t, dir, "ctl-watch", 30*time.Second, fmt.Sprintf("generation %d after saving the %s", gen+1, s.name), func(o object) bool {
				return o.Metadata.Generation > gen
			})
			latency := time.Since(saved)
			latencies = append(latencies, latency)
			t.Logf("save of the %s -> generation %d seen by smile get after %s", s.name, next.Metadata.Generation, latency.Round(time.Millisecond))
			if next.Metadata.Generation != gen+1 {
				t.Errorf("one save made generation %d -> %d, want one new generation", gen, next.Metadata.Generation)
			}
			gen = next.Metadata.Generation
			waitObject(t, dir, "ctl-watch", 30*time.Second, "status.observedGeneration to follow", func(o object) bool {
				return o.Status.ObservedGeneration == gen
			})
			deadline := time.Now().Add(30 * time.Second)
			for {
				var left []string
				for _, c := range dirContainers(t, dir) {
					if c.ID == old.ID || strings.Contains(c.Name, fmt.Sprintf("-g%d-", gen-1)) {
						left = append(left, c.Name+" ("+c.State+")")
					}
				}
				if len(left) == 0 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the old generation's containers are still there: %v", left)
				}
				time.Sleep(100 * time.Millisecond)
			}
			running(t, gen) // the new run is going
		})
		if !ok {
			return
		}
	}
	slices.Sort(latencies)
	t.Logf("save -> new generation (polling smile get): min %s, max %s over %d saves",
		latencies[0].Round(time.Millisecond), latencies[len(latencies)-1].Round(time.Millisecond), len(latencies))

	t.Run("saves-that-change-nothing", func(t *testing.T) {
		c := running(t, gen)
		before := getObject(t, dir, "ctl-watch")
		writeFile(t, tutorial, readFile(t, tutorial))        // the same bytes
		saveLikeAnEditor(t, tutorial, readFile(t, tutorial)) // the same bytes, renamed over
		saveLikeAnEditor(t, config, readFile(t, config))
		writeFile(t, picture, readFile(t, picture))
		now := time.Now() // touch
		if err := os.Chtimes(manifest, now, now); err != nil {
			t.Fatal(err)
		}
		// A comment is not an input (spec.Digest): editing it changes nothing.
		writeFile(t, manifest, append(readFile(t, manifest), "# a comment only\n"...))
		time.Sleep(2 * time.Second) // 20 debounce periods
		after := getObject(t, dir, "ctl-watch")
		if after.Metadata.Generation != gen || after.Status.ObservedGeneration != gen {
			t.Errorf("saves that change nothing made generation %d -> %d (observed %d)", gen, after.Metadata.Generation, after.Status.ObservedGeneration)
		}
		if len(after.Status.Timeline) != len(before.Status.Timeline) {
			t.Errorf("saves that change nothing added events: %+v", after.Status.Timeline[len(before.Status.Timeline):])
		}
		still := false
		for _, dc := range dirContainers(t, dir) {
			still = still || dc.ID == c.ID && dc.State == "running"
		}
		if !still {
			t.Errorf("saves that change nothing replaced the Student's container %s", c.Name)
		}
	})
}

// TestControllerResume kills the controller with SIGKILL at each waiting
// phase (seed E19) and starts it again: the dead instance's containers are
// removed, the run carries on from its last completed transition and
// completes, nothing it had recorded is lost, and the state file is valid
// JSON at every read.
func TestControllerResume(t *testing.T) {
	smileBinaries(t)
	slowImage(t)
	t.Parallel()
	for _, tc := range []struct {
		phase   status.Phase
		restart string // how the controller comes back
	}{
		{status.PhaseWaitingForStudent, "apply"},
		{status.PhaseWaitingForMentor, "smile-controller"},
	} {
		t.Run(string(tc.phase), func(t *testing.T) {
			t.Parallel()
			dir := copyFixture(t, "ctl-mentor")
			stopControllers(t, dir)
			state := runFile(dir, "ctl-mentor", "state.json")
			samples := sampleState(t, state)
			if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
				t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
			}
			first := controllerInfo(t, dir)
			waitState(t, state, 2*time.Minute, string(tc.phase), func(run *status.Run) bool {
				return run.Status.Phase == tc.phase && run.Status.Attempt != nil
			})
			dead := killController(t, dir)
			killed, err := store.Load(state) // the last completed transition
			if err != nil {
				t.Fatal(err)
			}
			if killed.Status.Phase != tc.phase {
				t.Fatalf("killed in phase %s, want %s", killed.Status.Phase, tc.phase)
			}
			orphans := 0
			for _, c := range dirContainers(t, dir) {
				if c.Labels["smile.dev/instance"] == dead.Instance {
					orphans++
				}
			}
			if orphans == 0 {
				t.Fatalf("no container of the killed controller %s is left: nothing to test", dead.Instance)
			}

			var second store.ControllerInfo
			switch tc.restart {
			case "apply":
				res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml")
				if res.code != 0 || res.stdout != "smilerun.smile.dev/ctl-mentor unchanged\n" {
					t.Fatalf("apply after the kill: exit %d, stdout %q\n%s", res.code, res.stdout, res.stderr)
				}
				second = controllerInfo(t, dir)
			default:
				second = startController(t, dir)
			}
			if second.PID == first.PID || second.Instance == dead.Instance {
				t.Fatalf("no new controller: before %+v, after %+v", first, second)
			}
			resumed := waitState(t, state, time.Minute, "the restarted attempt", func(run *status.Run) bool {
				return run.Status.Attempt != nil && run.Status.Attempt.Instance == second.Instance
			})
			for _, c := range dirContainers(t, dir) {
				if c.Labels["smile.dev/instance"] == dead.Instance {
					t.Errorf("orphan %s of the killed controller %s is still there (%s) after the new one started its attempt", c.Name, dead.Instance, c.State)
				}
			}
			// The literal learner ran in the killed controller: it died with
			// it, and the attempt starts again in a fresh container (the
			// Mentor's, on demand: the killed one's went with the orphans).
			switch k := killed.Status.Attempt; {
			case k.OnDemand != (k.Role == status.RoleMentor):
				t.Errorf("the killed %s attempt's container on demand: %v, want it for the literal Mentor only", k.Role, k.OnDemand)
			case k.OnDemand && !resumed.Status.Attempt.OnDemand:
				t.Errorf("the resumed Mentor attempt %+v: want its container on demand again", resumed.Status.Attempt)
			case !k.OnDemand && resumed.Status.Attempt.ContainerID == k.ContainerID:
				t.Errorf("the resumed attempt kept container %s, want a fresh one", k.ContainerID)
			}
			if e := resumed.Status.Timeline[len(killed.Status.Timeline)]; e.Event != "AttemptRestarted" || !strings.Contains(e.Details, "learner ran in a controller that stopped") {
				t.Errorf("first event after the kill: %s (%s), want AttemptRestarted for the lost learner", e.Event, e.Details)
			}
			if resumed.Status.Attempt.Role != killed.Status.Attempt.Role || resumed.Status.Attempt.Iteration != killed.Status.Attempt.Iteration {
				t.Errorf("resumed %s of iteration %d, want %s of iteration %d (the step the kill interrupted)",
					resumed.Status.Attempt.Role, resumed.Status.Attempt.Iteration, killed.Status.Attempt.Role, killed.Status.Attempt.Iteration)
			}

			final := waitState(t, state, 3*time.Minute, "the resumed run to end", func(run *status.Run) bool {
				return run.Status.Phase.Terminal() && run.Status.Report != nil
			})
			samples.checkValid(t)
			checkResumed(t, dir, killed, final)
		})
	}
}

// checkResumed compares the status at the kill with the status at the end:
// the run is the same generation, and every event, history entry, mentor note
// and gap recorded before the kill is still there, once.
func checkResumed(t *testing.T, dir string, killed, final *status.Run) {
	t.Helper()
	k, f := &killed.Status, &final.Status
	if final.Metadata.UID != killed.Metadata.UID || final.Metadata.Generation != killed.Metadata.Generation {
		t.Errorf("the resumed run is %s/%d, was %s/%d: it started over instead of resuming",
			final.Metadata.UID, final.Metadata.Generation, killed.Metadata.UID, killed.Metadata.Generation)
	}
	if f.Phase != status.PhaseCompleted || f.Iteration != 2 {
		t.Errorf("resumed run ended %s, want completed in iteration 2", describeStatus(f))
	}
	if len(f.Timeline) < len(k.Timeline) {
		t.Fatalf("timeline shrank from %d to %d events", len(k.Timeline), len(f.Timeline))
	}
	for i, e := range k.Timeline {
		g := f.Timeline[i]
		if !e.Timestamp.Equal(g.Timestamp) || e.Event != g.Event || e.Iteration != g.Iteration {
			t.Errorf("timeline event %d changed: %+v -> %+v", i, e, g)
		}
	}
	if next := f.Timeline[len(k.Timeline)]; next.Event != "AttemptRestarted" || !strings.Contains(next.Details, "resuming") {
		t.Errorf("the first event after the kill is %s (%s), want AttemptRestarted: resuming ...", next.Event, next.Details)
	}
	starts := 0
	for _, e := range f.Timeline {
		if e.Event == "RunStarted" {
			starts++
		}
	}
	if starts != 1 {
		t.Errorf("the run started %d times", starts)
	}
	for i, h := range k.History {
		if i >= len(f.History) || f.History[i].Iteration != h.Iteration || f.History[i].StudentOutput.Status != h.StudentOutput.Status ||
			f.History[i].StudentOutput.Line != h.StudentOutput.Line || !f.History[i].EndedAt.Equal(h.EndedAt) {
			t.Errorf("history entry %d lost or changed: %+v", i, h)
		}
	}
	if len(f.History) != 2 || f.History[0].StudentOutput.Status != status.StudentAskMentor || f.History[1].StudentOutput.Status != status.StudentCompleted {
		t.Errorf("history has %d entries, want iteration 1 (ask_mentor) and 2 (completed) once each: %+v", len(f.History), f.History)
	}
	for i, n := range k.MentorNotes {
		if i >= len(f.MentorNotes) || f.MentorNotes[i].Answer != n.Answer || !f.MentorNotes[i].Timestamp.Equal(n.Timestamp) {
			t.Errorf("mentor note %d lost or changed: %+v", i, n)
		}
	}
	if len(f.MentorNotes) != 1 || !strings.Contains(f.MentorNotes[0].Workaround, "chmod +x") {
		t.Errorf("mentor notes %+v, want one chmod +x workaround", f.MentorNotes)
	}
	line := lineOf(t, filepath.Join(dir, "tutorial.md"), "$ ./hello.sh")
	for _, g := range k.Gaps {
		found := false
		for _, fg := range f.Gaps {
			found = found || fg.Category == g.Category && fg.Location.LineNumber == g.Location.LineNumber
		}
		if !found {
			t.Errorf("gap %s at line %d lost", g.Category, g.Location.LineNumber)
		}
	}
	if len(f.Gaps) != 1 || f.Gaps[0].Category != status.CategoryPermissionDenied || f.Gaps[0].Location.LineNumber != line {
		t.Errorf("gaps %+v, want one permission_denied at line %d", f.Gaps, line)
	}
	r := readReport(t, runFile(dir, "ctl-mentor", "smile-report.json"))
	if r.Summary.Status != "completed" || len(r.Gaps) != 1 || len(r.MentorNotes) != 1 {
		t.Errorf("report: status %s, %d gaps, %d mentor notes; want completed, 1, 1", r.Summary.Status, len(r.Gaps), len(r.MentorNotes))
	}
}

// TestControllerLock: one loop per state file (E14, E18). A second
// controller for a served folder fails and changes nothing; an apply from
// another folder whose manifest names the same state file fails with "loop
// already running"; the locks a kill -9 leaves behind do not block the next
// apply.
func TestControllerLock(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()

	t.Run("background-controller", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "ctl-watch")
		stopControllers(t, dir)
		if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
		running := waitObject(t, dir, "ctl-watch", 2*time.Minute, "the Student to run", func(o object) bool {
			return o.Status.Phase == status.PhaseWaitingForStudent
		})
		info := controllerInfo(t, dir)
		published := readFile(t, store.ControllerInfoPath(dir))

		// A second controller for the folder.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, filepath.Join(smileBinaries(t), "smile-controller"), "--dir", dir).CombinedOutput()
		if err == nil || ctx.Err() != nil {
			t.Fatalf("a second smile-controller for the folder did not fail (err %v):\n%s", err, out)
		}
		if !strings.Contains(string(out), "error: ") || !strings.Contains(string(out), "already running") {
			t.Errorf("the second controller's error does not say a controller is already running:\n%s", out)
		}
		if !bytes.Equal(readFile(t, store.ControllerInfoPath(dir)), published) || controllerInfo(t, dir).PID != info.PID {
			t.Errorf("the failed second controller changed .smile/controller.json")
		}

		// Another run of the same folder set onto the same state file,
		// through the running controller: one loop per state file (E18).
		stateFile := runFile(dir, "ctl-watch", "state.json")
		writeFile(t, filepath.Join(dir, "twin.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: twin}\nspec:\n  llmProvider: literal\n  stateFile: .smile/runs/ctl-watch/state.json\n"))
		res := smile(t, dir, nil, time.Minute, "apply", "-f", "twin.yaml")
		if res.code != 1 || res.stdout != "" || !strings.Contains(res.stderr, "loop already running") || !strings.Contains(res.stderr, "spec.stateFile") {
			t.Errorf("apply of a second run on the same state file: exit %d, stdout %q, stderr %q; want 1, nothing, loop already running naming spec.stateFile",
				res.code, res.stdout, res.stderr)
		}

		// Another folder of the same workspace (a state file outside it is
		// refused before any lock), the same absolute state file: the
		// workspace's controller refuses it, with or without --wait.
		if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(dir, "other")
		t.Cleanup(func() { removeRunContainers(other) })
		writeFile(t, filepath.Join(other, "tutorial.md"), []byte("# Other\n\n```bash\necho hi\n```\n"))
		writeFile(t, filepath.Join(other, "run.yaml"), fmt.Appendf(nil,
			"apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: intruder}\nspec:\n  llmProvider: literal\n  stateFile: %s\n", stateFile))
		before := readFile(t, stateFile)
		for _, args := range [][]string{{"apply", "-f", "run.yaml", "--wait"}, {"apply", "-f", "run.yaml"}} {
			res = smile(t, other, nil, time.Minute, args...)
			if res.code != 1 || res.stdout != "" || !strings.HasPrefix(res.stderr, "error: ") || !strings.Contains(res.stderr, "loop already running") {
				t.Errorf("%v in another folder of the workspace, on the same state file: exit %d, stdout %q, stderr %q; want 1, nothing, error: ... loop already running",
					args, res.code, res.stdout, res.stderr)
			}
		}
		if again := controllerInfo(t, dir); again.PID != info.PID {
			t.Errorf("an apply from a subfolder started controller %d beside the workspace's %d", again.PID, info.PID)
		}
		after := getObject(t, dir, "ctl-watch")
		if after.Metadata.Name != "ctl-watch" || after.Metadata.Generation != running.Metadata.Generation || after.Status.Phase != status.PhaseWaitingForStudent {
			t.Errorf("the refused applies changed the running loop: %s generation %d, %s", after.Metadata.Name, after.Metadata.Generation, describeStatus(after.Status))
		}
		if now := readFile(t, stateFile); !bytes.Contains(now, []byte(`"name": "ctl-watch"`)) || bytes.Contains(now, []byte("intruder")) {
			t.Errorf("the state file was taken over:\n%s\n(before:\n%s)", now, before)
		}
		if cs := dirContainers(t, other); len(cs) > 0 {
			t.Errorf("the refused apply started containers: %v", containerNames(cs))
		}

		// kill -9 leaves the lock files with a dead pid; the next apply works.
		dead := killController(t, dir)
		for _, lock := range []string{store.LockPath(stateFile), store.LockPath(store.ControllerLockPath(dir))} {
			if _, err := os.Stat(lock); err != nil {
				t.Errorf("lock file %s: %v", lock, err)
			}
		}
		res = smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml")
		if res.code != 0 || res.stdout != "smilerun.smile.dev/ctl-watch unchanged\n" {
			t.Fatalf("apply after kill -9: exit %d, stdout %q\n%s", res.code, res.stdout, res.stderr)
		}
		fresh := controllerInfo(t, dir)
		waitState(t, stateFile, time.Minute, "the new controller to take the run over", func(run *status.Run) bool {
			return run.Status.Attempt != nil && run.Status.Attempt.Instance == fresh.Instance
		})
		if fresh.Instance == dead.Instance {
			t.Errorf("the same instance %s serves the folder after the kill", fresh.Instance)
		}
	})

	t.Run("in-process-apply", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "ctl-slow")
		state := runFile(dir, "ctl-slow", "state.json")

		// kill -9 an apply --wait in the middle of its run...
		first := smileBackground(t, dir, nil, "apply", "-f", "run.yaml", "--wait")
		waitState(t, state, 2*time.Minute, "the Student to run", func(run *status.Run) bool {
			return run.Status.Phase == status.PhaseWaitingForStudent
		})
		info := controllerInfo(t, dir)
		if !info.Foreground || info.PID != first.cmd.Process.Pid {
			t.Errorf("controller.json %+v does not describe the apply --wait process %d", info, first.cmd.Process.Pid)
		}
		// ...and a second controller for the folder meanwhile fails.
		out, err := exec.Command(filepath.Join(smileBinaries(t), "smile-controller"), "--dir", dir).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "already running") {
			t.Errorf("smile-controller while apply --wait runs the folder: err %v\n%s", err, out)
		}
		_ = first.cmd.Process.Kill()
		if _, ok := first.wait(10 * time.Second); !ok {
			t.Fatal("apply --wait survived SIGKILL")
		}

		// The stale locks do not block the next apply --wait, which resumes.
		res := smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
		if res.code != 0 {
			t.Fatalf("apply --wait after a kill -9: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		run, err := store.Load(state)
		if err != nil {
			t.Fatal(err)
		}
		restarted := false
		for _, e := range run.Status.Timeline {
			restarted = restarted || e.Event == "AttemptRestarted"
		}
		if run.Metadata.Generation != 1 || !restarted || run.Status.Phase != status.PhaseCompleted {
			t.Errorf("after the kill, apply --wait left generation %d, %s, restarted attempt %v; want the same generation resumed and completed",
				run.Metadata.Generation, describeStatus(&run.Status), restarted)
		}
		if _, err := os.Stat(store.ControllerInfoPath(dir)); err == nil {
			t.Errorf("apply --wait left .smile/controller.json behind")
		}
	})
}
