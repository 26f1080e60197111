package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/spec/runfile"
	"github.com/smile-loop/smile/status"
)

// TestCLI checks the kubectl conventions of the smile command line on real
// runs: get (every output format, --no-headers, --watch), describe, logs
// (-f), stop, delete, init, doctor and version; errors on stderr as
// `error: ...` with nothing on stdout; conditions whose lastTransitionTime
// moves only when their status flips.
func TestCLI(t *testing.T) {
	smileBinaries(t)
	slowImage(t)
	t.Parallel()

	t.Run("get-in-an-empty-folder", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		for _, args := range [][]string{{"get"}, {"get", "-o", "json"}, {"get", "-o", "name"}} {
			res := smile(t, dir, nil, 30*time.Second, args...)
			if res.code != 0 || res.stdout != "" || strings.TrimSpace(res.stderr) != "No resources found" {
				t.Errorf("smile %s in an empty folder: exit %d, stdout %q, stderr %q; want 0, nothing, No resources found",
					strings.Join(args, " "), res.code, res.stdout, res.stderr)
			}
		}
	})

	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "clean")
		stopControllers(t, dir)
		writeFile(t, filepath.Join(dir, "pod.yaml"), []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n"))
		writeFile(t, filepath.Join(dir, "broken.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: x\nspec: [\n"))
		writeFile(t, filepath.Join(dir, "typo.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: typo}\nspec:\n  llmProvider: literal\n  maxIteration: 3\n"))
		writeFile(t, filepath.Join(dir, "badname.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: Not_A_Name}\nspec:\n  llmProvider: literal\n"))
		for _, tc := range []struct {
			args []string
			want string // in the error message
		}{
			{[]string{"apply", "-f", "pod.yaml"}, "SmileRun"},
			{[]string{"apply", "-f", "broken.yaml"}, "broken.yaml"},
			{[]string{"apply", "-f", "typo.yaml", "--wait"}, "maxIteration"},
			{[]string{"apply", "-f", "badname.yaml"}, "Not_A_Name"},
			{[]string{"apply", "-f", "nothere.yaml"}, "nothere.yaml"},
			{[]string{"apply", "-f", "run.yaml", "--wait", "--fail-on", "severe"}, "--fail-on"},
			{[]string{"apply"}, "filename"},
			{[]string{"get", "nosuch"}, "not found"},
			{[]string{"get", "-o", "xml"}, "xml"},
			{[]string{"describe", "nosuch"}, "not found"},
			{[]string{"logs", "nosuch"}, "not found"},
			{[]string{"stop", "nosuch"}, "not found"},
			{[]string{"delete", "nosuch"}, "not found"},
			{[]string{"frobnicate"}, "frobnicate"},
		} {
			res := smile(t, dir, nil, 30*time.Second, tc.args...)
			if res.code == 0 || res.stdout != "" || !strings.HasPrefix(res.stderr, "error: ") || !strings.Contains(res.stderr, tc.want) {
				t.Errorf("smile %s: exit %d, stdout %q, stderr %q; want non-zero, nothing on stdout, error: ... %s",
					strings.Join(tc.args, " "), res.code, res.stdout, res.stderr, tc.want)
			}
		}
		if files, _ := filepath.Glob(runFile(dir, "*", "state.json")); len(files) > 0 {
			t.Errorf("a refused apply wrote a state file: %v", files)
		}
		// A refused apply starts nothing, not even a controller that would
		// then idle in the background with nothing to run.
		if info, err := store.ReadControllerInfo(dir); err == nil {
			t.Errorf("refused applies left a background controller running (pid %d)", info.PID)
		}
	})

	t.Run("version", func(t *testing.T) {
		t.Parallel()
		res := smile(t, t.TempDir(), nil, 30*time.Second, "version")
		if res.code != 0 || !regexp.MustCompile(`^smile \S+\n$`).MatchString(res.stdout) {
			t.Errorf("version: exit %d, stdout %q", res.code, res.stdout)
		}
	})

	t.Run("init", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(t.TempDir(), "hello-smile")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { removeRunContainers(dir) })
		files := []string{"smile.json", "run.yaml", "tutorial.md"}
		res := smile(t, dir, nil, 30*time.Second, "init")
		if res.code != 0 || res.stdout != "smile.json created\nrun.yaml created\ntutorial.md created\n" {
			t.Fatalf("init: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
		}
		// The scaffold runs clean as it is.
		res = smile(t, dir, nil, 3*time.Minute, "apply", "-f", "run.yaml", "--wait")
		if res.code != 0 || !strings.Contains(res.stdout, "smilerun.smile.dev/hello-smile created") || !strings.Contains(res.stdout, "completed after 1 iteration(s): 0 gap(s)") {
			t.Fatalf("apply --wait of the scaffold: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		// A second page of the folder gets its own manifest, and both runs
		// keep their reports in the workspace, none beside the tutorials.
		writeFile(t, filepath.Join(dir, "guide.md"), readFile(t, filepath.Join(dir, "tutorial.md")))
		res = smile(t, dir, nil, 30*time.Second, "init", "--tutorial", "guide.md")
		if res.code != 0 || res.stdout != "smile.json exists, left unchanged\nguide.run.yaml created\n" {
			t.Fatalf("init --tutorial guide.md: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
		}
		res = smile(t, dir, nil, 3*time.Minute, "apply", "-f", "guide.run.yaml", "--wait")
		if res.code != 0 || !strings.Contains(res.stdout, "smilerun.smile.dev/guide created") {
			t.Fatalf("apply --wait of the second manifest: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		for _, name := range []string{"hello-smile", "guide"} {
			if _, err := os.Stat(filepath.Join(dir, ".smile", "runs", name, "smile-report.md")); err != nil {
				t.Errorf("run %s has no report in its own folder: %v", name, err)
			}
		}
		if matches, _ := filepath.Glob(filepath.Join(dir, "smile-report.*")); len(matches) > 0 {
			t.Errorf("reports beside the tutorials: %v", matches)
		}
		// A second init overwrites nothing, not even an edited file.
		tutorial := filepath.Join(dir, "tutorial.md")
		writeFile(t, tutorial, append(readFile(t, tutorial), "\n<!-- edited by hand -->\n"...))
		before := map[string][]byte{}
		for _, f := range files {
			before[f] = readFile(t, filepath.Join(dir, f))
		}
		res = smile(t, dir, nil, 30*time.Second, "init")
		if res.code != 0 {
			t.Fatalf("second init: exit %d\n%s", res.code, res.stderr)
		}
		for _, f := range files {
			if !strings.Contains(res.stdout, f+" exists") {
				t.Errorf("second init does not report that %s exists:\n%s", f, res.stdout)
			}
			if !bytes.Equal(readFile(t, filepath.Join(dir, f)), before[f]) {
				t.Errorf("second init changed %s", f)
			}
		}
		if strings.Contains(res.stdout, "created") {
			t.Errorf("second init created something:\n%s", res.stdout)
		}
		// With one file gone, init adds it back and leaves the others.
		if err := os.Remove(filepath.Join(dir, "run.yaml")); err != nil {
			t.Fatal(err)
		}
		res = smile(t, dir, nil, 30*time.Second, "init")
		if res.stdout != "smile.json exists, left unchanged\nrun.yaml created\ntutorial.md exists, left unchanged\n" ||
			!bytes.Equal(readFile(t, tutorial), before["tutorial.md"]) {
			t.Errorf("init with run.yaml missing: stdout %q", res.stdout)
		}
	})

	t.Run("doctor", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "clean")
		res := smile(t, dir, nil, 2*time.Minute, "doctor")
		if res.code != 0 {
			t.Errorf("doctor with the literal provider: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
		}
		checks := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
			f := strings.Fields(l)
			if len(f) < 3 || f[0] != "ok" {
				t.Errorf("doctor line %q is not `ok  CHECK  message`", l)
				continue
			}
			checks[f[1]] = l
		}
		for _, want := range []string{"wrapper", "docker", "image", "gateway", "provider"} {
			if checks[want] == "" {
				t.Errorf("doctor has no %s line:\n%s", want, res.stdout)
			}
		}
		if !strings.Contains(checks["docker"], "API") {
			t.Errorf("doctor's docker line lacks the API version: %q", checks["docker"])
		}

		writeFile(t, filepath.Join(dir, "missing-image.yaml"), []byte("apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: missing-image}\nspec:\n  llmProvider: literal\n  containerImage: smile-e2e-missing:v0\n"))
		res = smile(t, dir, nil, 2*time.Minute, "doctor", "-f", "missing-image.yaml")
		if res.code == 0 || !regexp.MustCompile(`(?m)^FAIL\s+image\s+.*smile-e2e-missing:v0.*docker pull`).MatchString(res.stdout) {
			t.Errorf("doctor with a missing image: exit %d, want non-zero and a FAIL image line saying how to get it\n%s", res.code, res.stdout)
		}

		res = smile(t, dir, []string{"DOCKER_HOST=unix:///nonexistent.sock"}, 2*time.Minute, "doctor")
		if res.code == 0 || !regexp.MustCompile(`(?m)^FAIL\s+docker\s+Docker is required but not available`).MatchString(res.stdout) {
			t.Errorf("doctor without Docker: exit %d, want non-zero and a FAIL docker line\n%s", res.code, res.stdout)
		}
		if !strings.HasPrefix(res.stderr, "checking with") || !strings.Contains(res.stderr, "error: ") {
			t.Errorf("doctor without Docker: stderr %q", res.stderr)
		}
	})

	t.Run("get-describe-logs-during-a-run", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "ctl-mentor")
		stopControllers(t, dir)
		state := runFile(dir, "ctl-mentor", "state.json")
		samples := sampleState(t, state)
		if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
		watch := smileBackground(t, dir, nil, "get", "--watch")
		waitState(t, state, 2*time.Minute, "the Student to run", func(run *status.Run) bool {
			return run.Status.Phase == status.PhaseWaitingForStudent
		})
		follow := smileBackground(t, dir, nil, "logs", "ctl-mentor", "-f")

		checkGet(t, dir)
		res := smile(t, dir, nil, 30*time.Second, "describe", "ctl-mentor")
		checkDescribe(t, res, false)
		// The audit log of a run that is going says so: it has not ended,
		// let alone with an error.
		res = smile(t, dir, nil, 30*time.Second, "logs", "ctl-mentor")
		if head, _, _ := strings.Cut(res.stdout, "\n\n"); res.code != 0 || !strings.Contains(head, "\nstatus: ") ||
			strings.Contains(head, "exited") || strings.Contains(head, "status: error") {
			t.Errorf("logs of a running run: exit %d, its header says the loop ended:\n%s", res.code, head)
		}

		final := waitObject(t, dir, "ctl-mentor", 3*time.Minute, "the run to end", finished)
		if final.Status.Phase != status.PhaseCompleted || len(final.Status.Gaps) != 1 {
			t.Fatalf("run ended %s with gaps %+v", describeStatus(final.Status), final.Status.Gaps)
		}
		res = smile(t, dir, nil, 30*time.Second, "describe", "ctl-mentor")
		checkDescribe(t, res, true)

		// logs -f ends by itself with the run; it printed what logs prints.
		code, ok := follow.wait(30 * time.Second)
		followed, followErr := follow.output()
		if !ok || code != 0 {
			t.Errorf("logs -f did not end with the run (ended %v, exit %d)\nstderr:\n%s", ok, code, followErr)
		}
		res = smile(t, dir, nil, 30*time.Second, "logs", "ctl-mentor")
		if res.code != 0 || !strings.Contains(res.stdout, "./hello.sh") || !strings.Contains(res.stdout, "\nend:") {
			t.Errorf("logs: exit %d\n%s", res.code, res.stdout)
		}
		_, logBody, _ := strings.Cut(res.stdout, "\n\n")
		_, followBody, _ := strings.Cut(followed, "\n\n")
		if logBody != followBody {
			t.Errorf("logs -f printed other records than logs:\n--- logs -f\n%s\n--- logs\n%s", followBody, logBody)
		}

		// get --watch printed a row for each phase it saw, in order.
		time.Sleep(time.Second) // one more poll of the watch
		watch.interrupt()
		out, _ := watch.output()
		checkWatchRows(t, out)

		samples.checkValid(t)
		checkConditionFlips(t, samples.samples)
	})

	t.Run("stop-then-delete", func(t *testing.T) {
		t.Parallel()
		dir := copyFixture(t, "ctl-watch")
		stopControllers(t, dir)
		if res := smile(t, dir, nil, time.Minute, "apply", "-f", "run.yaml"); res.code != 0 {
			t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
		}
		waitObject(t, dir, "ctl-watch", 2*time.Minute, "the Student to run", func(o object) bool {
			return o.Status.Phase == status.PhaseWaitingForStudent
		})
		res := smile(t, dir, nil, time.Minute, "stop", "ctl-watch", "--reason", "docs freeze until Monday")
		if res.code != 0 || !strings.HasPrefix(res.stdout, "smilerun.smile.dev/ctl-watch stopped after ") {
			t.Fatalf("stop: exit %d, stdout %q\n%s", res.code, res.stdout, res.stderr)
		}
		o := waitObject(t, dir, "ctl-watch", time.Minute, "the stopped run's report", finished)
		if o.Status.Phase != status.PhaseStopped || o.Status.Reason != "Stopped" || !strings.Contains(o.Status.Message, "docs freeze until Monday") {
			t.Errorf("stopped run: %s", describeStatus(o.Status))
		}
		for _, f := range []string{"smile-report.md", "smile-report.json"} {
			if !strings.Contains(string(readFile(t, runFile(dir, "ctl-watch", f))), "docs freeze until Monday") {
				t.Errorf("%s does not give the reason of the stop", f)
			}
		}
		res = smile(t, dir, nil, time.Minute, "stop", "ctl-watch")
		if res.code != 0 || !strings.Contains(res.stdout, "already ended") {
			t.Errorf("stop of an ended run: exit %d, stdout %q", res.code, res.stdout)
		}
		// A user's stop is not a failure to debug: keepOnFailure keeps nothing.
		if cs := dirContainers(t, dir); len(cs) > 0 {
			t.Errorf("the stopped run kept containers %v", containerNames(cs))
		}

		res = smile(t, dir, nil, time.Minute, "delete", "ctl-watch")
		if res.code != 0 || res.stdout != "smilerun.smile.dev/ctl-watch deleted\n" {
			t.Fatalf("delete: exit %d, stdout %q\n%s", res.code, res.stdout, res.stderr)
		}
		if cs := dirContainers(t, dir); len(cs) > 0 {
			t.Errorf("delete left containers: %v", containerNames(cs))
		}
		if _, err := os.Stat(runFile(dir, "ctl-watch", "state.json")); err == nil {
			t.Errorf("delete left the state file")
		}
		res = smile(t, dir, nil, 30*time.Second, "get", "ctl-watch")
		if res.code == 0 || res.stdout != "" || !strings.Contains(res.stderr, "not found") {
			t.Errorf("get after delete: exit %d, stdout %q, stderr %q", res.code, res.stdout, res.stderr)
		}
		res = smile(t, dir, nil, 30*time.Second, "get")
		if res.code != 0 || !strings.Contains(res.stderr, "No resources found") {
			t.Errorf("get of all after delete: exit %d, stderr %q", res.code, res.stderr)
		}
		// Deleted means forgotten: the controller does not bring it back.
		time.Sleep(time.Second)
		if _, err := os.Stat(runFile(dir, "ctl-watch", "state.json")); err == nil || len(dirContainers(t, dir)) > 0 {
			t.Errorf("the deleted run came back")
		}
	})
}

// checkGet looks at every output format of get while a run goes.
func checkGet(t *testing.T, dir string) {
	t.Helper()
	res := smile(t, dir, nil, 30*time.Second, "get")
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if res.code != 0 || len(lines) != 2 || strings.Join(strings.Fields(lines[0]), " ") != "NAME PHASE RESULT ITERATION GAPS COVERAGE AGE" {
		t.Errorf("get: exit %d\n%s", res.code, res.stdout)
	} else if row := strings.Fields(lines[1]); len(row) != 7 || row[0] != "ctl-mentor" || !regexp.MustCompile(`^\d+s$`).MatchString(row[6]) {
		t.Errorf("get row %q", lines[1])
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "--no-headers")
	if lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n"); len(lines) != 1 || !strings.HasPrefix(lines[0], "ctl-mentor ") {
		t.Errorf("get --no-headers:\n%s", res.stdout)
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "-o", "wide")
	head := strings.Fields(strings.SplitN(res.stdout, "\n", 2)[0])
	if len(head) < 10 || strings.Join(head[:7], " ") != "NAME PHASE RESULT ITERATION GAPS COVERAGE AGE" {
		t.Errorf("get -o wide header %q does not start with get's columns", head)
	}
	for _, col := range []string{"PROVIDER", "TUTORIAL", "REASON", "REPORT"} {
		if !slices.Contains(head, col) {
			t.Errorf("get -o wide header %q has no %s column", head, col)
		}
	}
	if !strings.Contains(res.stdout, " literal ") || !strings.Contains(res.stdout, " tutorial.md ") {
		t.Errorf("get -o wide lacks the provider or tutorial:\n%s", res.stdout)
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "-o", "name")
	if res.stdout != "smilerun.smile.dev/ctl-mentor\n" || res.stderr != "" {
		t.Errorf("get -o name: stdout %q, stderr %q", res.stdout, res.stderr)
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "ctl-mentor", "-o", "yaml")
	var y object
	if err := runfile.UnmarshalYAML([]byte(res.stdout), &y, false); err != nil || y.Kind != "SmileRun" || y.APIVersion != "smile.dev/v1alpha1" ||
		y.Metadata.Name != "ctl-mentor" || y.Metadata.Generation != 1 || y.Status == nil || y.Spec["llmProvider"] != "literal" {
		t.Errorf("get -o yaml (%v):\n%s", err, res.stdout)
	}
	if strings.Contains(res.stdout, "token") {
		t.Errorf("get -o yaml shows the run's callback token")
	}
	res = smile(t, dir, nil, 30*time.Second, "get", "-o", "json")
	var j object
	if err := json.Unmarshal([]byte(res.stdout), &j); err != nil || j.Kind != "SmileRun" || j.Metadata.Name != "ctl-mentor" || j.Status == nil {
		t.Errorf("get -o json (%v):\n%s", err, res.stdout)
	}
}

// checkDescribe checks describe's layout: Name first, Title Case keys, a
// conditions table with the four types, gaps, events.
func checkDescribe(t *testing.T, res result, ended bool) {
	t.Helper()
	out := res.stdout
	if res.code != 0 || !strings.HasPrefix(out, "Name:") || !regexp.MustCompile(`(?m)^Name:\s+ctl-mentor$`).MatchString(out) {
		t.Errorf("describe: exit %d, output does not start with Name:\n%s", res.code, out)
		return
	}
	for _, section := range []string{"Spec:", "Status:", "Conditions:", "Gaps:", "Events:"} {
		if !regexp.MustCompile(`(?m)^` + section).MatchString(out) {
			t.Errorf("describe has no %s section:\n%s", section, out)
		}
	}
	_, conds, _ := strings.Cut(out, "\nConditions:\n")
	conds, _, _ = strings.Cut(conds, "\nGaps:")
	if !regexp.MustCompile(`^\s+Type\s+Status\s+Reason`).MatchString(conds) {
		t.Errorf("describe's conditions table has no Type Status Reason header:\n%s", conds)
	}
	want := map[string]string{"Ready": "True", "UpToDate": "True", "Succeeded": "Unknown"}
	if regexp.MustCompile(`(?m)^\s+Phase:\s+WaitingFor`).MatchString(out) {
		want["ContainerReady"] = "True" // a container is working
	}
	if ended {
		// ctl-mentor completes with the gap its Mentor worked around.
		want = map[string]string{"Ready": "True", "UpToDate": "True", "ContainerReady": "False", "Succeeded": "False"}
		if !regexp.MustCompile(`(?m)^\s+Succeeded\s+False\s+GapsFound\s`).MatchString(conds) {
			t.Errorf("describe: a run that completed with gaps has no Succeeded=False GapsFound condition:\n%s", conds)
		}
	}
	for typ, st := range want {
		if !regexp.MustCompile(`(?m)^\s+` + typ + `\s+` + st + `\s+[A-Z]\w+`).MatchString(conds) {
			t.Errorf("describe: no %s condition with status %s and a CamelCase reason:\n%s", typ, st, conds)
		}
	}
	if ended {
		for _, want := range []string{"permission_denied", "Mentor Notes:", "LoopEnded", "ReportWritten"} {
			if !strings.Contains(out, want) {
				t.Errorf("describe of the ended run lacks %q:\n%s", want, out)
			}
		}
	}
}

// checkWatchRows: get --watch printed the header and the first row, then a
// row each time the run's phase (or iteration, or gaps) changed; the phases
// that last seconds here must all be there, in order.
func checkWatchRows(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], "NAME") {
		t.Errorf("get --watch printed:\n%s", out)
		return
	}
	var seen []string
	prev := ""
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		if len(f) != 7 || f[0] != "ctl-mentor" { // NAME PHASE RESULT ITERATION GAPS COVERAGE AGE
			t.Errorf("get --watch row %q", l)
			continue
		}
		key := strings.Join(f[1:5], " ")
		if key == prev {
			t.Errorf("get --watch printed an unchanged row again: %q", l)
		}
		prev = key
		seen = append(seen, f[1]+"/"+f[3])
	}
	want := []string{"WaitingForStudent/1", "WaitingForMentor/1", "WaitingForStudent/2", "Completed/2"}
	i := 0
	for _, s := range seen {
		if i < len(want) && s == want[i] {
			i++
		}
	}
	if i < len(want) {
		t.Errorf("get --watch rows (phase/iteration) %v do not include %v in order", seen, want)
	}
}

// attemptEndedBetween reports whether an attempt ended between two samples
// of a run's state: ContainerReady then went False and back to True in
// states the sampler did not see (a prepared container starts the next
// attempt within milliseconds).
func attemptEndedBetween(before, after *status.Run) bool {
	if len(after.Status.Timeline) <= len(before.Status.Timeline) {
		return false
	}
	for _, e := range after.Status.Timeline[len(before.Status.Timeline):] {
		switch e.Event {
		case "StudentReported", "MentorAnswered", "AttemptRestarted":
			return true
		}
	}
	return false
}

// checkConditionFlips: over every state the run went through, a condition's
// lastTransitionTime changes only when its status flips, and always when it
// does. (Every waiting phase here lasts seconds; only between an attempt's
// end and the next attempt, which adopts a prepared container within
// milliseconds, can a flip and flip back hide between two reads.)
func checkConditionFlips(t *testing.T, runs []*status.Run) {
	t.Helper()
	last := map[string]status.Condition{}
	flips := 0
	var prev *status.Run
	for _, run := range runs {
		missed := prev != nil && attemptEndedBetween(prev, run)
		prev = run
		for _, c := range run.Status.Conditions {
			old, ok := last[c.Type]
			last[c.Type] = c
			if !ok {
				continue
			}
			switch {
			case old.Status == c.Status && !old.LastTransitionTime.Equal(c.LastTransitionTime) &&
				(c.Type != status.ConditionContainerReady || !missed):
				t.Errorf("%s stayed %s but its lastTransitionTime moved %s -> %s (reason %s -> %s)", c.Type, c.Status,
					old.LastTransitionTime.Format(time.RFC3339Nano), c.LastTransitionTime.Format(time.RFC3339Nano), old.Reason, c.Reason)
			case old.Status != c.Status && !c.LastTransitionTime.After(old.LastTransitionTime):
				t.Errorf("%s flipped %s -> %s but its lastTransitionTime stayed %s", c.Type, old.Status, c.Status, c.LastTransitionTime)
			case old.Status != c.Status:
				flips++
			}
		}
	}
	for _, typ := range []string{status.ConditionReady, status.ConditionSucceeded, status.ConditionContainerReady, status.ConditionUpToDate} {
		if _, ok := last[typ]; !ok {
			t.Errorf("the run never had a %s condition", typ)
		}
	}
	if flips < 3 { // ContainerReady False -> True -> False at least, Succeeded Unknown -> False
		t.Errorf("only %d condition flips seen over %d states", flips, len(runs))
	}
}

// TestCLISeedErrors: the seed's input and environment errors end `smile
// apply --wait` with exit 1 and the seed's message on stderr.
func TestCLISeedErrors(t *testing.T) {
	smileBinaries(t)
	baseImage(t)
	t.Parallel()
	manifest := func(name, extra string) []byte {
		return fmt.Appendf(nil, "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata: {name: %s}\nspec:\n  tutorial: tutorial.md\n  llmProvider: literal\n%s", name, extra)
	}
	for _, tc := range []struct {
		name     string
		tutorial []byte // nil: none
		extra    string // more spec
		env      []string
		args     []string
		want     []string
		stdout   bool // the run's result may be printed (the loop started)
	}{
		{name: "e04-missing-tutorial", want: []string{"tutorial not found", "tutorial.md"}},
		{name: "e05-tutorial-too-large", tutorial: append([]byte("# Big\n\n"), bytes.Repeat([]byte("All work and no play.\n"), 5000)...),
			want: []string{"Tutorial exceeds size limit (100KB)"}},
		{name: "e06-not-utf8", tutorial: []byte("# Caf\xe9 cr\xe8me\n\n```bash\necho hi\n```\n"),
			want: []string{"not valid UTF-8", "tutorial.md:1:"}},
		{name: "e08-docker-unavailable", tutorial: []byte("# Hi\n\n```bash\necho hi\n```\n"), env: []string{"DOCKER_HOST=unix:///nonexistent.sock"},
			want: []string{"Docker is required but not available"}},
		{name: "e08-docker-unavailable-background", tutorial: []byte("# Hi\n\n```bash\necho hi\n```\n"), env: []string{"DOCKER_HOST=unix:///nonexistent.sock"},
			args: []string{"apply", "-f", "run.yaml"}, want: []string{"Docker is required but not available"}},
		{name: "e09-missing-image", tutorial: []byte("# Hi\n\n```bash\necho hi\n```\n"), extra: "  containerImage: smile-e2e-missing:v0\n",
			want: []string{"image not found", "smile-e2e-missing:v0", "docker pull smile-e2e-missing:v0", "hack/build-image.sh"}, stdout: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			t.Cleanup(func() { removeRunContainers(dir) })
			stopControllers(t, dir)
			writeFile(t, filepath.Join(dir, "run.yaml"), manifest(tc.name, tc.extra))
			if tc.tutorial != nil {
				writeFile(t, filepath.Join(dir, "tutorial.md"), tc.tutorial)
			}
			args := tc.args
			if args == nil {
				args = []string{"apply", "-f", "run.yaml", "--wait"}
			}
			res := smile(t, dir, tc.env, 2*time.Minute, args...)
			if res.code != 1 || !strings.Contains(res.stderr, "error: ") {
				t.Errorf("exit %d, want 1 with an error\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(res.stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, res.stderr)
				}
			}
			if !tc.stdout && res.stdout != "" {
				t.Errorf("stdout %q, want nothing", res.stdout)
			}
			if cs := dirContainers(t, dir); len(cs) > 0 {
				t.Errorf("containers started: %v", containerNames(cs))
			}
		})
	}
}
