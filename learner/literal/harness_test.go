package literal_test

// These tests run the real wrapper binary in a real container: tutorial
// commands never run on the host, not even in tests. They need Docker and the
// image smile-base:latest (built by hack/build-image.sh when missing; another
// image can be named with SMILE_TEST_IMAGE). They are skipped with -short.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

var (
	wrapperBin string // the static wrapper binary, built once
	testImage  string
	setupErr   error // why the container tests cannot run
)

func TestMain(m *testing.M) {
	flag.Parse()
	var cleanup func()
	if !testing.Short() {
		cleanup, setupErr = setup()
	}
	code := m.Run()
	if cleanup != nil {
		cleanup()
	}
	os.Exit(code)
}

func setup() (func(), error) {
	if _, err := exec.LookPath("docker"); err != nil {
		return nil, fmt.Errorf("the container tests need the docker CLI (run with -short to skip them): %w", err)
	}
	dir, err := os.MkdirTemp("", "smile-wrapper-test-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	wrapperBin = filepath.Join(dir, "smile-wrapper")
	build := exec.Command("go", "build", "-o", wrapperBin, "github.com/smile-loop/smile/cmd/smile-wrapper")
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	if out, err := build.CombinedOutput(); err != nil {
		return cleanup, fmt.Errorf("build the wrapper: %v\n%s", err, out)
	}
	testImage = os.Getenv("SMILE_TEST_IMAGE")
	if testImage == "" {
		testImage = "smile-base:latest"
	}
	if err := exec.Command("docker", "image", "inspect", testImage).Run(); err != nil {
		if os.Getenv("SMILE_TEST_IMAGE") != "" {
			return cleanup, fmt.Errorf("image %s not found", testImage)
		}
		_, file, _, _ := runtime.Caller(0)
		script := filepath.Join(filepath.Dir(file), "..", "..", "hack", "build-image.sh")
		if out, err := exec.Command(script).CombinedOutput(); err != nil {
			return cleanup, fmt.Errorf("build %s with %s: %v\n%s", testImage, script, err, out)
		}
	}
	return cleanup, nil
}

// sandbox is one container's mounts: the tutorial folder, a work folder and
// a logs folder, all on the host.
type sandbox struct {
	tutorialDir, work, logs string
}

func needContainers(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs containers; skipped with -short")
	}
	if setupErr != nil {
		t.Fatal(setupErr)
	}
	t.Parallel()
}

// newSandbox puts a fixture tutorial (testdata/NAME) in a fresh tutorial
// folder, with an empty work folder.
func newSandbox(t *testing.T, fixture string) *sandbox {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", fixture))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &sandbox{tutorialDir: filepath.Join(dir, "tutorial"), work: filepath.Join(dir, "work"), logs: filepath.Join(dir, "logs")}
	for _, d := range []string{s.tutorialDir, s.work, s.logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(s.tutorialDir, "tutorial.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return s
}

// fresh returns a sandbox for the next iteration: same tutorial, new work
// and logs folders (each attempt gets a clean slate).
func (s *sandbox) fresh(t *testing.T) *sandbox {
	t.Helper()
	dir := t.TempDir()
	n := &sandbox{tutorialDir: s.tutorialDir, work: filepath.Join(dir, "work"), logs: filepath.Join(dir, "logs")}
	for _, d := range []string{n.work, n.logs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return n
}

type runOptions struct {
	workReadOnly bool
	env          []string
	mounts       []string
	args         []string // more docker run flags
	// runners and setup are smile.json's, passed in the task.
	runners map[string]string
	setup   []string
	// page is the page's front matter settings, as the controller reads
	// them into the task.
	page *spec.PageSteering
}

// run runs the wrapper on task in a container and returns result.json.
func (s *sandbox) run(t *testing.T, task wire.Task, opt runOptions) []byte {
	t.Helper()
	task.Tutorial = wire.ContainerTutorialDir + "/tutorial.md"
	if task.Attempt == "" {
		task.Attempt = fmt.Sprintf("test-%s-%d", task.Role, task.Iteration)
	}
	data, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.logs, wire.TaskFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	work := s.work + ":" + wire.ContainerWorkDir
	if opt.workReadOnly {
		work += ":ro"
	}
	args := []string{"run", "--rm", "--init",
		"-v", s.tutorialDir + ":" + wire.ContainerTutorialDir + ":ro",
		"-v", work,
		"-v", s.logs + ":" + wire.ContainerLogsDir,
		"-v", wrapperBin + ":" + wire.ContainerWrapperPath + ":ro",
		"-e", wire.EnvTask + "=" + wire.ContainerLogsDir + "/" + wire.TaskFileName,
	}
	for _, e := range opt.env {
		args = append(args, "-e", e)
	}
	for _, m := range opt.mounts {
		args = append(args, "-v", m)
	}
	args = append(args, opt.args...)
	args = append(args, testImage, wire.ContainerWrapperPath)
	var stderr bytes.Buffer
	cmd := exec.Command("docker", args...)
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	t.Logf("container ran in %v", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("wrapper failed: %v\n%s", err, stderr.String())
	}
	result, err := os.ReadFile(filepath.Join(s.logs, "result.json"))
	if err != nil {
		t.Fatalf("no result.json: %v\n%s", err, stderr.String())
	}
	return result
}

func (s *sandbox) student(t *testing.T, iteration int, b spec.StudentBehavior, notes []status.MentorNote, opt runOptions) wire.StudentResultRequest {
	t.Helper()
	task := wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: iteration, Behavior: b, MentorNotes: notes,
		Runners: opt.runners, Setup: opt.setup, Page: opt.page}
	var res wire.StudentResultRequest
	if err := json.Unmarshal(s.run(t, task, opt), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

func (s *sandbox) mentor(t *testing.T, iteration int, asked status.StudentOutput, notes []status.MentorNote) wire.MentorResultRequest {
	t.Helper()
	task := wire.Task{Run: "test", Role: status.RoleMentor, Provider: spec.ProviderLiteral, Iteration: iteration,
		Behavior: behavior(nil), MentorNotes: notes, Question: asked.QuestionForMentor, StudentOutput: &asked}
	var res wire.MentorResultRequest
	if err := json.Unmarshal(s.run(t, task, runOptions{workReadOnly: true}), &res); err != nil {
		t.Fatal(err)
	}
	return res
}

// behavior is the default behaviour with a short step timeout, changed by mod.
func behavior(mod func(*spec.StudentBehavior)) spec.StudentBehavior {
	b := spec.DefaultConfig().StudentBehavior
	b.TimeoutSeconds = 10
	if mod != nil {
		mod(&b)
	}
	return b
}

func allFlagsOff(b *spec.StudentBehavior) {
	b.AskOnMissingDependency = false
	b.AskOnAmbiguousInstruction = false
	b.AskOnCommandFailure = false
	b.AskOnTimeout = false
}

// note turns a Mentor answer into the note the controller would keep.
func note(iteration int, m wire.MentorResultRequest) status.MentorNote {
	a := m.Advice
	return status.MentorNote{Iteration: iteration, Answer: m.MentorOutput, Line: a.Line, Category: a.Category,
		Resolution: a.Resolution, Workaround: a.Workaround, SuggestedFix: a.SuggestedFix}
}

type gap struct {
	Category status.Category
	Line     int
}

func gaps(fs []status.Finding) []gap {
	var out []gap
	for _, f := range fs {
		out = append(out, gap{f.Category, f.Line})
	}
	return out
}

func dump(t *testing.T, v any) string {
	t.Helper()
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}

func commandsAt(a *status.Audit, line int) []status.AuditCommand {
	var out []status.AuditCommand
	for _, c := range a.Commands {
		if c.Line == line {
			out = append(out, c)
		}
	}
	return out
}
