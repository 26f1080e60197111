package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smile-loop/smile/cmd/smile/internal/planview"
)

// planPage is a small page of our own: a folder made, a file named in the
// prose and written, a command, its output, and a block for macOS only.
const planPage = "# Plan\n\n```bash\nmkdir -p notes\n```\n\nCreate `notes/todo.txt` with:\n\n```text\nbuy milk\n```\n\n" +
	"```bash\nwc -l notes/todo.txt\n```\n\nYou should see:\n\n```\n1 notes/todo.txt\n```\n\nOn macOS only:\n\n```bash\nopen notes\n```\n"

func TestPlanTableReadsEveryBlockAndRunsNothing(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "tutorial.md", planPage)
	code, out, errOut := runMain(t, "plan", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"LINES", "ACTION",
		"run      mkdir -p notes",
		"write    notes/todo.txt (replace)",
		"run      wc -l notes/todo.txt",
		"compare  output of line 14, exact",
		"omit",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "notes")); err == nil {
		t.Errorf("plan ran a command: notes/ exists")
	}
}

func TestPlanJSONAndRunNames(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "tutorial.md", planPage)
	fabricate(t, dir, "notes", nil)
	for _, arg := range []string{"notes", filepath.Join(dir, "notes.yaml")} {
		code, out, errOut := runMain(t, "plan", "--dir", dir, arg, "-o", "json")
		if code != 0 {
			t.Fatalf("plan %s: exit %d: %s", arg, code, errOut)
		}
		var doc planview.Document
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("plan %s -o json: %v\n%s", arg, err, out)
		}
		if !strings.HasSuffix(doc.Tutorial, "tutorial.md") || len(doc.Steps) != 5 {
			t.Fatalf("plan %s: tutorial %q, %d steps, want tutorial.md and 5: %+v", arg, doc.Tutorial, len(doc.Steps), doc.Steps)
		}
		if s := doc.Steps[1]; s.Action != "write" || s.Line != 9 || s.Target != "notes/todo.txt (replace)" || s.Why == "" {
			t.Errorf("plan %s: second step = %+v, want the write at line 9 with its reason", arg, s)
		}
	}
}

func TestPlanErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"plan", "--dir", dir, "nosuchrun"}, "neither a file nor a run applied"},
		{[]string{"plan", "--dir", dir, writeFile(t, dir, "t.md", "# x\n"), "-o", "xml"}, `unknown output format "xml"`},
		{[]string{"plan"}, "accepts 1 arg"},
	} {
		code, _, errOut := runMain(t, tc.args...)
		if code == 0 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want an error saying %q", tc.args, code, errOut, tc.want)
		}
	}
}

// A program's fence closed only after the page's prose and session: the
// plan reads the program alone and names the fault, as the Student does.
func TestPlanShowsAFenceClosedLate(t *testing.T) {
	page := "# Hi\n\n```c\nint main(void)\n{\n    return 0;\n}\n\nThe first line is where the program starts to run for you.\nIt returns zero to say that everything went well today.\nSave it as hi.c and build it with the compiler like this:\n\n$ cc hi.c -o hi\n```\n"
	path := writeFile(t, t.TempDir(), "tutorial.md", page)
	code, out, errOut := runMain(t, "plan", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "3-7") || !strings.Contains(out, "fence.closed-late") {
		t.Errorf("plan output lacks the program alone (lines 3-7) and fence.closed-late:\n%s", out)
	}
}
