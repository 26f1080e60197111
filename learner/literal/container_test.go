package literal_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
)

func TestContainerCleanTutorialCompletes(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "clean.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s", dump(t, res))
	}
	if len(out.CommandsRun) != 9 || !strings.Contains(out.Summary, "ran 9 commands and wrote 1 file") {
		t.Errorf("commands = %q, summary = %q", out.CommandsRun, out.Summary)
	}
	if got, want := out.FilesCreated, []string{"hello/greet.sh"}; len(got) != 1 || got[0] != want[0] {
		t.Errorf("filesCreated = %v, want %v (relative to the session's folder)", got, want)
	}
	if len(res.Audit.Files) != 1 || res.Audit.Files[0].Line != 12 || res.Audit.Files[0].Action != "create" {
		t.Errorf("audit files = %+v", res.Audit.Files)
	}
	if data, err := os.ReadFile(filepath.Join(s.work, "hello", "names.txt")); err != nil || string(data) != "Ada\nGrace\n" {
		t.Errorf("names.txt = %q, %v", data, err)
	}
}

func TestContainerSessionCarriesState(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "session.md")
	// The wrapper's token must never reach a tutorial command.
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{env: []string{"SMILE_TOKEN=secret-token"}})
	out := res.StudentOutput
	want := []gap{{status.CategoryCommandFailure, 38}}
	if out.Status != status.StudentCompleted || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("want completed with only %v:\n%s", want, dump(t, res))
	}
}

func TestContainerShFallbackCarriesState(t *testing.T) {
	needContainers(t)
	// An image without bash: PATH holds only dash (as sh) and a few tools.
	bin := t.TempDir()
	for name, target := range map[string]string{"sh": "/bin/dash", "mkdir": "/bin/mkdir", "cat": "/bin/cat"} {
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	s := newSandbox(t, "session.md")
	data, _ := os.ReadFile(filepath.Join("testdata", "session.md"))
	// dash has no functions to save, no `set -o pipefail` output, no bash -c:
	// keep the part of the tutorial a POSIX sh can follow.
	md := strings.Split(string(data), "$ bash -c")[0] + "```\n\n```console\n$ echo \"$APP_ENV $VERSION\"\ntest 1.2\n$ say hi\nsaid: hi\n```\n"
	md = strings.Replace(md, "shout() { echo \"$*!\"; }\n", "", 1)
	md = strings.Replace(md, "set -o pipefail\n", "", 1)
	if err := os.WriteFile(filepath.Join(s.tutorialDir, "tutorial.md"), []byte(md), 0o644); err != nil {
		t.Fatal(err)
	}
	res := s.student(t, 1, behavior(nil), nil, runOptions{env: []string{"PATH=/opt/shonly"}, mounts: []string{bin + ":/opt/shonly:ro"}})
	if res.StudentOutput.Status != status.StudentCompleted || len(res.StudentOutput.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s\n%s", md, dump(t, res))
	}
}

func TestContainerTimeoutKillsProcessGroup(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "timeout.md")
	start := time.Now()
	res := s.student(t, 1, behavior(func(b *spec.StudentBehavior) { b.TimeoutSeconds = 2; b.AskOnTimeout = false }), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryTimeout, 12}}
	if out.Status != status.StudentCompleted || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("want completed with only %v:\n%s", want, dump(t, res))
	}
	if f := out.Findings[0]; f.Asked || !strings.Contains(f.Problem, "did not finish within 2 seconds") {
		t.Errorf("timeout finding = %+v", f)
	}
	bg := commandsAt(res.Audit, 6)
	if len(bg) != 1 || bg[0].ExitCode != 0 || bg[0].DurationMs > 1500 {
		t.Errorf("a background child kept its command alive: %+v", bg)
	}
	if timed := commandsAt(res.Audit, 12); len(timed) != 1 || !timed[0].TimedOut {
		t.Errorf("audit of the timed-out command = %+v", timed)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

func TestContainerEveryCategoryAtItsLine(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "gaps.md")
	res := s.student(t, 1, behavior(func(b *spec.StudentBehavior) { allFlagsOff(b); b.TimeoutSeconds = 2 }), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{
		{status.CategoryMissingImage, 6},
		{status.CategoryMissingDependency, 26},
		{status.CategoryPermissionDenied, 27},
		{status.CategoryMissingFile, 28},
		{status.CategoryUndefinedVariable, 29},
		{status.CategoryTimeout, 30},
		{status.CategoryCommandFailure, 31},
		{status.CategoryOutputMismatch, 38},
		// The python block at line 43 names no file: it is skipped, and
		// blamed only when `cat handler.py` finds nothing.
		{status.CategoryAmbiguousInstruction, 51},
	}
	if out.Status != status.StudentCompleted || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("findings:\n got  %v\n want %v\n%s", gaps(out.Findings), want, dump(t, res))
	}
	tutorial, _ := os.ReadFile(filepath.Join("testdata", "gaps.md"))
	for _, f := range out.Findings {
		if f.Asked || f.Problem == "" || f.SuggestedFix == "" || f.Quote != strings.TrimSpace(spec.LineText(string(tutorial), f.Line)) {
			t.Errorf("incomplete finding %+v", f)
		}
	}
	byCat := map[status.Category]status.Finding{}
	for _, f := range out.Findings {
		byCat[f.Category] = f
	}
	for cat, text := range map[status.Category]string{
		status.CategoryMissingDependency: "`jq` is not installed: bash: line 1: jq: command not found",
		status.CategoryUndefinedVariable: "a variable the tutorial never sets",
		status.CategoryMissingFile:       "`config.yaml` does not exist",
		status.CategoryOutputMismatch:    "it printed: Hello World",
	} {
		if !strings.Contains(byCat[cat].Problem, text) {
			t.Errorf("%s problem = %q, want it to contain %q", cat, byCat[cat].Problem, text)
		}
	}
	if f := byCat[status.CategoryMissingDependency]; f.ExitCode != 127 || f.Attempts != 1 || f.Command != "jq --version" {
		t.Errorf("missing dependency finding = %+v", f)
	}
	if len(commandsAt(res.Audit, 29)) != 0 {
		t.Errorf("a command with an undefined variable was run")
	}
	if f := byCat[status.CategoryAmbiguousInstruction]; f.CauseLine != 43 || f.CauseQuote != "Here is the request handler:" {
		t.Errorf("ambiguous finding does not point back at the skipped block: %+v", f)
	}
	if len(out.Skipped) != 1 || out.Skipped[0].Line != 43 || out.Skipped[0].Reason == "" {
		t.Errorf("skipped = %+v, want the python block at line 43", out.Skipped)
	}
}

func TestContainerPatience(t *testing.T) {
	needContainers(t)
	for _, tt := range []struct {
		patience spec.Patience
		attempts int
	}{
		{spec.PatienceLow, 1},
		{spec.PatienceMedium, 2},
		{spec.PatienceHigh, 4},
	} {
		t.Run(string(tt.patience), func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t, "retry.md")
			res := s.student(t, 1, behavior(func(b *spec.StudentBehavior) { b.PatienceLevel = tt.patience; b.MaxRetriesBeforeHelp = 2 }), nil, runOptions{})
			out := res.StudentOutput
			if out.Status != status.StudentAskMentor || out.Line != 5 || len(out.Findings) != 1 {
				t.Fatalf("want ask_mentor at line 5:\n%s", dump(t, res))
			}
			f := out.Findings[0]
			if f.Category != status.CategoryMissingFile || !f.Asked || f.Attempts != tt.attempts {
				t.Errorf("finding = %+v, want %d attempts", f, tt.attempts)
			}
			runs := commandsAt(res.Audit, 5)
			if len(runs) != tt.attempts || runs[len(runs)-1].Attempt != tt.attempts {
				t.Errorf("audit has %d runs of line 5, want %d", len(runs), tt.attempts)
			}
			// Line 6 does not depend on line 5: the Student goes on with it,
			// and asks about line 5 at the end.
			if at := commandsAt(res.Audit, 6); len(at) != 1 || at[0].ExitCode != 0 {
				t.Errorf("line 6, which does not need line 5, ran %d times: %s", len(at), dump(t, res))
			}
			wantQ := "At line 5 the tutorial says `cat missing.txt`; running it printed `cat: missing.txt: No such file or directory`."
			if !strings.HasPrefix(out.QuestionForMentor, wantQ) || out.CurrentStep != "line 5: cat missing.txt" {
				t.Errorf("question = %q, currentStep = %q", out.QuestionForMentor, out.CurrentStep)
			}
		})
	}
}

func TestContainerFlagOffRecordsAndContinues(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "deps.md")
	res := s.student(t, 1, behavior(func(b *spec.StudentBehavior) { b.AskOnMissingDependency = false }), nil, runOptions{})
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 1 || out.Findings[0].Asked || out.Findings[0].Line != 5 {
		t.Fatalf("want completed with one unasked finding at line 5:\n%s", dump(t, res))
	}
	if len(commandsAt(res.Audit, 6)) != 1 {
		t.Errorf("the command after the failure did not run")
	}
}

// The literal loop, end to end: the Student asks, the Mentor (in its own
// container, the work folder read-only) gives a workaround, and the next
// Student replays it before the line and completes.
func TestContainerWorkaroundLoop(t *testing.T) {
	needContainers(t)
	for _, tt := range []struct {
		fixture    string
		line       int
		category   status.Category
		workaround string
	}{
		{"chmod.md", 13, status.CategoryPermissionDenied, "chmod +x ./build.sh"},
		{"rename.md", 12, status.CategoryMissingFile, "ln -s settings.yml settings.yaml"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			t.Parallel()
			s := newSandbox(t, tt.fixture)
			first := s.student(t, 1, behavior(nil), nil, runOptions{})
			if first.StudentOutput.Status != status.StudentAskMentor || first.StudentOutput.Line != tt.line {
				t.Fatalf("iteration 1: want ask_mentor at line %d:\n%s", tt.line, dump(t, first))
			}
			m := s.mentor(t, 1, first.StudentOutput, nil)
			if m.Advice == nil || m.Advice.Resolution != status.ResolutionWorkaround || m.Advice.Workaround != tt.workaround ||
				m.Advice.Line != tt.line || m.Advice.Category != tt.category {
				t.Fatalf("mentor advice = %+v\n%s", m.Advice, m.MentorOutput)
			}
			if !strings.Contains(m.MentorOutput, "```sh\n"+tt.workaround+"\n```") {
				t.Errorf("mentor output lacks the fenced workaround:\n%s", m.MentorOutput)
			}
			notes := []status.MentorNote{note(1, m)}
			second := s.fresh(t).student(t, 2, behavior(nil), notes, runOptions{})
			if second.StudentOutput.Status != status.StudentCompleted || len(second.StudentOutput.Findings) != 0 {
				t.Fatalf("iteration 2: want completed:\n%s", dump(t, second))
			}
			at := commandsAt(second.Audit, tt.line)
			if len(at) != 2 || !at[0].Workaround || at[0].Command != tt.workaround || at[0].ExitCode != 0 || at[1].Workaround {
				t.Errorf("want the workaround replayed just before line %d: %s", tt.line, dump(t, at))
			}
			// The same workaround failing again is unresolvable for the Mentor.
			again := first.StudentOutput
			m2 := s.mentor(t, 2, again, notes)
			if m2.Advice.Resolution != status.ResolutionUnresolvable || !strings.Contains(m2.MentorOutput, "from iteration 1") {
				t.Errorf("mentor after a failed workaround: %+v\n%s", m2.Advice, m2.MentorOutput)
			}
		})
	}
}

func TestContainerMentorProposesPackageInstall(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "deps.md")
	first := s.student(t, 1, behavior(nil), nil, runOptions{})
	if first.StudentOutput.Status != status.StudentAskMentor || first.StudentOutput.Line != 5 {
		t.Fatalf("want ask_mentor at line 5:\n%s", dump(t, first))
	}
	if q := first.StudentOutput.QuestionForMentor; !strings.Contains(q, "`jq .name data.json`") || !strings.Contains(q, "jq: command not found") {
		t.Errorf("question = %q", q)
	}
	m := s.mentor(t, 1, first.StudentOutput, nil)
	want := "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends jq"
	if m.Advice == nil || m.Advice.Resolution != status.ResolutionWorkaround || m.Advice.Workaround != want {
		t.Fatalf("mentor advice = %+v\n%s", m.Advice, m.MentorOutput)
	}
	if !strings.Contains(m.Advice.SuggestedFix, "sudo apt-get install -y jq") || !strings.Contains(m.MentorOutput, "Workaround, run before line 5:\n```sh\n"+want) {
		t.Errorf("mentor output:\n%s", m.MentorOutput)
	}
}

// An output difference does not stop the Student or cost an iteration: it
// is recorded and the next step runs.
func TestContainerOutputMismatchDoesNotStop(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "output.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 1 || out.Findings[0].Asked ||
		out.Findings[0].Category != status.CategoryOutputMismatch || out.Findings[0].Line != 10 {
		t.Fatalf("want completed with the mismatch at line 10 recorded:\n%s", dump(t, res))
	}
	if len(commandsAt(res.Audit, 14)) != 1 {
		t.Errorf("the step after the mismatch did not run")
	}
}

func TestContainerUnsupportedProvider(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "clean.md")
	task := wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderClaude, Iteration: 1, Behavior: behavior(nil),
		Tutorial: wire.ContainerTutorialDir + "/tutorial.md", Attempt: "a"}
	data, _ := json.Marshal(task)
	if err := os.WriteFile(filepath.Join(s.logs, wire.TaskFileName), data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("docker", "run", "--rm", "-v", s.logs+":"+wire.ContainerLogsDir,
		"-v", wrapperBin+":"+wire.ContainerWrapperPath+":ro", "-e", wire.EnvTask+"="+wire.ContainerLogsDir+"/"+wire.TaskFileName,
		testImage, wire.ContainerWrapperPath)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(string(out), "LLM CLI not available: claude") {
		t.Fatalf("want exit 3 naming the missing CLI, got %v:\n%s", err, out)
	}
	var res wire.StudentResultRequest
	data, _ = os.ReadFile(filepath.Join(s.logs, "result.json"))
	if err := json.Unmarshal(data, &res); err != nil || res.StudentOutput.Status != status.StudentCannotComplete ||
		res.StudentOutput.Reason != "LLM CLI not available: claude" {
		t.Errorf("result = %s (%v)", data, err)
	}
}

// bridgeGateway is the host's address on Docker's default bridge, where a
// container reaches host.docker.internal.
func bridgeGateway(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("docker", "network", "inspect", "bridge", "-f", "{{range .IPAM.Config}}{{.Gateway}} {{.Subnet}}{{end}}").Output()
	if err != nil {
		t.Fatalf("inspect the bridge network: %v", err)
	}
	fields := strings.Fields(string(out))
	for _, f := range fields {
		if ip := net.ParseIP(f); ip != nil && ip.To4() != nil {
			return f
		}
	}
	for _, f := range fields {
		if _, subnet, err := net.ParseCIDR(f); err == nil && subnet.IP.To4() != nil {
			ip := subnet.IP.To4()
			return net.IPv4(ip[0], ip[1], ip[2], ip[3]+1).String()
		}
	}
	t.Fatalf("no IPv4 gateway on the bridge network: %q", out)
	return ""
}

// The wrapper talks to a controller on the host: a heartbeat when it starts
// and before each step, then the result, all with the token and attempt.
func TestContainerCallsBack(t *testing.T) {
	needContainers(t)
	var mu sync.Mutex
	var progress []wire.ProgressRequest
	var result *wire.StudentResultRequest
	var problems []string
	ln, err := net.Listen("tcp", bridgeGateway(t)+":0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Header.Get("Authorization") != "Bearer run-token" || r.Header.Get(wire.HeaderAttempt) != "test-student-1" {
			problems = append(problems, "bad headers on "+r.URL.Path)
		}
		switch r.URL.Path {
		case wire.PathProgress:
			var p wire.ProgressRequest
			_ = json.NewDecoder(r.Body).Decode(&p)
			progress = append(progress, p)
			w.WriteHeader(http.StatusNoContent)
		case wire.PathStudentResult:
			result = &wire.StudentResultRequest{}
			_ = json.NewDecoder(r.Body).Decode(result)
			_ = json.NewEncoder(w).Encode(wire.ResultResponse{Acknowledged: true, NextAction: "continue"})
		default:
			problems = append(problems, "unexpected "+r.URL.Path)
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(ln.Addr().String())

	s := newSandbox(t, "retry.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{
		env:  []string{wire.EnvCallbackURL + "=http://host.docker.internal:" + port, wire.EnvToken + "=run-token"},
		args: []string{"--add-host", "host.docker.internal:host-gateway"},
	})
	mu.Lock()
	defer mu.Unlock()
	if len(problems) > 0 {
		t.Errorf("problems: %v", problems)
	}
	if result == nil || result.StudentOutput.Status != res.StudentOutput.Status || result.StudentOutput.Line != 5 {
		t.Fatalf("posted result = %+v, result.json = %+v", result, res.StudentOutput)
	}
	var steps []string
	for _, p := range progress {
		steps = append(steps, p.Step)
	}
	want := []string{"starting", "line 4: echo start", "line 5: cat missing.txt", "line 6: echo independent"}
	if fmt.Sprint(steps) != fmt.Sprint(want) {
		t.Errorf("progress = %q, want %q", steps, want)
	}
}

// TestContainerAnnotationsSteerTheRun: an expected exit code that matches is
// no finding and one that does not is; a block runs in the folder its
// annotation names without moving the session; a step's own timeout ends it.
func TestContainerAnnotationsSteerTheRun(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "annotate.md")
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryCommandFailure, 14}, {status.CategoryTimeout, 23}}
	if fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("want exactly %v:\n%s", want, dump(t, res))
	}
	if !strings.Contains(out.Findings[0].Problem, "annotation expects 2") {
		t.Errorf("the exit-code finding does not say what was expected: %q", out.Findings[0].Problem)
	}
	if len(commandsAt(res.Audit, 27)) != 1 || out.Status != status.StudentCompleted {
		t.Errorf("the last step did not run, or the run did not complete:\n%s", dump(t, res))
	}
	if _, err := os.Stat(filepath.Join(s.work, "box", "copy.txt")); err != nil {
		t.Errorf("the cwd=box block did not write box/copy.txt: %v", err)
	}
}

// TestContainerRunnersAndSetup: smile.json's setup runs before the page and
// is said as such; a block in a language a runner names is typed into that
// program; a failed setup command is an environment finding at line 0.
func TestContainerRunnersAndSetup(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "runners.md")
	opt := runOptions{runners: map[string]string{"perl": "perl"}, setup: []string{"printf 'pears 4\\n' > stock.txt"}}
	res := s.student(t, 1, behavior(allFlagsOff), nil, opt)
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s", dump(t, res))
	}
	if len(commandsAt(res.Audit, 0)) != 1 || len(commandsAt(res.Audit, 15)) != 1 {
		t.Errorf("want the setup audited at line 0 and the perl block run at line 15:\n%s", dump(t, res))
	}
	if !slices.ContainsFunc(out.AttemptedActions, func(a string) bool { return strings.Contains(a, "setup the page did not show") }) {
		t.Errorf("the actions do not say the setup was not on the page: %q", out.AttemptedActions)
	}

	s = newSandbox(t, "runners.md")
	res = s.student(t, 1, behavior(allFlagsOff), nil, runOptions{runners: opt.runners, setup: []string{"false"}})
	want := []gap{{status.CategoryEnvironment, 0}}
	if got := gaps(res.StudentOutput.Findings); len(got) == 0 || fmt.Sprint(got[:1]) != fmt.Sprint(want) {
		t.Errorf("a failed setup: want %v first:\n%s", want, dump(t, res))
	}
}

// TestContainerReplacedShellIsSeen: a page that swaps bash for a script that
// always exits 0 is caught at the line that did it, and the walk stops there
// (the failing step after it would otherwise pass); a page that reinstalls a
// real bash goes on, said in the actions.
func TestContainerReplacedShellIsSeen(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "shell-fake.md")
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	out := res.StudentOutput
	if got := gaps(out.Findings); fmt.Sprint(got) != fmt.Sprint([]gap{{status.CategoryCommandFailure, 4}}) ||
		!strings.Contains(out.Findings[0].Problem, "no longer reports what it runs") || out.Status != status.StudentCannotComplete {
		t.Fatalf("want the swap reported at line 4 and the walk stopped:\n%s", dump(t, res))
	}
	if len(commandsAt(res.Audit, 10)) != 0 {
		t.Errorf("a step after the swap ran")
	}

	s = newSandbox(t, "shell-reinstall.md")
	res = s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	out = res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 0 ||
		!slices.ContainsFunc(out.AttemptedActions, func(a string) bool { return strings.Contains(a, "still reports exit codes") }) {
		t.Fatalf("want a reinstalled bash seen and the page completed:\n%s", dump(t, res))
	}
}

// TestContainerMentorInstallsNoLookalike: for a command no Debian package
// ships (uv), the Mentor proposes no package that is only named like it
// (libwebsockets-evlib-uv matches "*-uv"), asking apt itself.
func TestContainerMentorInstallsNoLookalike(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "lookalike.md")
	first := s.student(t, 1, behavior(nil), nil, runOptions{})
	if first.StudentOutput.Status != status.StudentAskMentor || first.StudentOutput.Line != 4 {
		t.Fatalf("want ask_mentor at line 4:\n%s", dump(t, first))
	}
	m := s.mentor(t, 1, first.StudentOutput, nil)
	if m.Advice == nil || strings.Contains(m.Advice.Workaround, "install") {
		t.Fatalf("the Mentor installs a package for uv: %+v\n%s", m.Advice, m.MentorOutput)
	}
}

// TestContainerPageSteering: the page's own front matter (`smile: runners:`
// and `setup:`, read by the controller into the task) does what smile.json's
// would, with the setup audited at the line of `smile:` and said to come
// from the page's front matter. The end-to-end run from the page itself is
// the corpus fixture annotate-front-matter.
func TestContainerPageSteering(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "runners-page.md")
	page := &spec.PageSteering{Runners: map[string]string{"perl": "perl"}, Setup: []string{`printf 'pears 4\n' > stock.txt`}, Line: 3}
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{page: page})
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s", dump(t, res))
	}
	if len(commandsAt(res.Audit, 3)) != 1 || len(commandsAt(res.Audit, 23)) != 1 {
		t.Errorf("want the setup audited at line 3 and the perl block run at line 23:\n%s", dump(t, res))
	}
	if !slices.ContainsFunc(out.AttemptedActions, func(a string) bool { return strings.Contains(a, "(the page's front matter, line 3)") }) {
		t.Errorf("the actions do not say where the setup came from: %q", out.AttemptedActions)
	}
}

// TestContainerExperimentIsNoGap: commands the page asks its reader to try
// and explain ("What happens when...?") fail on purpose or print nothing:
// their outcome is the answer, not a gap. A failure after the experiment,
// in a step the page does not ask about, is still one.
func TestContainerExperimentIsNoGap(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "experiment.md")
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	got := gaps(res.StudentOutput.Findings)
	if want := []gap{{status.CategoryMissingFile, 17}}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("gaps %v, want only %v:\n%s", got, want, dump(t, res))
	}
	if len(commandsAt(res.Audit, 7)) != 1 || len(commandsAt(res.Audit, 8)) != 1 {
		t.Errorf("the experiment's commands must run (the undefined variable too):\n%s", dump(t, res))
	}
}
