// Command benchcontroller measures the controller on the real Docker engine
// and prints one table:
//
//   - save -> new Student container running: a background controller (started
//     by `smile apply -f run.yaml`, as a user would) serves a run whose Student
//     stays busy; the manifest (then the tutorial) is saved with a changed
//     input, and the time runs until Docker reports the start of the new
//     generation's Student container (docker events, the daemon's clock).
//   - kill -9 -> resumed: while the Student works, the controller is killed
//     with SIGKILL and `smile-controller --dir` started again at once; the
//     time runs until the state file shows the resumed run's next transition,
//     and until the resumed Student container starts.
//
// Usage: go run ./hack/benchcontroller -bin DIR [-saves 20] [-kills 5]
// (hack/bench-controller.sh builds the binaries and the image first).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

const tutorial = "# Busy\n\nThe Student stays in this step until a new run replaces it.\n\n" +
	"```bash\necho working\nsleep 600\n```\n"

const manifest = `apiVersion: smile.dev/v1alpha1
kind: SmileRun
metadata: {name: %s}
spec:
  tutorial: tutorial.md
  llmProvider: literal
  timeout: %d
  studentBehavior: {timeoutSeconds: 900}
`

func main() {
	bin := flag.String("bin", "bin", "the folder holding smile, smile-controller and smile-wrapper")
	saves := flag.Int("saves", 20, "saves of each kind (manifest, tutorial)")
	kills := flag.Int("kills", 5, "kill -9 and restart cycles")
	flag.Parse()
	b := &bench{bin: *bin, name: fmt.Sprintf("bench-%d", os.Getpid())}
	err := b.run(*saves, *kills)
	b.cleanup()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type bench struct {
	bin, name, dir string
	events         *startEvents
	children       []*exec.Cmd
	gen            int
}

type row struct {
	what string
	d    []time.Duration
}

func (b *bench) run(saves, kills int) error {
	var err error
	if b.bin, err = filepath.Abs(b.bin); err != nil {
		return err
	}
	if b.dir, err = os.MkdirTemp("", "smile-bench-controller-"); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(b.dir, "tutorial.md"), []byte(tutorial), 0o644); err != nil {
		return err
	}
	if err := b.writeManifest(3600); err != nil {
		return err
	}
	if b.events, err = watchStarts(b.name); err != nil {
		return err
	}
	out, err := exec.Command(filepath.Join(b.bin, "smile"), "apply", "-f", filepath.Join(b.dir, "run.yaml")).CombinedOutput()
	if err != nil {
		return fmt.Errorf("smile apply: %v: %s", err, out)
	}
	b.gen = 1
	if _, err := b.events.wait(b.container(1), time.Time{}, time.Minute); err != nil {
		return err
	}

	var rows []row
	fmt.Fprintf(os.Stderr, "benchcontroller: %d manifest saves\n", saves)
	r := row{what: "save run.yaml -> new Student container running"}
	for i := range saves {
		d, err := b.save(func() error { return b.writeManifest(3601 + i) })
		if err != nil {
			return err
		}
		r.d = append(r.d, d)
	}
	rows = append(rows, r)

	fmt.Fprintf(os.Stderr, "benchcontroller: %d tutorial saves\n", saves)
	r = row{what: "save tutorial.md -> new Student container running"}
	for i := range saves {
		d, err := b.save(func() error {
			f, err := os.OpenFile(filepath.Join(b.dir, "tutorial.md"), os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f, "\n<!-- save %d -->\n", i)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			return err
		})
		if err != nil {
			return err
		}
		r.d = append(r.d, d)
	}
	rows = append(rows, r)

	fmt.Fprintf(os.Stderr, "benchcontroller: %d kill -9 and restart cycles\n", kills)
	next := row{what: "kill -9 -> resumed run's next transition (state file)"}
	running := row{what: "kill -9 -> resumed Student container running"}
	for range kills {
		dn, dr, err := b.killAndResume()
		if err != nil {
			return err
		}
		next.d = append(next.d, dn)
		running.d = append(running.d, dr)
	}
	rows = append(rows, next, running)
	printTable(rows)
	return nil
}

func (b *bench) writeManifest(timeout int) error {
	return os.WriteFile(filepath.Join(b.dir, "run.yaml"), fmt.Appendf(nil, manifest, b.name, timeout), 0o644)
}

// container is the Student container name of iteration 1 of a generation,
// without the state-file key in the middle.
func (b *bench) container(gen int) func(string) bool {
	suffix := fmt.Sprintf("-g%d-i1-student", gen)
	return func(name string) bool {
		return strings.HasPrefix(name, "smile-"+b.name+"-") && strings.HasSuffix(name, suffix)
	}
}

// save waits until the current Student has settled, saves, and returns the
// time from the save to the start of the next generation's Student.
func (b *bench) save(write func() error) (time.Duration, error) {
	time.Sleep(300 * time.Millisecond)
	saved := time.Now()
	if err := write(); err != nil {
		return 0, err
	}
	b.gen++
	started, err := b.events.wait(b.container(b.gen), saved, 30*time.Second)
	if err != nil {
		return 0, fmt.Errorf("generation %d: %w", b.gen, err)
	}
	return started.Sub(saved), nil
}

// stateFile is the run's own state file in its workspace (.smile/runs/NAME).
func (b *bench) stateFile() string {
	return filepath.Join(b.dir, store.HomeDir, "runs", b.name, "state.json")
}

// killAndResume kills the controller while the Student works, starts a new
// one, and times the resumed run's next transition and its Student's start.
func (b *bench) killAndResume() (next, running time.Duration, err error) {
	deadline := time.Now().Add(time.Minute)
	var before *status.Run
	for {
		run, err := store.Load(b.stateFile())
		if err == nil && run.Status.Phase == status.PhaseWaitingForStudent && run.Status.Attempt != nil {
			before = run
			break
		}
		if time.Now().After(deadline) {
			return 0, 0, errors.New("the Student never ran before the kill")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	info, err := store.ReadControllerInfo(b.dir)
	if err != nil {
		return 0, 0, err
	}
	killed := time.Now()
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		return 0, 0, err
	}
	// The main thread shows as a zombie while the others still exit and hold
	// the folder lock: a controller started before they are gone would fail.
	for alive(info.PID) || store.Held(store.ControllerLockPath(b.dir)) {
		time.Sleep(time.Millisecond)
	}
	log, err := os.OpenFile(filepath.Join(b.dir, store.HomeDir, "controller.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return 0, 0, err
	}
	cmd := exec.Command(filepath.Join(b.bin, "smile-controller"), "--dir", b.dir)
	cmd.Stdout, cmd.Stderr = log, log
	err = cmd.Start()
	log.Close()
	if err != nil {
		return 0, 0, err
	}
	b.children = append(b.children, cmd)
	go func() { _ = cmd.Wait() }() // reaps it after the next kill
	for {
		run, err := store.Load(b.stateFile())
		if err == nil && len(run.Status.Timeline) > len(before.Status.Timeline) {
			next = time.Since(killed)
			break
		}
		if time.Since(killed) > time.Minute {
			return 0, 0, errors.New("the resumed run made no transition within a minute")
		}
		time.Sleep(time.Millisecond)
	}
	started, err := b.events.wait(b.container(b.gen), killed, time.Minute)
	if err != nil {
		return 0, 0, err
	}
	return next, started.Sub(killed), nil
}

func (b *bench) cleanup() {
	if b.dir == "" {
		return
	}
	if info, err := store.ReadControllerInfo(b.dir); err == nil {
		_ = syscall.Kill(info.PID, syscall.SIGTERM)
		for i := 0; i < 1000 && alive(info.PID); i++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if b.events != nil {
		b.events.stop()
	}
	// A container a killed or stopping controller asked for may appear after
	// it is gone (the engine finishes the create): look twice.
	for i := range 2 {
		if i > 0 {
			time.Sleep(2 * time.Second)
		}
		out, _ := exec.Command("docker", "ps", "-aq", "--filter", "label=smile.dev/run="+b.name).Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			_ = exec.Command("docker", append([]string{"rm", "-f"}, ids...)...).Run()
		}
	}
	_ = os.RemoveAll(b.dir)
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(data), ')')
	return i >= 0 && i+2 < len(data) && data[i+2] != 'Z' && data[i+2] != 'X'
}

// startEvents collects the start events of a run's containers from `docker
// events`, with the daemon's timestamps.
type startEvents struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	seen []started
}

type started struct {
	name string
	at   time.Time
}

func watchStarts(run string) (*startEvents, error) {
	cmd := exec.Command("docker", "events", "--format", "{{json .}}",
		"--filter", "type=container", "--filter", "event=start", "--filter", "label=smile.dev/run="+run)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &startEvents{cmd: cmd}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var ev struct {
				Actor struct {
					Attributes map[string]string
				}
				TimeNano int64 `json:"timeNano"`
			}
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			s.mu.Lock()
			s.seen = append(s.seen, started{name: ev.Actor.Attributes["name"], at: time.Unix(0, ev.TimeNano)})
			s.mu.Unlock()
		}
	}()
	time.Sleep(200 * time.Millisecond) // let docker events subscribe
	return s, nil
}

// wait returns when a container matching name started after since.
func (s *startEvents) wait(name func(string) bool, since time.Time, timeout time.Duration) (time.Time, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		for _, e := range s.seen {
			if name(e.name) && e.at.After(since) {
				s.mu.Unlock()
				return e.at, nil
			}
		}
		s.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	return time.Time{}, fmt.Errorf("no container start seen within %s", timeout)
}

func (s *startEvents) stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

func printTable(rows []row) {
	ver, _ := exec.Command("docker", "version", "--format", "{{.Server.Version}} (API {{.Server.APIVersion}})").Output()
	fmt.Printf("SMILE controller latency: literal provider, smile-base:latest, Docker %s, %d CPUs\n\n", strings.TrimSpace(string(ver)), runtime.NumCPU())
	tw := tabwriter.NewWriter(os.Stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "MEASURE\tN\tP50\tP95\tMAX")
	for _, r := range rows {
		d := slices.Clone(r.d)
		slices.Sort(d)
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", r.what, len(d), ms(pct(d, 50)), ms(pct(d, 95)), ms(d[len(d)-1]))
	}
	tw.Flush()
}

// pct is the nearest-rank percentile of sorted durations.
func pct(d []time.Duration, p int) time.Duration {
	i := (p*len(d)+99)/100 - 1
	return d[max(0, min(i, len(d)-1))]
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%d ms", d.Round(time.Millisecond).Milliseconds())
}
