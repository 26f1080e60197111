package browser_test

import (
	"time"

	"github.com/smile-loop/smile/status"
)

var t0 = time.Now().Add(-7 * time.Minute).UTC()

func newRun(name string, phase status.Phase, generation int64) *status.Run {
	r := status.NewRun(name, "uid-"+name, "/docs/run.yaml", t0)
	r.Metadata.Generation = generation
	r.Status.Phase, r.Status.ObservedGeneration, r.Status.StartedAt, r.Status.UpdatedAt = phase, generation, t0, t0.Add(time.Minute)
	if phase.Terminal() {
		end := t0.Add(2 * time.Minute)
		r.Status.FinishedAt = &end
		r.Status.Report = &status.ReportRef{Markdown: "/docs/.smile/runs/" + name + "/smile-report.md"}
	}
	return r
}

// finishedWithGaps is a second generation that completed after the Mentor
// answered the Student once; it carries a note from generation 1 and found
// one gap at line 25. The Mentor's answers hold Markdown and raw HTML.
func finishedWithGaps(name string) (*status.Run, []status.Audit) {
	r := newRun(name, status.PhaseCompleted, 2)
	st := &r.Status
	st.Iteration, st.Message = 2, "the Student completed the tutorial after 2 iterations with 1 gap"
	st.Gaps = []status.Gap{{ID: 1, Title: "greet.sh is not executable", Category: status.CategoryPermissionDenied,
		Severity: status.SeverityCritical, Location: status.GapLocation{LineNumber: 25, Quote: "$ ./greet.sh world"},
		Problem: "./greet.sh printed Permission denied", SuggestedFix: "Add `chmod +x greet.sh` before running it.", Iteration: 1}}
	question := "At line 25 `./greet.sh world` printed `Permission denied`. What is missing?"
	st.History = []status.IterationRecord{
		{Iteration: 1, StudentOutput: status.StudentOutput{Status: status.StudentAskMentor, Line: 25, CurrentStep: "line 25",
			QuestionForMentor: question, Coverage: status.Summarize(withOutcome(blocks, 31, status.OutcomeNotReached))}},
		{Iteration: 2, StudentOutput: status.StudentOutput{Status: status.StudentCompleted, CurrentStep: "line 32: ./deploy.sh",
			Coverage: status.Summarize(blocks)}},
	}
	st.MentorNotes = []status.MentorNote{
		{Iteration: 0, Line: 6, Question: "At line 6 apt-get could not find jq. Is an update missing?",
			Answer: "Run `apt-get update` first.", Resolution: status.ResolutionWorkaround},
		{Iteration: 1, Line: 25, Question: question, Resolution: status.ResolutionWorkaround,
			Answer: "Make it executable:\n\n```bash\nchmod +x greet.sh\n```\n\n<img src=x onerror=\"window.__pwned = 3\"> [more](javascript:window.__pwned=4)"},
	}
	st.Timeline = []status.TimelineEntry{{Timestamp: t0, Iteration: 0, Event: "RunStarted", Details: "generation 2"}}
	audits := []status.Audit{
		{Commands: []status.AuditCommand{
			{Iteration: 1, Role: status.RoleStudent, Line: 6, DurationMs: 1200},
			{Iteration: 1, Role: status.RoleStudent, Line: 25, DurationMs: 15, ExitCode: 126}}},
		{Commands: []status.AuditCommand{
			{Iteration: 2, Role: status.RoleStudent, Line: 6, DurationMs: 1100},
			{Iteration: 2, Role: status.RoleStudent, Line: 25, DurationMs: 5, Workaround: true},
			{Iteration: 2, Role: status.RoleStudent, Line: 25, DurationMs: 20},
			{Iteration: 2, Role: status.RoleStudent, Line: 32, DurationMs: 2500}}},
	}
	return r, audits
}

// finishedClean completed in one iteration without a gap.
func finishedClean(name string) (*status.Run, []status.Audit) {
	r := newRun(name, status.PhaseCompleted, 1)
	r.Status.Iteration, r.Status.Message = 1, "the Student completed the tutorial"
	r.Status.History = []status.IterationRecord{{Iteration: 1, StudentOutput: status.StudentOutput{
		Status: status.StudentCompleted, CurrentStep: "line 32", Coverage: status.Summarize(blocks)}}}
	return r, []status.Audit{{Commands: []status.AuditCommand{
		{Iteration: 1, Role: status.RoleStudent, Line: 6, DurationMs: 900},
		{Iteration: 1, Role: status.RoleStudent, Line: 25, DurationMs: 30},
		{Iteration: 1, Role: status.RoleStudent, Line: 32, DurationMs: 400}}}}
}

// inProgress is a first iteration whose Student is at line 25.
func inProgress(name string) *status.Run {
	r := newRun(name, status.PhaseWaitingForStudent, 1)
	r.Status.Iteration = 1
	r.Status.Attempt = &status.Attempt{Role: status.RoleStudent, Iteration: 1, Container: name + "-i1-student", StartedAt: t0}
	return r
}

func withOutcome(bs []status.BlockCoverage, line int, o status.Outcome) []status.BlockCoverage {
	out := append([]status.BlockCoverage(nil), bs...)
	for i := range out {
		if out[i].Line == line {
			out[i].Outcome, out[i].Covered = o, 0
		}
	}
	return out
}
