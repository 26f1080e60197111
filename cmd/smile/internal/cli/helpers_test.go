package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smile-loop/smile/status/store"

	"github.com/smile-loop/smile/status"
)

// t0 is when the fabricated runs were created; tests print them at t0 plus
// some age, so AGE columns are exact.
var t0 = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// secretToken is a run's callback token: no output may contain it.
const secretToken = "tok-3f9a1c5e-never-print-me"

// runMain runs the command line the way main does and returns its exit code
// and what it wrote on each stream.
func runMain(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Main(args, Streams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
	return code, out.String(), errOut.String()
}

// writeFile writes content to dir/name, creating folders.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func manifestYAML(name string) string {
	return "apiVersion: smile.dev/v1alpha1\nkind: SmileRun\nmetadata:\n  name: " + name +
		"\nspec:\n  tutorial: tutorial.md\n  llmProvider: literal\n  maxIterations: 3\n  studentBehavior:\n    timeoutSeconds: 30\n"
}

// fabricate records a run applied in dir, with a manifest and a state file
// written by status.Save; edit sets its status (nil: the run has no state
// yet, as just after apply).
func fabricate(t *testing.T, dir, name string, edit func(*status.Run)) store.Record {
	t.Helper()
	return fabricateIn(t, dir, ".", name, edit)
}

// fabricateIn is fabricate with the manifest in a folder of the workspace dir.
func fabricateIn(t *testing.T, dir, folder, name string, edit func(*status.Run)) store.Record {
	t.Helper()
	manifest := writeFile(t, filepath.Join(dir, folder), name+".yaml", manifestYAML(name))
	rec := store.Record{Name: name, Manifest: manifest, StateFile: filepath.Join(dir, store.HomeDir, name+".state.json"), AppliedAt: t0}
	if edit != nil {
		run := status.NewRun(name, "uid-"+name, manifest, t0)
		run.Metadata.Generation = 1
		run.Status.Token = secretToken
		edit(run)
		if err := store.Save(rec.StateFile, run); err != nil {
			t.Fatal(err)
		}
	}
	if err := (store.Registry{Dir: dir}).Put(rec); err != nil {
		t.Fatal(err)
	}
	return rec
}

// completed is a run that ended in iteration 2 with one major gap, its
// conditions and timeline set.
func completed(run *status.Run) {
	st := &run.Status
	st.Phase, st.Iteration, st.ObservedGeneration = status.PhaseCompleted, 2, 1
	st.Reason, st.Message = "Completed", "the Student completed the tutorial in iteration 2"
	st.StartedAt = t0
	end := t0.Add(2 * time.Second)
	st.FinishedAt = &end
	st.Gaps = []status.Gap{{ID: 1, Title: "Script is not executable", Category: status.CategoryPermissionDenied,
		Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 35, Quote: "./count.sh words.txt"}, Iteration: 1}}
	st.SetCondition(status.Condition{Type: status.ConditionReady, Status: status.ConditionTrue, Reason: "Completed", Message: "the loop ended"}, t0)
	st.SetCondition(status.Condition{Type: status.ConditionSucceeded, Status: status.ConditionFalse, Reason: "GapsFound", Message: "the Student completed the tutorial with 1 gap (1 major)"}, end)
	st.Timeline = []status.TimelineEntry{
		{Timestamp: t0, Event: "RunStarted", Details: "generation 1"},
		{Timestamp: t0.Add(time.Second), Iteration: 1, Event: "StudentStarted", Details: "container smile-quickstart-g1-i1-student"},
		{Timestamp: end, Iteration: 2, Event: "LoopEnded", Details: "completed"},
	}
	st.Report = &status.ReportRef{Markdown: "/tmp/out/smile-report.md", JSON: "/tmp/out/smile-report.json"}
	st.History = []status.IterationRecord{{Iteration: 2, StudentOutput: status.StudentOutput{Status: status.StudentCompleted,
		Coverage: &status.Coverage{Blocks: 14, Exercised: 9, Run: 7, Written: 1, Compared: 1, Skipped: 5}}}}
}
