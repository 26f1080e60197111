package mentor

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec/spectest"
)

// Listings of the machine's own folders (its top, its users' homes) print
// the reader's machine; a listing of the lesson's folders does not.
func TestMachineListing(t *testing.T) {
	tut := spectest.Tutorial(t, "# Walk\n\n```console\nada:/home$ ls\nada\nada:/home$ cd /tmp\nada:/tmp$ ls\nnotes\n```\n")
	var cmds []reading.Command
	for _, st := range reading.Plan(tut) {
		if st.Kind == reading.StepRun {
			cmds = append(cmds, st.Command)
		}
	}
	if len(cmds) != 3 || !MachineListing(cmds[0]) || MachineListing(cmds[2]) {
		t.Fatalf("prompt folders: %+v", cmds)
	}
	for text, want := range map[string]bool{
		"ls -l /home":           true,
		"ls -l / | tail -n1":    true,
		"ls /":                  true,
		"ls -l":                 false,
		"ls -l /home/ada/notes": false,
		"ls / data":             false,
		"ls -l / | grep var":    false,
		"cat /home":             false,
	} {
		if got := MachineListing(reading.Command{Text: text}); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
