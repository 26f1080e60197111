package cli

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/smile-loop/smile/cmd/smile/internal/gate"

	"github.com/smile-loop/smile/status"
)

// An environment finding (what the container lacked) is a note: it fails
// no --fail-on unless --fail-on names environment, at any severity, and a
// tutorial gap beside it still fails as before.
func TestExitByResultEnvironment(t *testing.T) {
	env := status.Gap{ID: 1, Category: status.CategoryEnvironment, Severity: status.SeverityMajor}
	tut := status.Gap{ID: 2, Category: status.CategoryPermissionDenied, Severity: status.SeverityMinor}
	tests := []struct {
		failOn string
		gaps   []status.Gap
		want   int
	}{
		{"minor", []status.Gap{env}, 0},
		{"critical", []status.Gap{env}, 0},
		{"none", []status.Gap{env}, 0},
		{"minor,environment", []status.Gap{env}, 2},
		{"critical,environment", []status.Gap{env}, 2},
		{"minor", []status.Gap{env, tut}, 2},
		{"major", []status.Gap{env, tut}, 0},
		{"major,environment", []status.Gap{env, tut}, 2},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%d gaps", tt.failOn, len(tt.gaps)), func(t *testing.T) {
			g, err := gate.Parse(tt.failOn)
			if err != nil {
				t.Fatal(err)
			}
			run := status.NewRun("quickstart", "uid", "run.yaml", t0)
			run.Status.Phase, run.Status.Gaps = status.PhaseCompleted, tt.gaps
			if got := exitCode(exitByResult(run, g, tt.gaps)); got != tt.want {
				t.Errorf("exit %d, want %d", got, tt.want)
			}
		})
	}
}

// exitCode is what Main would return for exitByResult's error.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		return ee.code
	}
	return ExitError
}

func TestExitByResult(t *testing.T) {
	gaps := func(sev ...status.Severity) []status.Gap {
		var out []status.Gap
		for i, s := range sev {
			out = append(out, status.Gap{ID: i + 1, Severity: s})
		}
		return out
	}
	// want is the exit code for --fail-on critical, major, minor, none.
	tests := []struct {
		name   string
		phase  status.Phase
		reason status.Reason
		gaps   []status.Gap
		want   [4]int
	}{
		{"completed, no gap", status.PhaseCompleted, "Completed", nil, [4]int{0, 0, 0, 0}},
		{"completed, a minor gap", status.PhaseCompleted, "Completed", gaps(status.SeverityMinor), [4]int{0, 0, 2, 0}},
		{"completed, a major gap", status.PhaseCompleted, "Completed", gaps(status.SeverityMajor), [4]int{0, 2, 2, 0}},
		{"completed, a critical gap", status.PhaseCompleted, "Completed", gaps(status.SeverityCritical), [4]int{2, 2, 2, 0}},
		{"completed, minor and major gaps", status.PhaseCompleted, "Completed", gaps(status.SeverityMinor, status.SeverityMajor), [4]int{0, 2, 2, 0}},
		{"blocker", status.PhaseBlocker, "Unresolvable", gaps(status.SeverityCritical), [4]int{2, 2, 2, 0}},
		{"blocker without gap", status.PhaseBlocker, "Unresolvable", nil, [4]int{2, 2, 2, 0}},
		{"max iterations", status.PhaseMaxIterations, "MaxIterations", gaps(status.SeverityMinor), [4]int{2, 2, 2, 0}},
		{"timeout", status.PhaseTimeout, "Timeout", nil, [4]int{2, 2, 2, 0}},
		{"error: SMILE could not run", status.PhaseError, "ContainerDied", nil, [4]int{1, 1, 1, 1}},
		{"error with gaps", status.PhaseError, "WrapperSilent", gaps(status.SeverityMinor), [4]int{1, 1, 1, 1}},
		{"stopped by the user", status.PhaseStopped, "Stopped", nil, [4]int{2, 2, 2, 0}},
		{"inconclusive: too little of the page exercised", status.PhaseInconclusive, "LowCoverage", nil, [4]int{3, 3, 3, 0}},
		{"inconclusive with gaps", status.PhaseInconclusive, "LowCoverage", gaps(status.SeverityCritical), [4]int{3, 3, 3, 0}},
	}
	// A baseline that accepts every gap leaves none counted: a completed run
	// passes, and so does a blocker whose gaps the team has all accepted.
	accepted := []struct {
		name  string
		phase status.Phase
		gaps  []status.Gap
	}{
		{"completed, its critical gap accepted", status.PhaseCompleted, gaps(status.SeverityCritical)},
		{"blocker, its gap accepted", status.PhaseBlocker, gaps(status.SeverityCritical)},
	}
	for _, tt := range accepted {
		t.Run(tt.name, func(t *testing.T) {
			run := status.NewRun("quickstart", "uid", "run.yaml", t0)
			run.Status.Phase, run.Status.Gaps = tt.phase, tt.gaps
			if err := exitByResult(run, gate.Gate{Min: status.SeverityMinor}, nil); exitCode(err) != 0 {
				t.Errorf("exit %d (%v), want 0: every gap is accepted", exitCode(err), err)
			}
			if err := exitByResult(run, gate.Gate{Min: status.SeverityMinor}, tt.gaps); exitCode(err) != 2 {
				t.Errorf("exit %d (%v), want 2: the gap counts without a baseline", exitCode(err), err)
			}
		})
	}
	thresholds := []string{"critical", "major", "minor", "none"}
	for _, tt := range tests {
		for i, th := range thresholds {
			t.Run(fmt.Sprintf("%s/fail-on %s", tt.name, th), func(t *testing.T) {
				threshold, err := gate.Parse(th)
				if err != nil {
					t.Fatal(err)
				}
				run := status.NewRun("quickstart", "uid", "run.yaml", t0)
				run.Status.Phase, run.Status.Reason, run.Status.Message, run.Status.Gaps = tt.phase, tt.reason, "the container died", tt.gaps
				err = exitByResult(run, threshold, tt.gaps)
				if got := exitCode(err); got != tt.want[i] {
					t.Errorf("exit %d (%v), want %d", got, err, tt.want[i])
				}
				var ee *exitError
				if errors.As(err, &ee) && ee.code == ExitError && ee.err == nil {
					t.Errorf("exit 1 without a message: the user would not know why")
				}
			})
		}
	}
}

// apply's result line counts the tutorial's gaps and, apart, the
// environment notes.
func TestPrintResultCountsEnvironmentNotesApart(t *testing.T) {
	run := status.NewRun("quickstart", "uid", "run.yaml", t0)
	run.Status.Phase, run.Status.Iteration = status.PhaseCompleted, 1
	run.Status.Gaps = []status.Gap{
		{ID: 1, Title: "No network", Category: status.CategoryEnvironment, Severity: status.SeverityMajor, Location: status.GapLocation{LineNumber: 7}},
		{ID: 2, Title: "Not executable", Category: status.CategoryPermissionDenied, Severity: status.SeverityMinor, Location: status.GapLocation{LineNumber: 9}},
	}
	var b strings.Builder
	printResult(&b, run)
	want := "smilerun.smile.dev/quickstart completed after 1 iteration(s): 1 gap(s) (critical 0, major 0, minor 1), 1 environment note\n"
	if first, _, _ := strings.Cut(b.String(), "\n"); first+"\n" != want {
		t.Errorf("first line = %q, want %q", first, want)
	}
}
