package reading

import (
	"fmt"
	"testing"

	"github.com/smile-loop/smile/learner/literal/leadin"
	"github.com/smile-loop/smile/spec/spectest"
)

// Output with a note (before it or in the paragraph after it) that the
// reader's own may differ is marked with the note's line; a note further
// away, or one that announces a change, does not count.
func TestDiffersNote(t *testing.T) {
	md := "# Home\n\n" +
		"List your home folder:\n\n```bash\n$ ls\n```\n\n```output\nBooks   Music\n```\n\n" + // output at 10
		"Your own list may look quite different.\n\n" + // line 13
		"Now list it with marks:\n\n```bash\n$ ls -F\n```\n\n```output\nBooks/   Music/\n```\n\n" + // output at 22
		"That is all for listing.\n\n" +
		"Your results might vary, depending on the day.\n\n```console\n$ echo hi\nhi\n```\n\n" + // note 27, command and output at 30
		"The output will be different this time:\n\n```output\nhi\n```\n" // no note
	steps := Plan(spectest.Tutorial(t, md))
	got := map[int]int{}
	for _, s := range steps {
		if s.Kind == StepCompare || s.Kind == StepRun && len(s.Command.Expected) > 0 {
			got[s.Line] = s.Differs
			if s.Differs > 0 && !s.Tolerant {
				t.Errorf("line %d: a step whose output may differ is not tolerant", s.Line)
			}
		}
	}
	want := map[int]int{10: 13, 22: 0, 30: 27, 37: 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("differs by output line = %v, want %v\n%+v", got, want, summarize(steps))
	}
}

func TestDiffersPhrases(t *testing.T) {
	for text, want := range map[string]bool{
		"Your results may be slightly different depending on your system.": true,
		"(Again, your output might look a little different.)":              true,
		"The numbers will vary from run to run.":                           true,
		"Sizes can differ.":                                                true,
		"The hash will be different now that the file changed.":            false,
		"The two files differ in one line.":                                false,
	} {
		if got := leadin.Differs.MatchString(text); got != want {
			t.Errorf("leadin.Differs(%q) = %v, want %v", text, got, want)
		}
	}
}

// Commands the prose offers as ways of which only one may work form a
// group: each is marked with the prose's line, and all but the last know
// that another way follows. The group ends at the count it gives.
func TestOneOfGroup(t *testing.T) {
	md := "# Help\n\n" +
		"There are two ways to get help; depending on your system, only one of these ways works:\n\n" + // line 3
		"1. The help option:\n\n   ```bash\n   ls --help\n   ```\n\n" + // command at 8
		"2. The summary:\n\n   ```bash\n   whatis ls\n   ```\n\n" + // command at 14
		"Then carry on:\n\n```bash\nls -a\n```\n\n" + // command at 20, outside the group
		"## The summary\n\nType:\n\n```bash\nwhatis ls\n```\n" // command at 28, the same way again
	steps := Plan(spectest.Tutorial(t, md))
	var got []string
	for _, s := range steps {
		if s.Kind == StepRun {
			got = append(got, fmt.Sprintf("%d:%d:%v", s.Line, s.OneOf, s.OneOfMore))
		}
	}
	want := "[8:3:true 14:3:false 20:0:false 28:3:false]"
	if fmt.Sprint(got) != want {
		t.Errorf("runs (line:oneOf:more) = %v, want %s", got, want)
	}
}

// A block that repeats the block before it with another scope is a second
// way to the same end; a block that repeats it as it is, or does more, is
// not.
func TestScopeWays(t *testing.T) {
	md := "For every repository:\n\n```bash\ngit config --global user.name Ana\n```\n\n" + // line 4
		"Only for this one:\n\n```bash\ngit config user.name Ana\n```\n\n" + // line 10
		"Then start:\n\n```bash\ngit init\n```\n\n" + // line 16
		"And again:\n\n```bash\ngit init\n```\n" // line 22
	got := map[int]int{}
	for _, s := range Plan(spectest.Tutorial(t, md)) {
		if s.Kind == StepRun {
			got[s.Line] = s.OneOf
		}
	}
	want := map[int]int{4: 4, 10: 4, 16: 0, 22: 0}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ways by line = %v, want %v", got, want)
	}
}
