package prompt

import (
	"errors"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status/wire"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/spectest"
	"github.com/smile-loop/smile/status"
)

const tutorialText = "# Demo\n\n![diagram](diagram.png)\n\nRun:\n\n````bash\necho '```'\n````\n\n```bash\njq . data.json\n```\n"

func tutorial(t *testing.T) *spec.Tutorial { return spectest.Tutorial(t, tutorialText) }

func TestStudentPrompt(t *testing.T) {
	b := spec.DefaultConfig().StudentBehavior
	b.AskOnTimeout = false
	b.PatienceLevel = spec.PatienceMedium
	task := &wire.Task{Behavior: b, LLM: &wire.TaskLLM{Network: spec.NetworkNone}, MentorNotes: []status.MentorNote{{
		Iteration: 1, Question: "jq is missing?", Answer: "Install jq first.", Workaround: "apt-get install -y jq", Line: 12,
	}}}
	got, err := BuildStudent(Student{Task: task, Tutorial: tutorial(t), WorkDir: "/workspace/work", ImageMode: ImagesRead})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// FR-009: the raw tutorial, in a fence its own fences cannot close.
		"`````markdown\n" + tutorialText + "\n`````",
		"Your patience is **medium**: try two or three approaches",
		"Retry a failing step at most 3 time(s)",
		"category missing_dependency",
		"the same step has failed 3 times in a row",
		"### Iteration 1, about line 12", "Install jq first.", "apt-get install -y jq",
		"line 3: `diagram.png`: this file does not exist",
		"file-reading tool",
		"This container has no network",
		`"status": "completed | ask_mentor | cannot_complete"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Student prompt lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "runs longer than 60 seconds: category timeout") {
		t.Error("askOnTimeout is off but the prompt lists the timeout trigger")
	}
}

func TestStudentPromptWithoutTriggers(t *testing.T) {
	b := spec.StudentBehavior{TimeoutSeconds: 5}
	got, err := BuildStudent(Student{Task: &wire.Task{Behavior: b}, Tutorial: tutorial(t), WorkDir: "/w"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, "never: every trigger is off") || strings.Contains(got, "earlier attempts") || strings.Contains(got, "no network") {
		t.Errorf("prompt:\n%s", got)
	}
}

func TestMentorPrompt(t *testing.T) {
	task := &wire.Task{Question: "Where does jq come from?", StudentOutput: &status.StudentOutput{
		CurrentStep: "line 12", Line: 12, Quote: "jq . data.json", Problem: "jq: command not found",
		AttemptedActions: []string{"ran jq"}, CommandsRun: []string{"jq . data.json"},
		Findings: []status.Finding{{Command: "jq . data.json", Line: 12, ExitCode: 127, Output: "bash: jq: command not found"}},
	}}
	got, err := BuildMentor(Mentor{Task: task, Tutorial: tutorial(t), WorkDir: "/workspace/work", Web: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Where does jq come from?", "The tutorial's line: `jq . data.json`", "exit code 127", "bash: jq: command not found",
		"Search the web", `"resolution": "workaround | proceed | unresolvable"`, tutorialText} {
		if !strings.Contains(got, want) {
			t.Errorf("Mentor prompt lacks %q:\n%s", want, got)
		}
	}
}

func TestRepairPrompt(t *testing.T) {
	got, err := BuildRepair(StudentSchema, "I finished.", errors.New("no JSON object found"))
	if err != nil || !strings.Contains(got, "no JSON object found") || !strings.Contains(got, "I finished.") || !strings.Contains(got, `"status"`) {
		t.Errorf("repair prompt = %q, %v", got, err)
	}
}
