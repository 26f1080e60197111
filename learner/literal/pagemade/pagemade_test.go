package pagemade

import (
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
)

func TestFileAndAccount(t *testing.T) {
	steps := []reading.Step{
		{Kind: reading.StepWrite, File: reading.Destination{Path: "src/app.py"}},
		{Kind: reading.StepRun, Command: reading.Command{Text: "echo hi > notes.txt"}},
		{Kind: reading.StepRun, Command: reading.Command{Text: "sudo useradd -m mira"}},
		{Kind: reading.StepRun, Command: reading.Command{Text: "groupadd devs"}},
	}
	for name, want := range map[string]bool{"app.py": true, "notes.txt": true, "file.txt": false} {
		if got := File(steps, name); got != want {
			t.Errorf("File(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"mira": true, "mira:devs": true, "john": false} {
		if got := Account(steps, name); got != want {
			t.Errorf("Account(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestPath(t *testing.T) {
	steps := []reading.Step{
		{Kind: reading.StepWrite, File: reading.Destination{Path: "./lab/count.sh"}},
		{Kind: reading.StepRun, Command: reading.Command{Text: "mkdir data"}},
	}
	for name, want := range map[string]bool{"lab": true, "lab/count.sh": true, "data": true, "count.sh": false, "words.txt": false} {
		if got := Path(steps, name); got != want {
			t.Errorf("Path(%q) = %v, want %v", name, got, want)
		}
	}
}
