package literal_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status"
)

// Tutorials written the ways people write them complete with no findings;
// the blocks the Student did not follow are listed with their reasons.
func TestContainerReadsTutorialsAsWritten(t *testing.T) {
	tests := []struct {
		fixture string
		skipped []int             // lines of the blocks listed as skipped
		files   map[string]string // files in the work folder afterwards
	}{
		{fixture: "reading-files.md", files: map[string]string{
			"greet.sh": "echo \"hello from greet\"\n", "conf/app.ini": "[app]\nname = demo\n", "notes/first.txt": "first line\n",
			"notes/second.txt": "second line\n", "list.txt": "one\ntwo\n", "step.sh": "echo \"step two\" >> steps.log\n",
		}},
		{fixture: "reading-platforms.md", skipped: []int{7, 15, 27, 33, 45, 58, 64, 70, 77},
			files: map[string]string{"demo/platform": "linux\nstarted\n"}},
		{fixture: "reading-realistic.md", skipped: []int{21, 44, 51, 112}, files: map[string]string{"greeter/ask.pl": "my $name = <STDIN>;\nchomp $name;\nprint \"Nice to meet you, $name.\\n\";\n"}},
		{fixture: "reading-input.md", files: map[string]string{"shopping.txt": "milk\nbread\n"}},
		{fixture: "reading-output.md", files: map[string]string{"out/a.txt": ""}},
		// Output the prose says may differ, the same folder listed again, and
		// ways of which only one may work: listed, never reported.
		{fixture: "reading-ways.md", skipped: []int{10, 21, 38, 44}},
		// File lines and a key tagged as bash: text, since no program of the
		// container starts them; `seq` is a program it has.
		{fixture: "reading-text-blocks.md", skipped: []int{25}, files: map[string]string{"fruit.txt": "apple\nbanana\ncherry\n"}},
		{fixture: "reading-server.md", files: map[string]string{"serve.sh": "echo \"Listening on http://localhost:8000\"\nwhile true; do date >> heartbeat.txt; sleep 1; done\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.fixture, func(t *testing.T) {
			needContainers(t)
			s := newSandbox(t, tc.fixture)
			res := s.student(t, 1, behavior(nil), nil, runOptions{})
			out := res.StudentOutput
			if out.Status != status.StudentCompleted || len(out.Findings) != 0 {
				t.Fatalf("want completed with no findings:\n%s", dump(t, res))
			}
			var lines []int
			for _, sk := range out.Skipped {
				lines = append(lines, sk.Line)
				if sk.Reason == "" || sk.Quote == "" {
					t.Errorf("skipped block without a reason or quote: %+v", sk)
				}
			}
			if fmt.Sprint(lines) != fmt.Sprint(tc.skipped) && !(len(lines) == 0 && len(tc.skipped) == 0) {
				t.Errorf("skipped lines = %v, want %v\n%s", lines, tc.skipped, dump(t, out.Skipped))
			}
			for name, want := range tc.files {
				if data, err := os.ReadFile(filepath.Join(s.work, name)); err != nil || string(data) != want {
					t.Errorf("%s = %q, %v; want %q", name, data, err, want)
				}
			}
		})
	}
}

// The same wrong output shown twice is one finding listing both lines; a
// command the tutorial says fails but succeeds is a finding that does not
// stop the Student.
func TestContainerRepeatedMismatchIsOneFinding(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "reading-repeat.md")
	res := s.student(t, 1, behavior(nil), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryOutputMismatch, 10}, {status.CategoryCommandFailure, 34}}
	if out.Status != status.StudentCompleted || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("findings:\n got  %v\n want %v\n%s", gaps(out.Findings), want, dump(t, res))
	}
	if f := out.Findings[0]; !slices.Equal(f.Lines, []int{22}) || f.Asked {
		t.Errorf("mismatch finding = %+v, want lines [22], not asked", f)
	}
	if f := out.Findings[1]; f.Asked {
		t.Errorf("an unexpected success stopped the Student: %+v", f)
	}
}

// A command for another terminal that ends is judged like any other: its
// failure is found at its line, and the walk goes on.
func TestContainerBackgroundCommandThatEnds(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "reading-background.md")
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	out := res.StudentOutput
	want := []gap{{status.CategoryMissingFile, 6}}
	if out.Status != status.StudentCompleted || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
		t.Fatalf("findings:\n got  %v\n want %v\n%s", gaps(out.Findings), want, dump(t, res))
	}
	if f := out.Findings[0]; f.ExitCode != 1 || !strings.Contains(f.Problem, "no-such-notes.txt") {
		t.Errorf("finding = %+v, want exit 1 about no-such-notes.txt", f)
	}
	if len(commandsAt(res.Audit, 10)) != 1 {
		t.Errorf("the step after it did not run")
	}
}

// A block the Student cannot place is not a gap by itself; a later step that
// fails for want of it is, and the Student asks about it, quoting the block's
// prose.
func TestContainerUnplacedBlockNeedsEvidence(t *testing.T) {
	needContainers(t)
	t.Run("no evidence", func(t *testing.T) {
		s := newSandbox(t, "reading-nocause.md")
		res := s.student(t, 1, behavior(nil), nil, runOptions{})
		out := res.StudentOutput
		if out.Status != status.StudentCompleted || len(out.Findings) != 0 || len(out.Skipped) != 1 || out.Skipped[0].Line != 5 {
			t.Fatalf("want completed, no findings, the python block skipped:\n%s", dump(t, res))
		}
	})
	t.Run("a later step fails for want of it", func(t *testing.T) {
		s := newSandbox(t, "reading-cause.md")
		res := s.student(t, 1, behavior(nil), nil, runOptions{})
		out := res.StudentOutput
		want := []gap{{status.CategoryAmbiguousInstruction, 12}}
		if out.Status != status.StudentAskMentor || fmt.Sprint(gaps(out.Findings)) != fmt.Sprint(want) {
			t.Fatalf("want ask_mentor with %v:\n%s", want, dump(t, res))
		}
		f := out.Findings[0]
		if f.CauseLine != 5 || f.CauseQuote != "Here is the program:" || !strings.Contains(out.QuestionForMentor, "line 5") ||
			!strings.Contains(out.QuestionForMentor, "Here is the program:") {
			t.Errorf("finding %+v\nquestion %q: want it to point back at line 5 and quote its prose", f, out.QuestionForMentor)
		}
	})
}

// A background server whose author's ready annotation names a URL: the
// Student waits until the URL answers (the server listens only after four
// seconds, past the two a quiet background command is watched), so the
// step that asks it finds it up.
func TestContainerReadyURL(t *testing.T) {
	needContainers(t)
	s := newSandbox(t, "ready-probe.md")
	res := s.student(t, 1, behavior(allFlagsOff), nil, runOptions{})
	out := res.StudentOutput
	if out.Status != status.StudentCompleted || len(out.Findings) != 0 {
		t.Fatalf("want completed with no findings:\n%s", dump(t, res))
	}
	if !strings.Contains(dump(t, res), "its ready check answered") {
		t.Errorf("the actions do not say the ready check answered:\n%s", dump(t, res))
	}
}
