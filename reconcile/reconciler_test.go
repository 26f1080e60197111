package reconcile

import (
	"github.com/smile-loop/smile/reconcile/events"
	"github.com/smile-loop/smile/reconcile/inbox"
	"github.com/smile-loop/smile/reconcile/internal/plantest"
	"github.com/smile-loop/smile/reconcile/planner"

	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec/runfile"

	"github.com/smile-loop/smile/runtime"
	"github.com/smile-loop/smile/runtime/fake"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

const tutorialMD = "# Demo\n\nRun it:\n\n```bash\n./run.sh\n```\n"

// mapSource is a Source over a fixed set of applied runs.
type mapSource map[string]*Applied

// t0 is the clock of the harness, the planner fixtures' own.
var t0 = plantest.T0

func (m mapSource) Applied(name string) (*Applied, bool) { a, ok := m[name]; return a, ok }

// harness is a folder with a manifest and tutorial, a fake runtime and a
// reconciler with a clock the test moves.
type harness struct {
	t    *testing.T
	dir  string
	rt   *fake.Runtime
	rec  *Reconciler
	now  time.Time
	mu   sync.Mutex
	name string
}

func newHarness(t *testing.T, specYAML string) *harness {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "tutorial.md"), tutorialMD)
	write(t, filepath.Join(dir, "run.yaml"), "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: demo}\nspec:\n  llmProvider: literal\n  maxIterations: 3\n"+specYAML)
	write(t, filepath.Join(dir, "smile-wrapper"), "#!/bin/true\n")
	m, err := runfile.Load(filepath.Join(dir, "run.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, dir: dir, rt: fake.New("smile-base:latest"), now: t0, name: "demo"}
	h.rec = &Reconciler{
		Runtime:     h.rt,
		Runs:        mapSource{"demo": {Manifest: m, Dir: dir, Path: filepath.Join(dir, "run.yaml")}},
		WrapperPath: filepath.Join(dir, "smile-wrapper"),
		CallbackURL: "http://host.docker.internal:1234",
		Instance:    "test",
		StepGrace:   5 * time.Second,
		Clock:       h.clock,
		Events:      &events.Hub{},
	}
	return h
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (h *harness) clock() time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.now
}

func (h *harness) advance(d time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.now = h.now.Add(d)
}

// settle reconciles until the loop waits or is done and returns the state.
func (h *harness) settle() *status.Run {
	h.t.Helper()
	for i := 0; i < 50; i++ {
		res, err := h.rec.Reconcile(context.Background(), Request{Name: h.name})
		if err != nil {
			h.t.Fatalf("reconcile: %v", err)
		}
		if !res.Requeue {
			h.rec.containers().Wait() // the removals in the background too
			return h.state()
		}
	}
	h.t.Fatal("the loop never settled")
	return nil
}

func (h *harness) stateFile() string {
	return filepath.Join(h.dir, ".smile", "runs", "demo", "state.json")
}

// attemptLogs is the logs folder of the attempt the run waits on, as the
// layout names it.
func (h *harness) attemptLogs(run *status.Run) string {
	return newLayout(run.Metadata.Name, h.stateFile()).logsDir(run.Metadata.Generation, run.Status.Attempt.Container)
}

func (h *harness) state() *status.Run {
	h.t.Helper()
	run, err := store.Load(h.stateFile())
	if err != nil {
		h.t.Fatal(err)
	}
	return run
}

func (h *harness) box() inbox.Inbox {
	return inbox.Inbox(filepath.Join(h.dir, ".smile", "runs", "demo", "internal", "inbox"))
}

// post puts a result for the current attempt in the inbox, as the API would.
func (h *harness) postStudent(out status.StudentOutput) {
	h.t.Helper()
	run := h.state()
	if run.Status.Attempt == nil {
		h.t.Fatalf("no attempt to post for (phase %s)", run.Status.Phase)
	}
	audit := &status.Audit{Commands: []status.AuditCommand{{Iteration: run.Status.Iteration, Role: status.RoleStudent, Line: 6, Command: "./run.sh", ExitCode: 126}}}
	p := &planner.Posted{Attempt: run.Status.Attempt.Container, Role: status.RoleStudent, ReceivedAt: h.clock(),
		Student: &wire.StudentResultRequest{StudentOutput: out, Timestamp: h.clock(), Audit: audit}}
	if err := h.box().PutResult(p); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) postMentor(answer string, advice *wire.MentorAdvice) {
	h.t.Helper()
	run := h.state()
	audit := &status.Audit{Commands: []status.AuditCommand{{Iteration: run.Status.Iteration, Role: status.RoleMentor, Command: "ls -l run.sh"}}}
	p := &planner.Posted{Attempt: run.Status.Attempt.Container, Role: status.RoleMentor, ReceivedAt: h.clock(),
		Mentor: &wire.MentorResultRequest{MentorOutput: answer, Timestamp: h.clock(), Advice: advice, Audit: audit}}
	if err := h.box().PutResult(p); err != nil {
		h.t.Fatal(err)
	}
}

var askChmod = status.StudentOutput{
	Status: status.StudentAskMentor, CurrentStep: "line 6: ./run.sh", Line: 6,
	QuestionForMentor: "At line 6 `./run.sh` printed `Permission denied`. What is missing?",
	Findings: []status.Finding{{Category: status.CategoryPermissionDenied, Line: 6, Problem: "run.sh is not executable",
		Command: "./run.sh", Asked: true, SuggestedFix: "make it executable"}},
}

func TestLoopAskMentorThenComplete(t *testing.T) {
	h := newHarness(t, "")
	run := h.settle()
	if run.Status.Phase != status.PhaseWaitingForStudent || run.Status.Iteration != 1 {
		t.Fatalf("phase %s iteration %d, want WaitingForStudent 1", run.Status.Phase, run.Status.Iteration)
	}
	if run.Metadata.Generation != 1 || run.Status.ObservedGeneration != 1 {
		t.Fatalf("generation %d observed %d, want 1/1", run.Metadata.Generation, run.Status.ObservedGeneration)
	}
	student1 := run.Status.Attempt.Container
	cs, ok := h.rt.Spec(student1)
	if !ok {
		t.Fatalf("no container %s started", student1)
	}
	checkStudentSpec(t, h, cs, run)

	h.advance(10 * time.Second)
	h.postStudent(askChmod)
	run = h.settle()
	if run.Status.Phase != status.PhaseWaitingForMentor {
		t.Fatalf("phase %s, want WaitingForMentor", run.Status.Phase)
	}
	mentor := run.Status.Attempt.Container
	ms, _ := h.rt.Spec(mentor)
	for _, m := range ms.Mounts {
		if m.Target == wire.ContainerWorkDir && !m.ReadOnly {
			t.Errorf("the Mentor's work folder must be read-only")
		}
	}
	var task wire.Task
	readTask(t, h.attemptLogs(run), &task)
	if task.Role != status.RoleMentor || task.Question != askChmod.QuestionForMentor || task.StudentOutput == nil {
		t.Fatalf("mentor task = %+v", task)
	}
	if len(run.Status.Gaps) != 1 || run.Status.Gaps[0].Location.LineNumber != 6 || run.Status.Gaps[0].Location.Quote != "./run.sh" {
		t.Fatalf("gaps = %+v, want one at line 6 quoting ./run.sh", run.Status.Gaps)
	}

	h.advance(time.Second)
	h.postMentor("Line 6: run `chmod +x run.sh` first.", &wire.MentorAdvice{Line: 6, Category: "permission_denied",
		Resolution: status.ResolutionWorkaround, Workaround: "chmod +x run.sh", SuggestedFix: "Add `chmod +x run.sh` before line 6."})
	run = h.settle()
	if run.Status.Phase != status.PhaseWaitingForStudent || run.Status.Iteration != 2 {
		t.Fatalf("phase %s iteration %d, want WaitingForStudent 2", run.Status.Phase, run.Status.Iteration)
	}
	if _, ok := h.rt.Spec(student1); ok {
		if c, err := h.rt.Inspect(context.Background(), student1); err == nil {
			t.Errorf("iteration 1's container should be reset away, found %+v", c)
		}
	}
	if _, err := h.rt.Inspect(context.Background(), mentor); err == nil {
		t.Errorf("the Mentor's container should be removed once it answered")
	}
	readTask(t, h.attemptLogs(run), &task)
	if task.Role != status.RoleStudent || len(task.MentorNotes) != 1 || task.MentorNotes[0].Workaround != "chmod +x run.sh" {
		t.Fatalf("iteration 2 task should carry the mentor's note, got %+v", task)
	}
	if got := run.Status.Gaps[0].SuggestedFix; got != "Add `chmod +x run.sh` before line 6." {
		t.Errorf("gap fix = %q, want the Mentor's", got)
	}

	h.advance(time.Second)
	h.postStudent(status.StudentOutput{Status: status.StudentCompleted, CurrentStep: "end", Summary: "done"})
	run = h.settle()
	if run.Status.Phase != status.PhaseCompleted || run.Status.Report == nil {
		t.Fatalf("phase %s report %v, want Completed with a report", run.Status.Phase, run.Status.Report)
	}
	if len(run.Status.History) != 2 || run.Status.History[0].MentorOutput == nil || len(run.Status.MentorNotes) != 1 {
		t.Fatalf("history %d notes %d", len(run.Status.History), len(run.Status.MentorNotes))
	}
	if g := run.Status.Gaps[0]; g.Severity != status.SeverityMajor {
		t.Errorf("a gap the Mentor got the Student past is major, got %s", g.Severity)
	}
	left, _ := h.rt.List(context.Background(), map[string]string{runtime.LabelRun: "demo"})
	if len(left) != 0 {
		t.Errorf("containers left after success without keepOnSuccess: %v", left)
	}
	var rep map[string]any
	data, err := os.ReadFile(filepath.Join(h.dir, ".smile", "runs", "demo", "smile-report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if s := rep["summary"].(map[string]any)["status"]; s != "completed" {
		t.Errorf("report status %v", s)
	}
	if _, err := os.Stat(filepath.Join(h.dir, ".smile", "runs", "demo", "smile-audit.log")); err != nil {
		t.Errorf("no audit log: %v", err)
	}
	// The reports are the run's own, out of the tutorial's folder.
	for _, f := range []string{"smile-report.md", "smile-report.json", "smile-audit.log"} {
		if _, err := os.Stat(filepath.Join(h.dir, f)); err == nil {
			t.Errorf("%s was written into the tutorial's folder", f)
		}
	}
	for _, c := range []string{status.ConditionReady, status.ConditionUpToDate} {
		if cond := run.Status.Condition(c); cond == nil || cond.Status != status.ConditionTrue {
			t.Errorf("condition %s = %+v, want True", c, cond)
		}
	}
	// Completed with a gap: the tutorial did not pass, and the condition says
	// so, as the exit code does.
	if cond := run.Status.Condition(status.ConditionSucceeded); cond == nil || cond.Status != status.ConditionFalse ||
		cond.Reason != status.ReasonGapsFound || !strings.Contains(cond.Message, "1 gap (1 major)") {
		t.Errorf("condition Succeeded = %+v, want False/GapsFound", cond)
	}
	// Nothing more to do: a further reconcile changes nothing.
	before, _ := os.ReadFile(h.stateFile())
	h.settle()
	after, _ := os.ReadFile(h.stateFile())
	if string(before) != string(after) {
		t.Errorf("a finished run's reconcile rewrote its state")
	}
}

func checkStudentSpec(t *testing.T, h *harness, cs runtime.ContainerSpec, run *status.Run) {
	t.Helper()
	if cs.Image != "smile-base:latest" || !cs.HostGateway {
		t.Errorf("image %q hostGateway %v", cs.Image, cs.HostGateway)
	}
	want := map[string]bool{wire.ContainerTutorialDir: true, wire.ContainerWorkDir: false, wire.ContainerLogsDir: false, wire.ContainerWrapperPath: true}
	for _, m := range cs.Mounts {
		ro, ok := want[m.Target]
		if !ok {
			t.Errorf("unexpected mount %+v", m)
			continue
		}
		if m.ReadOnly != ro {
			t.Errorf("mount %s read-only %v, want %v", m.Target, m.ReadOnly, ro)
		}
		delete(want, m.Target)
	}
	if len(want) != 0 {
		t.Errorf("missing mounts %v", want)
	}
	for k, v := range map[string]string{runtime.LabelOwner: "smile", runtime.LabelRun: "demo", runtime.LabelRole: "student", runtime.LabelIteration: "1", runtime.LabelInstance: "test"} {
		if cs.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, cs.Labels[k], v)
		}
	}
	env := strings.Join(cs.Env, "\n")
	// The attempt's own token, never the run's (which only the state file,
	// hidden from every container, holds).
	tok, ok := h.rec.lookupToken(envOf(cs.Env, wire.EnvToken))
	if !ok || tok.Attempt != cs.Name || tok.Role != status.RoleStudent || strings.Contains(env, run.Status.Token) {
		t.Errorf("the container must get its attempt's token, not the run's: %+v", tok)
	}
	var task wire.Task
	readTask(t, h.attemptLogs(run), &task)
	if task.Tutorial != "/workspace/tutorial/tutorial.md" || task.Provider != spec.ProviderLiteral || task.Attempt != cs.Name {
		t.Errorf("task = %+v", task)
	}
}

func readTask(t *testing.T, logsDir string, task *wire.Task) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(logsDir, wire.TaskFileName))
	if err != nil {
		t.Fatal(err)
	}
	*task = wire.Task{}
	if err := json.Unmarshal(data, task); err != nil {
		t.Fatal(err)
	}
}

func TestUnresolvableEndsInBlockerAndKeepsContainers(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	h.postStudent(askChmod)
	h.settle()
	h.postMentor("No known fix.", &wire.MentorAdvice{Line: 6, Resolution: status.ResolutionUnresolvable})
	run := h.settle()
	if run.Status.Phase != status.PhaseBlocker || run.Status.Reason != "Unresolvable" {
		t.Fatalf("phase %s reason %s", run.Status.Phase, run.Status.Reason)
	}
	if run.Status.Gaps[0].Severity != status.SeverityCritical {
		t.Errorf("the gap a blocked run ended on is critical, got %s", run.Status.Gaps[0].Severity)
	}
	// keepOnFailure defaults to true: the Student's container stays for debugging.
	left, _ := h.rt.List(context.Background(), map[string]string{runtime.LabelRun: "demo"})
	if len(left) != 1 {
		t.Errorf("kept containers %v, want the Student's", left)
	}
	if e := run.Status.Timeline[len(run.Status.Timeline)-2]; e.Event != "ContainersKept" || len(left) == 0 || e.Details != left[0].Name {
		t.Errorf("the kept container is named in the timeline: %+v", e)
	}
	if c := run.Status.Condition(status.ConditionSucceeded); c == nil || c.Status != status.ConditionFalse || c.Reason != "Unresolvable" {
		t.Errorf("Succeeded = %+v", c)
	}
}

func TestContainerDiesWithoutResult(t *testing.T) {
	h := newHarness(t, "")
	run := h.settle()
	h.rt.SetLogs(run.Status.Attempt.Container, "smile-wrapper: cannot read task\n")
	h.rt.Exit(run.Status.Attempt.Container, 2)
	run = h.settle()
	if run.Status.Phase != status.PhaseError || run.Status.Reason != "ContainerDied" {
		t.Fatalf("phase %s reason %s", run.Status.Phase, run.Status.Reason)
	}
	if !strings.Contains(run.Status.Message, "exited with code 2") || !strings.Contains(run.Status.Message, "cannot read task") {
		t.Errorf("message %q should give the exit code and the container's last output", run.Status.Message)
	}
}

func TestGlobalTimeoutStopsTheContainer(t *testing.T) {
	h := newHarness(t, "  timeout: 30\n")
	run := h.settle()
	name := run.Status.Attempt.Container
	h.advance(31 * time.Second)
	run = h.settle()
	if run.Status.Phase != status.PhaseTimeout {
		t.Fatalf("phase %s, want Timeout", run.Status.Phase)
	}
	if c, err := h.rt.Inspect(context.Background(), name); err == nil && c.State == runtime.StateRunning {
		t.Errorf("the container must be stopped on timeout")
	}
}

func TestNewInputsStartANewGeneration(t *testing.T) {
	h := newHarness(t, "")
	run := h.settle()
	old := run.Status.Attempt.Container
	write(t, filepath.Join(h.dir, "tutorial.md"), tutorialMD+"\nMore.\n")
	run = h.settle()
	if run.Metadata.Generation != 2 || run.Status.ObservedGeneration != 2 || run.Status.Iteration != 1 {
		t.Fatalf("generation %d observed %d iteration %d", run.Metadata.Generation, run.Status.ObservedGeneration, run.Status.Iteration)
	}
	if _, err := h.rt.Inspect(context.Background(), old); err == nil {
		t.Errorf("the old generation's container %s must be removed", old)
	}
	if run.Status.Attempt == nil || run.Status.Attempt.Container == old {
		t.Errorf("a new container should run for generation 2")
	}
}

func TestResumeAfterCrash(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	h.postStudent(askChmod)
	// A new controller (new Reconciler, nothing in memory) finds the result
	// and carries on from the state file.
	h.rec = &Reconciler{Runtime: h.rt, Runs: h.rec.Runs, WrapperPath: h.rec.WrapperPath, CallbackURL: h.rec.CallbackURL,
		Instance: "second", StepGrace: 5 * time.Second, Clock: h.clock}
	run := h.settle()
	if run.Status.Phase != status.PhaseWaitingForMentor || len(run.Status.History) != 1 || len(run.Status.Gaps) != 1 {
		t.Fatalf("after resume: phase %s history %d gaps %d", run.Status.Phase, len(run.Status.History), len(run.Status.Gaps))
	}
}

// The posted results' files are not stored in the status: they follow from
// the layout, and Audits finds every one the history records, in order.
func TestAuditsFollowFromTheLayout(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	h.postStudent(askChmod)
	h.settle()
	h.postMentor("run `chmod +x run.sh` first", nil)
	h.settle()
	h.postStudent(askChmod) // iteration 2, its Mentor not answered yet
	run := h.settle()
	var got []string
	for _, a := range Audits(run, h.stateFile()) {
		for _, c := range a.Commands {
			got = append(got, fmt.Sprintf("%d %s %s", c.Iteration, c.Role, c.Command))
		}
	}
	want := []string{"1 student ./run.sh", "1 mentor ls -l run.sh", "2 student ./run.sh"}
	if !slices.Equal(got, want) {
		t.Errorf("audits %q, want %q", got, want)
	}
}

// A state file written before the derived fields were dropped (containers,
// attempt folders, result files) still resumes.
func TestResumeFromAStateFileWithDroppedFields(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	data, err := os.ReadFile(h.stateFile())
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	st := raw["status"].(map[string]any)
	st["containers"] = []string{"old-container"}
	attempt := st["attempt"].(map[string]any)
	attempt["workDir"], attempt["logsDir"] = "/old/work", "/old/logs"
	st["history"] = []map[string]any{{"iteration": 0, "studentOutput": map[string]any{"status": "ask_mentor"}, "results": []string{"/old/r.json"}}}
	if data, err = json.Marshal(raw); err != nil {
		t.Fatal(err)
	}
	write(t, h.stateFile(), string(data))
	h.postStudent(askChmod)
	run := h.settle()
	if run.Status.Phase != status.PhaseWaitingForMentor || len(run.Status.History) != 2 {
		t.Fatalf("after resume: phase %s history %d", run.Status.Phase, len(run.Status.History))
	}
	if saved, _ := os.ReadFile(h.stateFile()); strings.Contains(string(saved), "/old/") {
		t.Errorf("the dropped fields are written back: %s", saved)
	}
}

func TestMissingImage(t *testing.T) {
	h := newHarness(t, "  containerImage: nowhere:1\n")
	run := h.settle()
	if run.Status.Phase != status.PhaseError || run.Status.Reason != "ImageNotFound" {
		t.Fatalf("phase %s reason %s", run.Status.Phase, run.Status.Reason)
	}
}

func TestInvalidInputsAreRecorded(t *testing.T) {
	h := newHarness(t, "")
	h.settle()
	if err := os.Remove(filepath.Join(h.dir, "tutorial.md")); err != nil {
		t.Fatal(err)
	}
	run := h.settle()
	if run.Status.Phase != status.PhaseError || run.Status.Reason != "InvalidSpec" || !strings.Contains(run.Status.Message, "not found") {
		t.Fatalf("phase %s reason %s message %q", run.Status.Phase, run.Status.Reason, run.Status.Message)
	}
}

func TestEveryTransitionIsPublished(t *testing.T) {
	h := newHarness(t, "")
	sub := h.rec.Events.Subscribe()
	defer sub.Close()
	h.settle()
	var actions []string
	for len(sub.C) > 0 {
		actions = append(actions, string((<-sub.C).Action))
	}
	want := "NewGeneration Init Begin StudentStarted"
	if got := strings.Join(actions, " "); got != want {
		t.Errorf("published %q, want %q", got, want)
	}
}

func envOf(env []string, name string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}
