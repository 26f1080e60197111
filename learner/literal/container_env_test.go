package literal_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// The Mentor looks before it answers: ncdu is in no table of the Mentor's,
// so it asks apt in its own container (smile-base has no apt lists: it
// downloads them from Debian's mirror), and the Student's next attempt
// installs the package apt named and completes.
func TestContainerMentorAsksAptForUnknownCommand(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "probe.md")
	first := s.student(t, 1, behavior(nil), nil, runOptions{})
	if first.StudentOutput.Status != status.StudentAskMentor || first.StudentOutput.Line != 5 ||
		len(first.StudentOutput.Findings) != 1 || first.StudentOutput.Findings[0].Category != status.CategoryMissingDependency {
		t.Fatalf("want ask_mentor about a missing dependency at line 5:\n%s", dump(t, first))
	}
	m := s.mentor(t, 1, first.StudentOutput, nil)
	want := "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ncdu"
	if m.Advice == nil || m.Advice.Resolution != status.ResolutionWorkaround || m.Advice.Workaround != want {
		t.Fatalf("mentor advice = %+v\n%s", m.Advice, m.MentorOutput)
	}
	if !strings.Contains(m.MentorOutput, "I asked apt-get") {
		t.Errorf("the answer does not say where the package came from:\n%s", m.MentorOutput)
	}
	second := s.fresh(t).student(t, 2, behavior(nil), []status.MentorNote{note(1, m)}, runOptions{})
	if second.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("iteration 2: want completed:\n%s", dump(t, second))
	}
	at := commandsAt(second.Audit, 5)
	if len(at) != 2 || !at[0].Workaround || at[0].ExitCode != 0 || at[0].TimedOut {
		t.Errorf("want the install replayed (within its own time limit, past the 10 s step timeout) before line 5: %s", dump(t, at))
	}
}

// A command the tutorial lists as a prerequisite is the image's gap, not the
// tutorial's: the Student says so, and the Mentor installs it.
func TestContainerPrerequisiteIsEnvironment(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "prereq.md")
	first := s.student(t, 1, behavior(nil), nil, runOptions{})
	fs := first.StudentOutput.Findings
	if first.StudentOutput.Status != status.StudentAskMentor || len(fs) != 1 || fs[0].Category != status.CategoryEnvironment || fs[0].Line != 11 {
		t.Fatalf("want ask_mentor about the environment at line 11:\n%s", dump(t, first))
	}
	if !strings.Contains(fs[0].Problem, "the image lacks `tree`, which the tutorial lists as a prerequisite (line 5)") ||
		!strings.Contains(fs[0].SuggestedFix, "containerImage") {
		t.Errorf("finding = %+v", fs[0])
	}
	m := s.mentor(t, 1, first.StudentOutput, nil)
	if m.Advice == nil || m.Advice.Resolution != status.ResolutionWorkaround || !strings.HasSuffix(m.Advice.Workaround, " tree") ||
		m.Advice.Category != status.CategoryEnvironment {
		t.Fatalf("mentor advice = %+v\n%s", m.Advice, m.MentorOutput)
	}
}

// After the Mentor stood in for a missing folder with an empty one, a file
// that folder should have held is missing because of the stand-in: the
// environment, not a second gap of the tutorial.
func TestContainerMissingBehindAStandIn(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "standin.md")
	notes := []status.MentorNote{{Iteration: 1, Line: 6, Category: status.CategoryMissingFile,
		Resolution: status.ResolutionWorkaround, Workaround: "mkdir -p lesson-data"}}
	res := s.student(t, 2, behavior(nil), notes, runOptions{})
	fs := res.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 12 || fs[0].Category != status.CategoryEnvironment {
		t.Fatalf("want one environment finding at line 12:\n%s", dump(t, res))
	}
}

// A step that downloads from a package registry the container cannot reach
// is the environment's: the Student checks the address first (the image
// has no pip, but no install would help without a network), does not run
// the step, quotes the check, and still follows the step that does not
// need it.
func TestContainerUnreachableRegistryIsEnvironment(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "network.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{args: []string{"--network", "none"}})
	fs := res.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 6 || fs[0].Category != status.CategoryEnvironment {
		t.Fatalf("want one environment finding at line 6:\n%s", dump(t, res))
	}
	if !strings.Contains(fs[0].Output, "cannot connect to pypi.org:443 (the Python Package Index)") ||
		!strings.Contains(fs[0].SuggestedFix, "needs the network") {
		t.Errorf("finding does not carry the check's evidence and the network fix: %+v", fs[0])
	}
	if at := commandsAt(res.Audit, 6); len(at) != 0 {
		t.Errorf("the install ran although its registry cannot be reached: %s", dump(t, at))
	}
	if at := commandsAt(res.Audit, 12); len(at) != 1 || at[0].ExitCode != 0 {
		t.Errorf("the independent step was not followed: %s", dump(t, at))
	}
}

// A build that downloads its project's dependencies only when it has some
// (a Maven wrapper) is run; when it fails and the container cannot reach
// where they come from, the failure is the environment's, with the check's
// evidence leading the output, so the Mentor reads it the same way.
func TestContainerFailedBuildWithoutItsRepositoryIsEnvironment(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "network-build.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{args: []string{"--network", "none"}})
	fs := res.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 15 || fs[0].Category != status.CategoryEnvironment {
		t.Fatalf("want one environment finding at line 15:\n%s", dump(t, res))
	}
	if !strings.HasPrefix(fs[0].Output, "the container cannot connect to repo.maven.apache.org:443 (Maven Central)") ||
		!strings.Contains(fs[0].Output, "could not resolve the project's plugins") {
		t.Errorf("output = %q", fs[0].Output)
	}
	if at := commandsAt(res.Audit, 15); len(at) != 1 {
		t.Errorf("the build must run before it is judged: %s", dump(t, at))
	}
	m := s.mentor(t, 1, res.StudentOutput, nil)
	if m.Advice == nil || !strings.Contains(m.Advice.SuggestedFix, "needs the network") {
		t.Errorf("the Mentor does not read the failure as the network's: %+v\n%s", m.Advice, m.MentorOutput)
	}
}

// A file that comes with the page (a lab README's folder holds it) and that
// the page names is in the reader's folder from the start: the Student
// copies it in from the page's own folder before the first step, and the
// page completes with the output compared. A file the page's own steps make
// (`mkdir`, a written file) is left for them to make.
func TestContainerFileShippedWithThePage(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "shipped.md")
	for name, text := range map[string]string{"greet.sh": "echo hello from the exercise\n", "notes/old.txt": "the solution\n", "tutorial.md.orig": "x\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(s.tutorialDir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s.tutorialDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	if res.StudentOutput.Status != status.StudentCompleted || len(res.StudentOutput.Findings) != 0 {
		t.Fatalf("want completed with nothing found:\n%s", dump(t, res))
	}
	copies := commandsAt(res.Audit, 0)
	if len(copies) != 1 || !strings.Contains(copies[0].Command, "/workspace/tutorial/greet.sh") ||
		strings.Contains(copies[0].Command, "notes") || strings.Contains(copies[0].Command, "orig") {
		t.Fatalf("want greet.sh alone copied in before the first step (notes is made by the page, the rest unnamed): %+v", copies)
	}
	if data, err := os.ReadFile(filepath.Join(s.work, "notes", "mine.txt")); err != nil || string(data) != "my own notes\n" {
		t.Errorf("the page's own notes folder: %q, %v", data, err)
	}
}

// A file the page never names but one of its steps needs (the shipped
// script reads a data file beside it) is the environment's when the page's
// folder holds it: the Student says so, the Mentor copies it from there, and
// the next attempt completes.
func TestContainerUnnamedFileShippedWithThePage(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "shipped.md")
	for name, text := range map[string]string{"greet.sh": "cat ./greeting.txt\n", "greeting.txt": "hello from the exercise\n"} {
		if err := os.WriteFile(filepath.Join(s.tutorialDir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := s.student(t, 1, behavior(nil), nil, runOptions{})
	fs := first.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 7 || fs[0].Category != status.CategoryEnvironment ||
		!strings.Contains(fs[0].Problem, "the files that come with the page: `greeting.txt`") {
		t.Fatalf("want the missing data file read as one that comes with the page:\n%s", dump(t, first))
	}
	m := s.mentor(t, 1, first.StudentOutput, nil)
	if m.Advice == nil || m.Advice.Resolution != status.ResolutionWorkaround ||
		m.Advice.Workaround != "cp -r /workspace/tutorial/greeting.txt greeting.txt" {
		t.Fatalf("mentor advice = %+v\n%s", m.Advice, m.MentorOutput)
	}
	second := s.fresh(t).student(t, 2, behavior(nil), []status.MentorNote{note(1, m)}, runOptions{})
	if second.StudentOutput.Status != status.StudentCompleted || len(second.StudentOutput.Findings) != 0 {
		t.Fatalf("iteration 2: want completed with nothing found:\n%s", dump(t, second))
	}
}

// A build whose output is the compiler's own error reached the code: its
// failure is the page's, not the network's, even where the dependency
// repository cannot be reached.
func TestContainerCompileErrorIsNotTheNetwork(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "network-compile.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{args: []string{"--network", "none"}})
	fs := res.StudentOutput.Findings
	if len(fs) != 1 || fs[0].Line != 15 || fs[0].Category != status.CategoryCommandFailure {
		t.Fatalf("want one command failure at line 15:\n%s", dump(t, res))
	}
}

// A transcript's prompt shows the folder its command runs in; a folder that
// comes with the page is copied in before the first step, and the command
// runs inside it and prints what the page shows.
func TestContainerPromptFolderThatComesWithThePage(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "prompt-folder.md")
	if err := os.MkdirAll(filepath.Join(s.tutorialDir, "demo1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.tutorialDir, "demo1", "build.sh"), []byte("echo built \"$(basename \"$PWD\")\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	if res.StudentOutput.Status != status.StudentCompleted || len(res.StudentOutput.Findings) != 0 {
		t.Fatalf("want completed with the output compared:\n%s", dump(t, res))
	}
	if cmds := commandsAt(res.Audit, 6); len(cmds) != 1 || cmds[0].ExitCode != 0 {
		t.Errorf("the build at line 6 did not run once and succeed: %+v", cmds)
	}
}
