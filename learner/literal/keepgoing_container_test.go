package literal_test

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// A failure stops only what depends on it: the Student records every
// independent failure of the page in one run, lists the steps that needed
// a failed one as not reached with the failed line, and asks the Mentor
// about the first failure.
func TestContainerKeepsGoingPastFailures(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "keepgoing.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	if out.Status != status.StudentAskMentor || out.Line != 12 {
		t.Fatalf("want ask_mentor about line 12:\n%s", dump(t, res))
	}
	found := map[int]status.Finding{}
	for _, f := range out.Findings {
		found[f.Line] = f
	}
	for line, c := range map[int]status.Category{12: status.CategoryMissingFile, 29: status.CategoryMissingDependency, 36: status.CategoryCommandFailure} {
		if f, ok := found[line]; !ok || f.Category != c || f.Asked != (line == 12) {
			t.Errorf("line %d: finding %+v, want %s (asked only at line 12)", line, f, c)
		}
	}
	if len(out.Findings) != 3 {
		t.Errorf("want 3 findings:\n%s", dump(t, res))
	}
	notReached := map[int]int{}
	for _, sk := range out.Skipped {
		if sk.FailedLine > 0 {
			notReached[sk.Line] = sk.FailedLine
			if !strings.HasPrefix(sk.Reason, "not reached: line ") {
				t.Errorf("reason = %q", sk.Reason)
			}
		}
	}
	if len(notReached) != 2 || notReached[13] != 12 || notReached[30] != 29 {
		t.Errorf("not reached = %v, want line 13 (needs 12) and line 30 (needs 29)", notReached)
	}
	for _, line := range []int{13, 30} {
		if len(commandsAt(res.Audit, line)) != 0 {
			t.Errorf("line %d ran though a step it needs failed", line)
		}
	}
	if at := commandsAt(res.Audit, 19); len(at) != 1 || at[0].ExitCode != 0 {
		t.Errorf("line 19, which needs only line 6, did not run: %s", dump(t, at))
	}
	if !strings.Contains(out.Summary, "2 steps not reached") {
		t.Errorf("summary = %q", out.Summary)
	}

	// The same failure met after a Mentor's workaround ran before its line
	// says so: it is a gap of its own, not the one the workaround answered.
	notes := []status.MentorNote{{Iteration: 1, Line: 36, Category: status.CategoryMissingDependency,
		Resolution: status.ResolutionWorkaround, Workaround: "true"}}
	again := s.fresh(t).student(t, 2, behavior(nil), notes, runOptions{})
	for _, f := range again.StudentOutput.Findings {
		if f.Line == 36 && f.AfterWorkaround != 1 {
			t.Errorf("finding after the workaround = %+v, want afterWorkaround 1", f)
		}
	}
}

// A workaround's stand-in folder excuses only what it would hold: a file
// the page wrote into it under another name (notes.txt written, note.txt
// read) is the page's misspelling, not the environment's.
func TestContainerTypoInsideAStandIn(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "standin-typo.md")
	notes := []status.MentorNote{{Iteration: 1, Line: 6, Category: status.CategoryMissingFile,
		Resolution: status.ResolutionWorkaround, Workaround: "mkdir -p project"}}
	res := s.student(t, 2, behavior(nil), notes, runOptions{})
	fs := res.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 18 || fs[0].Category != status.CategoryMissingFile {
		t.Fatalf("want one missing_file finding at line 18:\n%s", dump(t, res))
	}
}
