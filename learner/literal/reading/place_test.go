package reading

import (
	"fmt"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

// A script that names itself (a usage comment) is still the file the prose
// says to save; a block that creates the named file is its command.
func TestSaveAsWhenTheScriptNamesItself(t *testing.T) {
	for _, tt := range []struct {
		name, md string
		want     StepKind
	}{
		{"usage comment", "# T\n\nSave the following as `attack.sh`:\n\n```bash\n#!/bin/bash\n# Usage: bash attack.sh PORT\necho hi\n```\n", StepWrite},
		{"runs itself", "# T\n\nSave this as `loop.sh`:\n\n```bash\n#!/bin/sh\n[ -n \"$1\" ] || exec sh loop.sh again\n```\n", StepWrite},
		{"the command that creates it", "# T\n\nCreate a file named `/data.txt`:\n\n```bash\necho 42 > /data.txt\n```\n", StepRun},
		{"tee creates it", "# T\n\nCreate a file named `notes.txt`:\n\n```bash\necho hi | tee notes.txt\n```\n", StepRun},
		{"a Pascal program by its extension", "# T\n\nCrea un archivo llamado `hola.pas`\n\n```pascal\nprogram hola;\nbegin\n  writeln('hola');\nend.\n```\n", StepWrite},
		{"a Fortran program by its extension", "# T\n\nSave it as `sum.f90`:\n\n```fortran\nprogram sum\nend program sum\n```\n", StepWrite},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps := Plan(spectest.Tutorial(t, tt.md))
			if len(steps) == 0 || steps[0].Kind != tt.want {
				t.Fatalf("steps %+v, want the first to be %s", steps, tt.want)
			}
		})
	}
}

// A form with upper-case placeholders the prose explains is not a step; a
// command using an environment variable is.
func TestExplainedPlaceholdersAreTemplates(t *testing.T) {
	for _, tt := range []struct {
		name, md string
		want     StepKind
	}{
		{"explained after", "# T\n\nThe general form is:\n\n```\ntar -czf ARCHIVE.tar.gz FOLDER\n```\n\nwhere `FOLDER` is what to pack.\n", StepOmit},
		{"explained in backticks only", "# T\n\nRun:\n\n```bash\ncp SOURCE TARGET\n```\n\nReplace `SOURCE` with your file.\n", StepOmit},
		{"an environment variable", "# T\n\nRun:\n\n```bash\necho \"$HOME\" > HOME.txt\n```\n\nThe file `HOME.txt` holds it.\n", StepRun},
		{"upper-case file name, no explanation", "# T\n\nRun:\n\n```bash\ncat README\n```\n", StepRun},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps := Plan(spectest.Tutorial(t, tt.md))
			if len(steps) == 0 || steps[0].Kind != tt.want {
				t.Fatalf("steps %+v, want the first to be %s", steps, tt.want)
			}
		})
	}
}

func TestNamedUpperCaseFileIsNoTemplate(t *testing.T) {
	steps := Plan(spectest.Tutorial(t, "# T\n\nRun:\n\n```bash\ncat README\n```\n\nto see `README` in full.\n"))
	if len(steps) == 0 || steps[0].Kind != StepRun {
		t.Fatalf("steps %+v, want cat README run", steps)
	}
}

// Prose that says a command fails on purpose makes a failure the expected
// result, not a gap.
func TestFailsOnPurpose(t *testing.T) {
	for _, intro := range []string{"This command fails on purpose:", "It exits with a non-zero status:", "This will fail:"} {
		steps := Plan(spectest.Tutorial(t, "# T\n\n"+intro+"\n\n```bash\ngrep parrot pets.txt\n```\n"))
		if len(steps) == 0 || steps[0].Kind != StepRun || !steps[0].ExpectFail {
			t.Errorf("%q: steps %+v, want a run expected to fail", intro, steps)
		}
	}
}

// The first of numbered options is followed; the later ones are skipped.
func TestLaterOptionsAreAlternatives(t *testing.T) {
	md := "# T\n\n**Option 1: from scratch.**\n\n```bash\nmkdir r\n```\n\n**Option 2: unpack the archive.**\n\n```bash\ntar -xzf r.tar.gz\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) != 2 || steps[0].Kind != StepRun || steps[1].Kind != StepOmit {
		t.Fatalf("steps %+v, want option 1 run and option 2 omitted", steps)
	}
}

// Under "put each example in a Makefile and run make", a makefile block is an
// example even when the prose says what it prints, and a rule's form is a
// template, not output.
func TestMakefileSectionRule(t *testing.T) {
	md := "# Make\n\nPut each example in a file called `Makefile` and run `make` in that folder.\n\n" +
		"A rule generally looks like this:\n\n```makefile\ntargets: prerequisites\n\tcommand\n```\n\n" +
		"Run this example to see it print the echo:\n\n```makefile\nall:\n\techo hi\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	var kinds []StepKind
	for _, s := range steps {
		kinds = append(kinds, s.Kind)
	}
	want := []StepKind{StepOmit, StepWrite, StepRun}
	if len(kinds) != len(want) || kinds[0] != want[0] || kinds[1] != want[1] || kinds[2] != want[2] {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
}

// A filter started with no file waits for what is typed: the block after
// "Type this:" is its input and the next block its output.
func TestTypedIntoAFilter(t *testing.T) {
	md := "# P\n\nType\n\n    pandoc\n\nand hit enter. Type this:\n\n    Hello *pandoc*!\n\nYou should now see HTML:\n\n    <p>Hello <em>pandoc</em>!</p>\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) == 0 || steps[0].Kind != StepRun || steps[0].Command.Text != "pandoc" || steps[0].Stdin != "Hello *pandoc*!\n" {
		t.Fatalf("steps %+v, want pandoc fed the typed line", steps)
	}
	if len(steps) != 2 || steps[1].Kind != StepCompare {
		t.Fatalf("steps %+v, want the HTML compared", steps)
	}
}

// A transcript that runs `tree` shows a drawn tree as its output: its
// commands still run (the `cd` matters to every later step).
func TestTreeTranscriptRuns(t *testing.T) {
	md := "# C\n\n```console\n$ mkdir -p p/src\n```\n\nLook:\n\n```console\n$ cd p\n$ tree .\n.\n└── src\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	var texts []string
	for _, s := range steps {
		if s.Kind == StepRun {
			texts = append(texts, s.Command.Text)
		}
	}
	if len(texts) != 3 || texts[1] != "cd p" || texts[2] != "tree ." {
		t.Fatalf("runs %q, want mkdir, cd p, tree .", texts)
	}
}

// Blocks inside a lesson's challenge or solution divs are not the path.
func TestLessonAsidesAreSkipped(t *testing.T) {
	md := "# L\n\n```bash\nmkdir r\n```\n\n::::::: challenge\n\n## Try\n\n```bash\nrm -r r\n```\n\n:::: solution\n\n```bash\nrm filename\n```\n\n::::\n:::::::\n\n```bash\nls r\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	var kinds []StepKind
	for _, s := range steps {
		kinds = append(kinds, s.Kind)
	}
	if len(kinds) != 4 || kinds[0] != StepRun || kinds[1] != StepOmit || kinds[2] != StepOmit || kinds[3] != StepRun {
		t.Fatalf("kinds %v, want run, omit, omit, run", kinds)
	}
}

func TestAnnouncedFailuresAndAptPrompts(t *testing.T) {
	recall := "# T\n\nIf the file does not exist, the shell returns an error as we saw above. We can use this to see that `q.txt` is present:\n\n```bash\nls q.txt\n```\n"
	if s := Plan(spectest.Tutorial(t, recall)); len(s) != 1 || s[0].ExpectFail {
		t.Errorf("a recalled error made the next command expected to fail: %+v", s)
	}
	short := "# T\n\nThis command fails on purpose. Run it:\n\n```bash\nfalse\n```\n"
	if s := Plan(spectest.Tutorial(t, short)); len(s) != 1 || !s[0].ExpectFail {
		t.Errorf("an announced failure was missed: %+v", s)
	}
	result := "# T\n\nA negative count will result in an error.\n\n```bash\nhead -n -x f\n```\n"
	if s := Plan(spectest.Tutorial(t, result)); len(s) != 1 || !s[0].ExpectFail {
		t.Errorf("\"will result in an error\" was missed: %+v", s)
	}
	apt := "# T\n\n```bash\nsudo apt install libgtk-3-dev\napt-get install -y jq\n```\n"
	s := Plan(spectest.Tutorial(t, apt))
	if len(s) != 2 || s[0].Stdin != "y\n" || s[1].Stdin != "" {
		t.Errorf("apt prompts: %+v", s)
	}
}

// Blocks published tutorials show that are not steps of their own.
func TestShownNotFollowed(t *testing.T) {
	for _, tt := range []struct {
		name, md string
		want     []StepKind
	}{
		{"a generated file shown for reading", "# P\n\n```bash\npoetry new demo\n```\n\nThe `pyproject.toml` file will look like this:\n\n```toml\n[project]\nname = \"demo\"\n```\n",
			[]StepKind{StepRun, StepSkip}},
		{"commands near a config file are run", "# P\n\nIf you already have a `pyproject.toml`, run:\n\n```bash\ncd project\npoetry init\n```\n",
			[]StepKind{StepRun, StepRun}},
		{"the output of an alternative is not compared", "# P\n\n```bash\nls\n```\n\nAlternatively, try:\n\n```bash\nls -a\n```\n\n```output\n.  ..\n```\n",
			[]StepKind{StepRun, StepOmit, StepOmit}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			steps := Plan(spectest.Tutorial(t, tt.md))
			var kinds []StepKind
			for _, s := range steps {
				kinds = append(kinds, s.Kind)
			}
			if fmt.Sprint(kinds) != fmt.Sprint(tt.want) {
				t.Fatalf("kinds %v, want %v", kinds, tt.want)
			}
		})
	}
	steps := Plan(spectest.Tutorial(t, "# P\n\n```bash\ncp thesis backup\n```\n\n```error\ncp: -r not specified; omitting directory 'thesis'\n```\n"))
	if len(steps) != 2 || !steps[0].ExpectFail {
		t.Errorf("a command followed by the error it prints is expected to fail: %+v", steps)
	}
}

func TestInsteadOfIsAnAlternative(t *testing.T) {
	md := "# P\n\n```bash\npoetry new demo\n```\n\nInstead of creating a new project, Poetry can initialise a folder. In `old-project`:\n\n```bash\ncd old-project\npoetry init\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) != 2 || steps[1].Kind != StepOmit {
		t.Fatalf("steps %+v, want the second block omitted as an alternative", steps)
	}
}

func TestEditorsAreNotRun(t *testing.T) {
	md := "# E\n\n```bash\nnano draft.txt\n```\n\nType this into `draft.txt`:\n\n```\nIt's not publish or perish any more.\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) == 0 || steps[0].Kind != StepOmit {
		t.Fatalf("steps %+v, want the editor omitted", steps)
	}
}

func TestSyntaxUnderARuleIsATemplate(t *testing.T) {
	md := "# M\n\n## Running the Examples\n\nPut each example in a file called `Makefile` and run `make`.\n\n## Patterns\n\nHere's their syntax:\n\n```makefile\ntargets...: target-pattern: prereq-patterns ...\n   commands\n```\n"
	steps := Plan(spectest.Tutorial(t, md))
	if len(steps) != 1 || steps[0].Kind != StepOmit {
		t.Fatalf("steps %+v, want the syntax omitted", steps)
	}
}

// Numbered steps name the file in one item and say to type the code in the
// next: the block is that file. A lead-in that names a file of its own, or
// a step before that names two, lends nothing.
func TestNumberedStepsNameTheFile(t *testing.T) {
	for _, tt := range []struct {
		name, md, want string
	}{
		{"the step before names it", "# T\n\n1. Make a new file named `count.py`.\n2. Type this code:\n\n```python\nprint(3)\n```\n", "count.py"},
		{"in another language", "# T\n\n1. 新建一个文件，命名为 `count.py`:\n2. 输入以下代码：\n\n```python\nprint(3)\n```\n", "count.py"},
		{"the lead-in names its own", "# T\n\n1. Make `a.py` and `b.py`.\n2. Type this into `b.py`:\n\n```python\nprint(3)\n```\n", "b.py"},
		{"the step before names two", "# T\n\n1. Make `a.py` and `b.py`.\n2. Type this code:\n\n```python\nprint(3)\n```\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := ""
			for _, s := range Plan(spectest.Tutorial(t, tt.md)) {
				if s.Kind == StepWrite {
					got = s.File.Path
				}
			}
			if got != tt.want {
				t.Errorf("the block is written to %q, want %q", got, tt.want)
			}
		})
	}
}
