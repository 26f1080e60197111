package reading

import (
	"fmt"
	"slices"
	"testing"

	"github.com/smile-loop/smile/learner/literal/rule"
	"github.com/smile-loop/smile/spec/spectest"
)

// TestNamedByItsFileInAnyLanguage: a lead-in in any human language that
// names exactly one file of the block's kind makes the block that file; two
// files, a file of another kind, or a shell block without #! do not.
func TestNamedByItsFileInAnyLanguage(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		want     Step // Kind and File.Path are compared; StepRun/ambiguous keep File empty
	}{
		{"portuguese lead-in", "Crie um arquivo chamado `ola.go` com o conteúdo abaixo:\n\n```go\npackage main\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "ola.go"}}},
		{"german lead-in to a script", "Öffne die Datei `hallo.sh` und füge Folgendes ein:\n\n```bash\n#!/bin/bash\necho hallo\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "hallo.sh"}}},
		{"chinese lead-in", "把下面的程序保存为 `hello.c`：\n\n```c\nint main(void) { return 0; }\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "hello.c"}}},
		{"named only after the block", "```python\nprint('hola')\n```\n\nGuarda esto como `saludo.py`. Luego ejecútalo.\n",
			Step{Kind: StepAmbiguous}},
		{"two files of the kind", "Compare `a.go` and `b.go`:\n\n```go\npackage main\n```\n",
			Step{Kind: StepAmbiguous}},
		{"a file of another kind", "See `config.yaml`:\n\n```go\npackage main\n```\n",
			Step{Kind: StepAmbiguous}},
		{"korean lead-in to an interface file", "인터페이스는 `stack.mli` 파일에 다음과 같다:\n\n```ocaml\nval push : int -> unit\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "stack.mli"}}},
		{"a header of a C++ block", "Declare it in `shape.h`:\n\n```cpp\nint area(int w, int h);\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "shape.h"}}},
		{"a snippet tag for the toplevel, named a source file", "Rewrite `greet.ml`:\n\n```ocamltop\nlet () = print_endline \"hi\"\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "greet.ml"}}},
		{"the paragraph names the file, its last sentence says the file", "Crea un archivo llamado `saludo.rb` (en minúsculas). En el archivo escribe lo siguiente:\n\n```ruby\nputs 'hola'\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "saludo.rb"}}},
		{"the paragraph names two files of the kind", "Compare `a.rb` with `b.rb`. Then write:\n\n```ruby\nputs 1\n```\n",
			Step{Kind: StepAmbiguous}},
		{"a caption names a Bats file over a bash block", "`test/add.bats`:\n\n```bash\n@test \"adds\" {\n  run ./add 1 2\n}\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "test/add.bats"}}},
		{"a first-line comment names the file", "Then:\n\n```python\n# app.py\nprint('hi')\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "app.py"}}},
		{"a first-line comment over shell lines names their script", "Then:\n\n```bash\n# backup.sh\ntar czf b.tgz notes\n```\n",
			Step{Kind: StepWrite, File: Destination{Path: "backup.sh"}}},
		{"a first-line comment over shell lines that run it", "Then:\n\n```bash\n# backup.sh\nbash backup.sh\n```\n",
			Step{Kind: StepRun}},
		{"a command that runs the named script", "Execute `deploy.sh`:\n\n```bash\n./deploy.sh\n```\n",
			Step{Kind: StepRun}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := Plan(spectest.Tutorial(t, tc.md))
			if len(steps) != 1 || steps[0].Kind != tc.want.Kind || steps[0].File.Path != tc.want.File.Path {
				t.Fatalf("steps = %+v, want one %s %q", steps, tc.want.Kind, tc.want.File.Path)
			}
			if tc.want.Kind == StepWrite && steps[0].Why == "" {
				t.Errorf("a write with no evidence")
			}
		})
	}
}

// A program's session goes on across headings (a book keeps its REPL open),
// but a block the prose names as a file, or one back at the shell's prompt,
// is not typed into it.
func TestWhatASessionIsNotFed(t *testing.T) {
	md := "# Ruby\n\nStart it:\n\n```\n$ irb\n2.3.0 :001 >\n```\n\n```ruby\nputs 1 + 2\n```\n\n## More\n\n```ruby\nputs 3\n```\n\n" + // 6, 10, 16
		"Crea un archivo llamado `hi.rb` (terminan en rb). En el archivo escribe lo siguiente:\n\n```ruby\nputs 'hi'\n```\n\n" + // 22
		"```shell\n$ ruby hi.rb\nhi\n```\n" // 27
	steps := Plan(spectest.Tutorial(t, md))
	var got []string
	for _, s := range steps {
		got = append(got, fmt.Sprintf("%d %s %v %s", s.Line, s.Kind, s.Input, s.File.Path))
	}
	want := []string{"6 run [10 16] ", "22 write [] hi.rb", "27 run [] "}
	if !slices.Equal(got, want) {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// A comment over lines of text that names one file is their caption: the
// lines are that file, without the caption, which is the page's and no
// line of the file (JSON has no comments). A comment that is a command is
// no caption.
func TestCaptionCommentNamesADataFile(t *testing.T) {
	tut := spectest.Tutorial(t, "Below is the example data, used in every step.\n\n```\n# sample.json, the whole file\n{\"a\": 1}\n```\n\n"+
		"Another block:\n\n```\n# cat notes.txt\nfirst line\n```\n")
	steps := Plan(tut)
	if s := steps[0]; s.Kind != StepWrite || s.File.Path != "sample.json" || s.Content != "{\"a\": 1}\n" {
		t.Errorf("first block: %s %q with %q, want written to sample.json with only its JSON", s.Kind, s.File.Path, s.Content)
	}
	for _, s := range steps[1:] {
		if slices.ContainsFunc(s.Evidence, func(e rule.Evidence) bool { return e.Rule == ruleDataCaption.ID }) {
			t.Errorf("line %d written to %s as captioned: a comment that is a command is no caption", s.Line, s.File.Path)
		}
	}
}
