package literal

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// exitHands play a container whose commands exit as scripted (0 and no
// output unless the script says otherwise).
type exitHands struct {
	exit   map[string]int
	output map[string]string
}

func (h exitHands) Do(_ context.Context, req session.Request) (session.Response, error) {
	switch req.Op {
	case session.OpInit:
		return session.Response{Shell: "/bin/bash", Bash: true, Dir: "/tmp/smile-session"}, nil
	case session.OpRun:
		res := &session.Result{Output: h.output[req.Run.Command], ExitCode: h.exit[req.Run.Command]}
		if strings.HasPrefix(req.Run.Command, "command -v ") {
			res.ExitCode = 1
		}
		return session.Response{Result: res}, nil
	case session.OpRead, session.OpList:
		return session.Response{Err: "no such file", Errno: 2}, nil
	}
	return session.Response{}, nil
}

const keepGoingTutorial = "# Keep going\n" + // 1
	"\n" +
	"```bash\n" + // 3
	"cat settings.ini\n" + // 4: fails
	"grep port settings.ini\n" + // 5: needs line 4
	"echo independent\n" + // 6
	"```\n" + // 7
	"\n" +
	"```bash\n" + // 9
	"sh -c 'exit 3'\n" + // 10: fails
	"echo after\n" + // 11
	"```\n"

// The Student records a failure and goes on with the steps that do not
// depend on it; the step that does is not reached, listed with the failed
// line; the Mentor is asked about the first failure only; no checkpoint is
// kept past a failure.
func TestStudentKeepsGoing(t *testing.T) {
	old := checkpointAfter
	checkpointAfter = 0
	t.Cleanup(func() { checkpointAfter = old })
	var kept []int
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(keepGoingTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	task := &wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 1,
		Tutorial: tutorial, Behavior: spec.DefaultConfig().StudentBehavior, Checkpoints: true}
	env := provider.Env{WorkDir: wire.ContainerWorkDir, Progress: provider.NoProgress, Log: logr.Discard(), Environ: []string{"PATH=/usr/bin:/bin"},
		Hands: exitHands{
			exit:   map[string]int{"cat settings.ini": 1, "sh -c 'exit 3'": 3},
			output: map[string]string{"cat settings.ini": "cat: settings.ini: No such file or directory\n"},
		},
		Checkpoint: func(_ context.Context, line int, _ string, _ status.ShellState, _ *status.Learned) error {
			kept = append(kept, line)
			return nil
		}}
	out := runStudent(context.Background(), task, env).StudentOutput
	if out.Status != status.StudentAskMentor || out.Line != 4 || !strings.HasPrefix(out.QuestionForMentor, "At line 4 ") {
		t.Fatalf("want ask_mentor about line 4: %+v", out)
	}
	if len(out.Findings) != 2 || out.Findings[0].Line != 4 || !out.Findings[0].Asked || out.Findings[1].Line != 10 || out.Findings[1].Asked {
		t.Errorf("findings = %+v, want line 4 (asked) and line 10", out.Findings)
	}
	if len(out.Skipped) != 1 || out.Skipped[0].Line != 5 || out.Skipped[0].FailedLine != 4 ||
		out.Skipped[0].Reason != "not reached: line 4 failed, and this step uses `settings.ini`, which line 4 used first" {
		t.Errorf("skipped = %+v, want line 5 not reached because of line 4", out.Skipped)
	}
	ran := strings.Join(out.CommandsRun, "|")
	if ran != "cat settings.ini|echo independent|sh -c 'exit 3'|echo after" {
		t.Errorf("commands run: %s", ran)
	}
	for _, l := range kept {
		if l > 4 {
			t.Errorf("a checkpoint was kept at line %d, past the failure at line 4 (kept %v)", l, kept)
		}
	}
	if !strings.Contains(out.Summary, "1 step not reached") {
		t.Errorf("summary = %q", out.Summary)
	}
}

const lackingTutorial = "# Lists and a diary\n" + // 1
	"\n" +
	"## Prerequisites\n" + // 3
	"\n" +
	"- Git, installed and on your PATH\n" + // 5
	"\n" +
	"Download the example files from the book's site before you start; every command below reads them.\n" + // 7
	"\n" +
	"```bash\n" + // 9
	"git init -q\n" + // 10: the image lacks git
	"git add .\n" + // 11: starts git: not reached
	"cat fruit.txt\n" + // 12: the files readers get separately
	"cat colour.txt\n" + // 13: the same lack
	"```\n"

// A program a failure found missing stops the later steps that start it,
// whatever rule then said whose gap it is (here a listed prerequisite: the
// environment); and what the container lacks is one finding however many
// steps meet it.
func TestStudentOneFindingPerLack(t *testing.T) {
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(lackingTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	task := &wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 1,
		Tutorial: tutorial, Behavior: spec.DefaultConfig().StudentBehavior}
	notFound := "bash: line 1: git: command not found\n"
	env := provider.Env{WorkDir: wire.ContainerWorkDir, Progress: provider.NoProgress, Log: logr.Discard(), Environ: []string{"PATH=/usr/bin:/bin"},
		Hands: exitHands{
			exit: map[string]int{"git init -q": 127, "cat fruit.txt": 1, "cat colour.txt": 1},
			output: map[string]string{"git init -q": notFound, "cat fruit.txt": "cat: fruit.txt: No such file or directory\n",
				"cat colour.txt": "cat: colour.txt: No such file or directory\n"},
		}}
	out := runStudent(context.Background(), task, env).StudentOutput
	var got []string
	for _, f := range out.Findings {
		got = append(got, fmt.Sprintf("%d %s %v", f.Line, f.Category, f.Lines))
	}
	if want := []string{"10 environment []", "12 environment [13]"}; !slices.Equal(got, want) {
		t.Errorf("findings = %q, want %q", got, want)
	}
	if len(out.Skipped) != 1 || out.Skipped[0].Line != 11 || out.Skipped[0].FailedLine != 10 {
		t.Errorf("skipped = %+v, want line 11 not reached because of line 10", out.Skipped)
	}
}
