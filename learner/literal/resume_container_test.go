package literal_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// A Student told to resume at a line does not follow the steps above it,
// and its first command runs with the checkpoint's shell state.
func TestStudentResumesAtTheLineWithTheShellState(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "resume.md")
	data, _ := os.ReadFile(filepath.Join(s.tutorialDir, "tutorial.md"))
	line := slices.Index(strings.Split(string(data), "\n"), `echo "hello $NAME" >> ran.txt`) + 1
	task := wire.Task{Run: "test", Role: status.RoleStudent, Provider: spec.ProviderLiteral, Iteration: 2, Behavior: behavior(nil),
		Resume: &wire.Resume{Line: line, Shell: status.ShellState{Cwd: wire.ContainerWorkDir, Vars: []string{"NAME"}, Script: "declare -x NAME=\"world\"\n"}}}
	var res wire.StudentResultRequest
	if err := json.Unmarshal(s.run(t, task, runOptions{}), &res); err != nil {
		t.Fatal(err)
	}
	if res.StudentOutput.Status != status.StudentCompleted {
		t.Fatalf("status %s: %s", res.StudentOutput.Status, dump(t, res.StudentOutput))
	}
	if got := res.StudentOutput.CommandsRun; len(got) != 1 || !strings.Contains(got[0], "hello") {
		t.Errorf("commands run = %q, want only the greeting", got)
	}
	ran, err := os.ReadFile(filepath.Join(s.work, "ran.txt"))
	if err != nil || string(ran) != "hello world\n" {
		t.Errorf("ran.txt = %q (%v), want only the resumed step's line, with the restored variable", ran, err)
	}
}
