package literal

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/learner/session"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// failingHands are scriptedHands whose listed commands are not found.
type failingHands struct {
	scriptedHands
	missing map[string]bool
}

func (h failingHands) Do(ctx context.Context, req session.Request) (session.Response, error) {
	if req.Op == session.OpRun && h.missing[req.Run.Command] {
		name := strings.Fields(req.Run.Command)[0]
		return session.Response{Result: &session.Result{ExitCode: 127, Output: "bash: " + name + ": command not found\n"}}, nil
	}
	return h.scriptedHands.Do(ctx, req)
}

// walkPage runs one Student attempt on markdown with the hands given.
func walkPage(t *testing.T, markdown string, hands session.Hands) status.StudentOutput {
	t.Helper()
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(markdown), 0o644); err != nil {
		t.Fatal(err)
	}
	b := spec.DefaultConfig().StudentBehavior
	task := &wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 1, Tutorial: tutorial, Behavior: b}
	env := provider.Env{WorkDir: wire.ContainerWorkDir, Progress: provider.NoProgress, Log: logr.Discard(), Environ: []string{"PATH=/usr/bin:/bin"}, Hands: hands}
	return runStudent(context.Background(), task, env).StudentOutput
}

func outcomes(c *status.Coverage) map[int]status.Outcome {
	out := map[int]status.Outcome{}
	for _, b := range c.BlockList {
		out[b.Line] = b.Outcome
	}
	return out
}

// Every code block of the page gets what the Student did with it: written,
// run, compared, or skipped with the planner's reason, and the lines of
// code it covered.
func TestCoverageSaysWhatBecameOfEachBlock(t *testing.T) {
	tutorial := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutorial, []byte(resumeTutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := walkOnce(t, tutorial, &wire.Resume{})
	c := res.StudentOutput.Coverage
	if c == nil {
		t.Fatal("no coverage in the literal Student's result")
	}
	want := map[int]status.Outcome{5: status.OutcomeWritten, 9: status.OutcomeRun, 15: status.OutcomeCompared, 19: status.OutcomeRun,
		25: status.OutcomeCompared, 31: status.OutcomeSkipped, 35: status.OutcomeRun, 41: status.OutcomeWritten, 47: status.OutcomeCompared,
		51: status.OutcomeRun, 57: status.OutcomeCompared}
	if got := outcomes(c); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if c.Blocks != 11 || c.Exercised != 10 || c.Run != 4 || c.Written != 2 || c.Compared != 4 || c.Skipped != 1 || c.NotReached != 0 {
		t.Errorf("counts %+v", c)
	}
	if len(c.SkippedBy) != 1 || c.SkippedBy[0].Blocks != 1 || c.SkippedBy[0].Lines[0] != 31 || !strings.Contains(c.SkippedBy[0].Reason, "yaml") {
		t.Errorf("skipped by reason %+v, want the yaml block at line 31 with the planner's reason", c.SkippedBy)
	}
	if c.Lines != 11 || c.LinesCovered != 10 {
		t.Errorf("lines covered %d of %d, want 10 of 11", c.LinesCovered, c.Lines)
	}
}

// A Student that meets a failure goes on, but a later step that needs what
// failed (the program found missing) is not reached; a block typed into a
// program as input is run with it; a block for another platform is skipped
// with its reason.
func TestCoverageAfterAStopIsNotReached(t *testing.T) {
	page := "# Numbers\n\n" + // 1
		"Start the interpreter:\n\n" + // 3
		"```bash\npython3\n```\n\n" + // 5-7
		"Type at the prompt:\n\n" + // 9
		"```python\nprint(1+1)\n```\n\n" + // 11-13
		"On Windows, use:\n\n" + // 15
		"```powershell\nGet-ChildItem\n```\n\n" + // 17-19
		"```bash\nmissingtool --go\necho after\n```\n\n" + // 21-24
		"```bash\nmissingtool --again\n```\n" // 26-28
	out := walkPage(t, page, failingHands{missing: map[string]bool{"missingtool --go": true}})
	if out.Status != status.StudentAskMentor {
		t.Fatalf("status %s (%s), want ask_mentor at line 22", out.Status, out.Summary)
	}
	c := out.Coverage
	want := map[int]status.Outcome{5: status.OutcomeRun, 11: status.OutcomeRun, 17: status.OutcomeSkipped, 21: status.OutcomeRun, 26: status.OutcomeNotReached}
	if got := outcomes(c); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if c.Exercised != 3 || c.NotReached != 1 || c.Skipped != 1 {
		t.Errorf("counts %+v", c)
	}
	// The step that needs the missing program was never run: its line is not covered.
	if c.Lines != 6 || c.LinesCovered != 4 {
		t.Errorf("lines covered %d of %d, want 4 of 6 (python3, its input, the failed command and the one after it)", c.LinesCovered, c.Lines)
	}
}

// A page of which SMILE can follow nothing is read through: every block is
// skipped with the planner's reason, none is "not reached", and the
// coverage says SMILE could not follow the page.
func TestCoverageOfAPageWithNothingToFollow(t *testing.T) {
	page := "# Set up on Windows\n\n" +
		"Open PowerShell as an administrator and run:\n\n" +
		"```powershell\nSet-ExecutionPolicy RemoteSigned\n```\n\n" +
		"Then list your drives:\n\n" +
		"```powershell\nGet-PSDrive\n```\n"
	out := walkPage(t, page, scriptedHands{})
	c := out.Coverage
	if out.Status != status.StudentCannotComplete || c == nil {
		t.Fatalf("status %s, coverage %+v", out.Status, c)
	}
	if c.Blocks != 2 || c.Exercised != 0 || c.Skipped != 2 || c.NotReached != 0 {
		t.Errorf("counts %+v, want 2 blocks skipped", c)
	}
	if s := c.Sentence(); !strings.Contains(s, "SMILE exercised 0 of 2 code blocks: it could not follow this page") {
		t.Errorf("sentence %q", s)
	}
}

// An unreadable tutorial gives no coverage: unknown, not zero.
func TestCoverageUnknownWithoutAPage(t *testing.T) {
	task := &wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 1,
		Tutorial: filepath.Join(t.TempDir(), "missing.md"), Behavior: spec.DefaultConfig().StudentBehavior}
	env := provider.Env{WorkDir: wire.ContainerWorkDir, Progress: provider.NoProgress, Log: logr.Discard(), Hands: scriptedHands{}}
	if c := runStudent(context.Background(), task, env).StudentOutput.Coverage; c != nil {
		t.Errorf("coverage %+v for a tutorial that cannot be read", c)
	}
}

// A step the page offers per platform, each variant labelled with what it
// is for, is one step: the variants the Student passed over are not on its
// path and the share leaves them out. Blocks for another platform that are
// steps of their own (no variant for this one) still count.
func TestCoverageLeavesOutOtherVariants(t *testing.T) {
	page := "# Where is home?\n\n" + // 1
		"On Linux or macOS:\n\n" + // 3
		"```bash\necho \"$HOME\"\n```\n\n" + // 5-7
		"On Windows (PowerShell):\n\n" + // 9
		"```powershell\n$env:USERPROFILE\n```\n\n" + // 11-13
		"On Windows (Command Prompt):\n\n" + // 15
		"```cmd\necho %USERPROFILE%\n```\n\n" + // 17-19
		"Then open PowerShell and list the drives:\n\n" + // 21
		"```powershell\nGet-PSDrive\n```\n" // 23-25
	out := walkPage(t, page, scriptedHands{})
	c := out.Coverage
	want := map[int]status.Outcome{5: status.OutcomeRun, 11: status.OutcomeAlternative, 17: status.OutcomeAlternative, 23: status.OutcomeSkipped}
	if got := outcomes(c); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	if c.Blocks != 4 || c.Alternatives != 2 || c.Path() != 2 || c.Cell() != "1/2" || c.Percent() != 50 {
		t.Errorf("coverage %+v (cell %s), want 1 of the 2 blocks on the path", c, c.Cell())
	}
	if !strings.Contains(c.BlockList[1].Reason, "another variant of the step at line 5") {
		t.Errorf("reason %q", c.BlockList[1].Reason)
	}
}

// A piece of a program shown on its own (display text, nothing to run) is
// exercised through the whole program when every line of it appears there,
// in order and spaced any way; a piece the program does not hold stays
// skipped, and so does a block too short to be evidence.
func TestCoveragePiecesOfAProgramRunWithIt(t *testing.T) {
	page := "# Sums\n\n" + // 1
		"A loop over the fields:\n\n" + // 3
		"```\n# sum them\nfor (i = 1;  i <= NF; i++)\n    s += $i\n```\n\n" + // 5-9
		"A line no program here has:\n\n" + // 11
		"```\nwhile (n > 0) n--\n```\n\n" + // 13-15
		"Too short to tell:\n\n" + // 17
		"```\nprint\n```\n\n" + // 19-21
		"The program, run:\n\n" + // 23
		"```bash\necho '1 2' | awk '{ for (i = 1; i <= NF; i++) s += $i; print s }'\n```\n" // 25-27
	out := walkPage(t, page, scriptedHands{})
	c := out.Coverage
	want := map[int]status.Outcome{5: status.OutcomeRun, 13: status.OutcomeSkipped, 19: status.OutcomeSkipped, 25: status.OutcomeRun}
	if got := outcomes(c); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	for _, b := range c.BlockList {
		if b.Line == 5 && (!strings.Contains(b.Reason, "line 25") || b.Covered != 3) {
			t.Errorf("the piece at line 5: reason %q, %d lines covered; want it named as part of line 25, its three lines covered", b.Reason, b.Covered)
		}
	}
}

// A file written after the last command the Student ran was used by
// nothing: it is not counted as exercised, and a page that only writes
// files has tested nothing.
func TestCoverageWrittenButNeverUsed(t *testing.T) {
	page := "# Files\n\n" + // 1
		"Save this as `a.txt`:\n\n```text\nalpha\n```\n\n" + // 3, 5-7
		"```bash\ncat a.txt\n```\n\n" + // 9-11
		"Save this as `b.txt`:\n\n```text\nbeta\n```\n" // 13, 15-17
	c := walkPage(t, page, scriptedHands{}).Coverage
	want := map[int]status.Outcome{5: status.OutcomeWritten, 9: status.OutcomeRun, 15: status.OutcomeSkipped}
	if got := outcomes(c); !reflect.DeepEqual(got, want) {
		t.Errorf("outcomes %v, want %v", got, want)
	}
	only := walkPage(t, "# Files\n\nSave this as `c.txt`:\n\n```text\ngamma\n```\n", scriptedHands{}).Coverage
	if only.Exercised != 0 || len(only.SkippedBy) != 1 || !strings.Contains(only.SkippedBy[0].Reason, "no command") {
		t.Errorf("a page that only writes a file: %+v, want nothing exercised and the reason said", only)
	}
}

// A lab sheet's empty blocks, left for the reader's answers, are no code to
// exercise: the page's one command is all of it.
func TestCoverageLeavesOutEmptyAnswerBlocks(t *testing.T) {
	page := "# Lab\n\nList the folder:\n\n```bash\nls\n```\n\nTask 1. Write your answer:\n\n```bash\n\n```\n\nTask 2. Write your answer:\n\n```\n\n\n```\n"
	out := walkPage(t, page, scriptedHands{})
	c := out.Coverage
	if c == nil || c.Blocks != 1 || c.Exercised != 1 {
		t.Fatalf("coverage %+v, want 1 block, exercised", c)
	}
}
