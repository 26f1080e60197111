package literal

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
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

// scriptedHands play a container without running anything: each command
// prints what the script says (nothing by default) and exits 0, `command
// -v` finds no program, and files are written nowhere.
// scriptedHands answers each command with its scripted output and exit
// code (0 unless exit says otherwise).
type scriptedHands struct {
	output map[string]string
	exit   map[string]int
}

func (h scriptedHands) Do(_ context.Context, req session.Request) (session.Response, error) {
	switch req.Op {
	case session.OpInit:
		return session.Response{Shell: "/bin/bash", Bash: true, Dir: "/tmp/smile-session"}, nil
	case session.OpRun:
		res := &session.Result{Output: h.output[req.Run.Command], ExitCode: h.exit[req.Run.Command]}
		if strings.HasPrefix(req.Run.Command, "command -v ") {
			res.ExitCode = 1
		}
		return session.Response{Result: res}, nil
	case session.OpRead:
		return session.Response{Err: "no such file", Errno: 2}, nil
	}
	return session.Response{}, nil
}

// resumeTutorial has, above its later steps, all a Student learns on the
// way: a file written, an output difference it meets again further down, a
// note that the output may differ, a display block it does not follow, the
// output of a command that an output block after a file shows.
const resumeTutorial = "# Learn as you go\n" + // 1
	"\n" +
	"Save the following as `greeting.txt`:\n" + // 3
	"\n" +
	"```text\nHi\n```\n" + // 5-7
	"\n" +
	"```bash\ncat greeting.txt\n```\n" + // 9-11
	"\n" +
	"You should see:\n" + // 13
	"\n" +
	"```\nHello\n```\n" + // 15-17
	"\n" +
	"```bash\necho \"colour: blue\"\n```\n" + // 19-21
	"\n" +
	"You should see the following (your colour may differ):\n" + // 23
	"\n" +
	"```\ncolour: green\n```\n" + // 25-27
	"\n" +
	"The configuration looks like this:\n" + // 29
	"\n" +
	"```yaml\nport: 8080\n```\n" + // 31-33
	"\n" +
	"```bash\nls\n```\n" + // 35-37
	"\n" +
	"Save the following as `notes.txt`:\n" + // 39
	"\n" +
	"```text\nnotes\n```\n" + // 41-43
	"\n" +
	"You should see:\n" + // 45
	"\n" +
	"```\ngreeting.txt\n```\n" + // 47-49
	"\n" +
	"```bash\ncat ./greeting.txt\n```\n" + // 51-53
	"\n" +
	"You should see:\n" + // 55
	"\n" +
	"```\nHello\n```\n" // 57-59

// walkOnce runs one Student attempt on the tutorial with scripted hands,
// keeping a checkpoint before every step it may (none when resume is set).
func walkOnce(t *testing.T, tutorial string, resume *wire.Resume) (*wire.StudentResultRequest, map[int]*wire.Resume) {
	t.Helper()
	kept := map[int]*wire.Resume{}
	task := &wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 2, Tutorial: tutorial,
		Behavior: spec.DefaultConfig().StudentBehavior, Checkpoints: resume == nil, Resume: resume}
	env := provider.Env{WorkDir: wire.ContainerWorkDir, Progress: provider.NoProgress, Log: logr.Discard(), Environ: []string{"PATH=/usr/bin:/bin"},
		Hands: scriptedHands{output: map[string]string{"cat greeting.txt": "Hi\n", "cat ./greeting.txt": "Hi\n",
			`echo "colour: blue"`: "colour: blue\n", "ls": "greeting.txt\n"}},
		Checkpoint: func(_ context.Context, line int, _ string, shell status.ShellState, learned *status.Learned) error {
			kept[line] = &wire.Resume{Line: line, Shell: shell, Learned: learned}
			return nil
		}}
	return runStudent(context.Background(), task, env), kept
}

// An attempt that starts from a checkpoint says what one from the top
// says: the same findings (an output difference met above the checkpoint
// and again below it is one finding with both lines), the same skipped
// blocks, commands, files and summary; only the sentence that it started
// from a checkpoint is its own. It holds for a checkpoint before every step.
func TestResumedAttemptKnowsWhatTheStepsAboveTaught(t *testing.T) {
	old := checkpointAfter
	checkpointAfter = 0
	t.Cleanup(func() { checkpointAfter = old })
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(resumeTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	top, kept := walkOnce(t, tutorial, nil)
	want := top.StudentOutput
	if want.Status != status.StudentCompleted {
		t.Fatalf("from the top: %s %s", want.Status, want.Summary)
	}
	if len(want.Findings) != 1 || !slices.Equal(want.Findings[0].Lines, []int{58}) || len(want.Skipped) < 2 {
		t.Fatalf("from the top the fixture should give one output difference at lines 16 and 58, and skipped blocks: %+v, %+v", want.Findings, want.Skipped)
	}
	lines := slices.Sorted(func(yield func(int) bool) {
		for l := range kept {
			if !yield(l) {
				return
			}
		}
	})
	if !slices.Contains(lines, 41) || !slices.Contains(lines, 52) {
		t.Fatalf("checkpoints kept before lines %v, want one before the file at line 41 and the command at line 52", lines)
	}
	if !slices.ContainsFunc(want.AttemptedActions, func(a string) bool {
		return strings.HasPrefix(a, "compared the output shown at line 48 with the output of `ls`")
	}) {
		t.Fatalf("from the top the output after the file at line 41 is not compared with the listing's: %q", want.AttemptedActions)
	}
	for _, line := range lines {
		got, _ := walkOnce(t, tutorial, kept[line])
		out := got.StudentOutput
		resumed := slices.IndexFunc(out.AttemptedActions, func(a string) bool { return strings.HasPrefix(a, "started from the checkpoint") })
		if resumed < 0 {
			t.Fatalf("line %d: no action says the attempt started from the checkpoint", line)
		}
		out.AttemptedActions = slices.Delete(out.AttemptedActions, resumed, resumed+1)
		for _, f := range []struct {
			name      string
			got, want any
		}{
			{"status", out.Status, want.Status},
			{"summary", out.Summary, want.Summary},
			{"findings", out.Findings, want.Findings},
			{"skipped", out.Skipped, want.Skipped},
			{"commands", out.CommandsRun, want.CommandsRun},
			{"files", out.FilesCreated, want.FilesCreated},
			{"coverage", out.Coverage, want.Coverage},
			{"actions", out.AttemptedActions, want.AttemptedActions},
		} {
			if !reflect.DeepEqual(f.got, f.want) {
				t.Errorf("from the checkpoint before line %d, %s:\n  %+v\nfrom the top:\n  %+v", line, f.name, f.got, f.want)
			}
		}
	}
}

// A checkpoint from before SMILE carried what the Student learned still
// lists the blocks above it that were not followed.
func TestResumedWithoutLearnedListsSkippedBlocks(t *testing.T) {
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(resumeTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	got, _ := walkOnce(t, tutorial, &wire.Resume{Line: 52, Shell: status.ShellState{Cwd: wire.ContainerWorkDir}})
	if !slices.ContainsFunc(got.StudentOutput.Skipped, func(b status.SkippedBlock) bool { return b.Line == 31 }) {
		t.Errorf("skipped %+v, want the display block at line 31", got.StudentOutput.Skipped)
	}
	// The steps above it were followed by the attempt that kept it.
	if c := got.StudentOutput.Coverage; c == nil || c.Exercised != 10 || c.Skipped != 1 {
		t.Errorf("coverage %+v, want the 10 blocks above and below the checkpoint exercised", c)
	}
}
