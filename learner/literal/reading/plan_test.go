package reading

import (
	"reflect"
	"testing"

	"github.com/smile-loop/smile/learner/literal/placeholder"
	"github.com/smile-loop/smile/learner/literal/shell"
	"github.com/smile-loop/smile/spec/spectest"
)

type planned struct {
	Kind StepKind
	Line int
	What string // command, file or first expected line
}

func summarize(steps []Step) []planned {
	var out []planned
	for _, s := range steps {
		p := planned{Kind: s.Kind, Line: s.Line}
		switch s.Kind {
		case StepRun:
			p.What = s.Command.Text
		case StepWrite:
			p.What = s.File.Path
			if s.File.Append {
				p.What += " (append)"
			}
		case StepCompare:
			p.What = s.Expected[0].Text
		case StepImage:
			p.What = s.Image.Reference
		}
		out = append(out, p)
	}
	return out
}

func TestPlan(t *testing.T) {
	md := "# Demo\n" + // 1
		"\n" + // 2
		"![diagram](img/missing.png)\n" + // 3
		"\n" + // 4
		"Create a file named `app.py`:\n" + // 5
		"\n" + // 6
		"```python\n" + // 7
		"print('hi')\n" + // 8
		"```\n" + // 9
		"\n" + // 10
		"Run it:\n" + // 11
		"\n" + // 12
		"```bash\n" + // 13
		"python3 app.py\n" + // 14
		"```\n" + // 15
		"\n" + // 16
		"You should see:\n" + // 17
		"\n" + // 18
		"```\n" + // 19
		"hi\n" + // 20
		"```\n" + // 21
		"\n" + // 22
		"Here is some configuration:\n" + // 23
		"\n" + // 24
		"```yaml\n" + // 25
		"port: 80\n" + // 26
		"```\n" + // 27
		"\n" + // 28
		"The layout:\n" + // 29
		"\n" + // 30
		"```\n" + // 31
		"app/\n" + // 32
		"```\n" + // 33
		"\n" + // 34
		"```console\n" + // 35
		"$ ls\n" + // 36
		"app.py\n" + // 37
		"```\n" + // 38
		"\n" + // 39
		"Then type:\n" + // 40
		"\n" + // 41
		"```\n" + // 42
		"echo done\n" + // 43
		"```\n" + // 44
		"\n" + // 45
		"```go title=\"main.go\"\n" + // 46
		"package main\n" + // 47
		"```\n" + // 48
		"\n" + // 49
		"1. Add this to `notes.txt`:\n" + // 50
		"\n" + // 51
		"   ```text\n" + // 52
		"   more\n" + // 53
		"   ```\n" // 54
	got := summarize(Plan(spectest.Tutorial(t, md)))
	want := []planned{
		{StepImage, 3, "img/missing.png"},
		{StepWrite, 7, "app.py"},
		{StepRun, 14, "python3 app.py"},
		{StepCompare, 20, "hi"},
		{StepAmbiguous, 25, ""},
		{StepSkip, 31, ""},
		{StepRun, 36, "ls"},
		{StepRun, 43, "echo done"},
		{StepWrite, 46, "main.go"},
		{StepWrite, 52, "notes.txt (append)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plan:\n got  %v\n want %v", got, want)
	}
}

func TestAlwaysFalse(t *testing.T) {
	for cmd, want := range map[string]bool{
		"false":                         true,
		"false && echo never":           true,
		"false && echo a && echo b":     true,
		"! true":                        true,
		"false || echo fallback":        false,
		"false ; echo always":           false,
		"false && echo a || echo b":     false,
		"falsey && echo x":              false,
		"test -f x && echo present":     false,
		"false && echo a\necho b":       false,
		"false && sleep 1 & echo later": false,
	} {
		if got := shell.AlwaysFalse.MatchString(cmd); got != want {
			t.Errorf("alwaysFalse(%q) = %v, want %v", cmd, got, want)
		}
	}
}

func TestAnswerPlaceholder(t *testing.T) {
	for text, want := range map[string]bool{
		"##### add your solution here": true,
		"# YOUR CODE HERE":             true,
		"// write your code here":      true,
		"# TODO: your command here":    true,
		"# here is your solution":      false,
		"echo your code here":          false,
		"# check your code here first": false,
	} {
		if got := placeholder.Answer.MatchString("seq 3\n" + text + "\n42"); got != want {
			t.Errorf("answerPlaceholder(%q) = %v, want %v", text, got, want)
		}
	}
}
