package mentor

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smile-loop/smile/status/wire"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/status"
)

const mentorTutorial = "# Demo\n" + // 1
	"\n" + // 2
	"Create `config.yml`:\n" + // 3
	"\n" + // 4
	"```yaml\n" + // 5
	"port: 80\n" + // 6
	"```\n" + // 7
	"\n" + // 8
	"```bash\n" + // 9
	"cat config.yaml\n" + // 10
	"cd my-app\n" + // 11
	"cd $PROJECT_DIR\n" + // 12
	"python3 app.py\n" + // 13
	"export PROJECT_DIR=/srv\n" + // 14
	"```\n" + // 15
	"\n" + // 16
	"Here is the code:\n" + // 17
	"\n" + // 18
	"```python\n" + // 19
	"print('hi')\n" + // 20
	"```\n" + // 21
	"\n" + // 22
	"```bash\n" + // 23
	"python3 hello.py\n" + // 24
	"```\n" // 25

func onPath(names ...string) func(string) (string, error) {
	return func(file string) (string, error) {
		for _, n := range names {
			if n == file {
				return "/usr/bin/" + file, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func TestMentorRules(t *testing.T) {
	tutPath, work := mentorFolder(t)
	for _, tt := range mentorRules(work) {
		t.Run(tt.name, func(t *testing.T) { checkMentorRule(t, tt, tutPath, work) })
	}
}

// mentorFolder writes the tutorial and the work folder the rules are
// checked against.
func mentorFolder(t *testing.T) (tutPath, work string) {
	dir := t.TempDir()
	tutPath = filepath.Join(dir, "tutorial.md")
	work = filepath.Join(dir, "work")
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(tutPath, []byte(mentorTutorial), 0o644))
	must(os.MkdirAll(filepath.Join(work, "data"), 0o755))
	must(os.WriteFile(filepath.Join(work, "run.sh"), []byte("#!/bin/sh\necho hi\n"), 0o644))
	must(os.WriteFile(filepath.Join(work, "ready.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(os.WriteFile(filepath.Join(work, "data", "Input.csv"), []byte("a,b\n"), 0o644))
	must(os.WriteFile(filepath.Join(work, "tool.py"), []byte("#!/usr/bin/env python3\nprint(1)\n"), 0o755))
	must(os.MkdirAll(filepath.Join(work, "hello-app", "src"), 0o755))
	must(os.WriteFile(filepath.Join(work, "hello-app", "Cargo.toml"), []byte("[package]\nname = \"hello-app\"\n"), 0o644))
	must(os.WriteFile(filepath.Join(work, "hello-app", "manage.py"), []byte("print(1)\n"), 0o644))
	return tutPath, work
}

// mentorRule is one finding the Mentor answers, with what the answer must
// hold.
type mentorRule struct {
	name    string
	finding status.Finding
	path    func(string) (string, error)
	notes   []status.MentorNote
	want    status.Resolution
	// workaround and fix must contain these.
	workaround, fix, text string
}

func mentorRules(work string) []mentorRule {
	return []mentorRule{
		{name: "apt installs a known package",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "jq .name data.json", ExitCode: 127, Output: "bash: line 1: jq: command not found"},
			path:    onPath("apt-get"), want: status.ResolutionWorkaround,
			workaround: "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends jq",
			fix:        "Add `sudo apt-get install -y jq` to the prerequisites", text: "The image uses apt-get"},
		{name: "apt package name differs from the command",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "python app.py", ExitCode: 127, Output: "bash: line 1: python: command not found"},
			path:    onPath("apt-get"), want: status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends python-is-python3"},
		{name: "script whose interpreter is missing",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 13, Command: "./tool.py", ExitCode: 127, Output: "bash: line 1: ./tool.py: cannot execute: required file not found"},
			path:    onPath("apt-get"), want: status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends python3"},
		{name: "apk",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "pip3 install x", ExitCode: 127, Output: "sh: pip3: not found"},
			path:    onPath("apk"), want: status.ResolutionWorkaround, workaround: "apk add --no-cache py3-pip"},
		{name: "dnf",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "ssh host", ExitCode: 127, Output: "bash: ssh: command not found"},
			path:    onPath("dnf", "yum"), want: status.ResolutionWorkaround, workaround: "dnf install -y openssh-clients"},
		{name: "a tool the page takes for granted is the image's, and its fix is the run's",
			finding: status.Finding{Category: status.CategoryEnvironment, Line: 12, Command: "cc -o main main.c", ExitCode: 127, Output: "bash: line 1: cc: command not found"},
			path:    onPath("apt-get"), want: status.ResolutionWorkaround, workaround: "apt-get install -y --no-install-recommends gcc",
			fix: "Nothing to fix in the tutorial: run it with a `containerImage` that has `cc` installed", text: "the image's gap, not the tutorial's"},
		{name: "no package manager",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "jq .", ExitCode: 127, Output: "sh: jq: not found"},
			path:    onPath(), want: status.ResolutionUnresolvable, text: "no package manager I know"},
		{name: "unknown command",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "frobnicate --all", ExitCode: 127, Output: "bash: line 1: frobnicate: command not found"},
			path:    onPath("apt-get"), want: status.ResolutionUnresolvable, text: "I know no package that provides `frobnicate`"},
		{name: "script that is not executable",
			finding: status.Finding{Category: status.CategoryPermissionDenied, Line: 13, Command: "./run.sh", ExitCode: 126, Output: "bash: line 1: ./run.sh: Permission denied"},
			want:    status.ResolutionWorkaround, workaround: "chmod +x ./run.sh", fix: "Add `chmod +x ./run.sh` before line 13."},
		{name: "executable script denied for another reason",
			finding: status.Finding{Category: status.CategoryPermissionDenied, Line: 13, Command: "./ready.sh", ExitCode: 126, Output: "bash: line 1: ./ready.sh: Permission denied"},
			want:    status.ResolutionUnresolvable},
		{name: "name near one the tutorial created",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 10, Command: "cat config.yaml", ExitCode: 1, Output: "cat: config.yaml: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "ln -s config.yml config.yaml",
			fix: "Line 10 refers to `config.yaml`, but the tutorial created `config.yml`", text: "relative to that folder"},
		{name: "name near one in the work folder, other case",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 13, Command: "cat data/input.csv", ExitCode: 1, Output: "cat: data/input.csv: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "mkdir -p data && ln -s " + filepath.Join(work, "data/Input.csv") + " data/input.csv"},
		{name: "cd into a folder nothing creates",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 11, Command: "cd my-app", ExitCode: 1, Output: "bash: line 1: cd: my-app: No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "mkdir -p my-app", fix: "Add `mkdir -p my-app` before line 11."},
		{name: "a build tool run outside the project folder an earlier step made",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 18, Command: "cargo run", ExitCode: 101, Output: "error: could not find `Cargo.toml` in `" + work + "` or any parent directory"},
			want:    status.ResolutionWorkaround, workaround: "cd " + filepath.Join(work, "hello-app"),
			fix: "Add `cd hello-app` before line 18: `cargo run` needs `Cargo.toml`, which is in the folder `hello-app/`", text: "never changes into that folder"},
		{name: "a script the page runs from outside its project folder",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 20, Command: "python3 manage.py migrate", ExitCode: 2, Output: "python3: can't open file '" + work + "/manage.py': [Errno 2] No such file or directory"},
			want:    status.ResolutionWorkaround, workaround: "cd " + filepath.Join(work, "hello-app"), fix: "Add `cd hello-app` before line 20"},
		{name: "a build writes into a folder no step made yet",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 14, Command: "gcc -o dist/hello hello.c", ExitCode: 1, Output: "/usr/bin/ld: cannot open output file dist/hello: No such file or directory\ncollect2: error: ld returned 1 exit status"},
			want:    status.ResolutionWorkaround, workaround: "mkdir -p dist", fix: "Create the folder `dist` before line 14 (`mkdir -p dist`)", text: "does not exist yet"},
		{name: "missing file with nothing like it",
			finding: status.Finding{Category: status.CategoryMissingFile, Line: 13, Command: "python3 app.py", ExitCode: 2, Output: "python3: can't open file '/workspace/work/secret-plan.py': [Errno 2] No such file or directory"},
			want:    status.ResolutionUnresolvable, fix: "Create `/workspace/work/secret-plan.py` before line 13"},
		{name: "output mismatch proceeds",
			finding: status.Finding{Category: status.CategoryOutputMismatch, Line: 20, Quote: "Hello, World!", Command: "python3 app.py", Output: "Hello World\n"},
			want:    status.ResolutionProceed, text: "printed `Hello World`", fix: "Update the output shown at line 20"},
		{name: "ambiguous block proceeds and guesses the file",
			finding: status.Finding{Category: status.CategoryAmbiguousInstruction, Line: 19, Quote: "```python"},
			want:    status.ResolutionProceed, text: "Line 24 uses `hello.py`", fix: "Save this as `hello.py`:"},
		{name: "undefined variable set only later",
			finding: status.Finding{Category: status.CategoryUndefinedVariable, Line: 12, Command: "cd $PROJECT_DIR", Problem: "`$PROJECT_DIR`: a variable the tutorial never sets, so `cd $PROJECT_DIR` was not run"},
			want:    status.ResolutionUnresolvable, text: "Nothing in the tutorial sets $PROJECT_DIR before line 12", fix: "Move the line that sets PROJECT_DIR (line 14) before line 12."},
		{name: "timeout",
			finding: status.Finding{Category: status.CategoryTimeout, Line: 13, Command: "python3 app.py", ExitCode: 137},
			want:    status.ResolutionUnresolvable, text: "background"},
		{name: "command failure",
			finding: status.Finding{Category: status.CategoryCommandFailure, Line: 13, Command: "python3 app.py", ExitCode: 1, Output: "Traceback\nValueError: bad\n"},
			want:    status.ResolutionUnresolvable, text: "ValueError: bad"},
		{name: "a workaround that did not help",
			finding: status.Finding{Category: status.CategoryMissingDependency, Line: 12, Command: "jq .", ExitCode: 127, Output: "bash: line 1: jq: command not found"},
			path:    onPath("apt-get"),
			notes:   []status.MentorNote{{Iteration: 2, Line: 12, Resolution: status.ResolutionWorkaround, Workaround: "apt-get install -y jq"}},
			want:    status.ResolutionUnresolvable, text: "The workaround from iteration 2 (`apt-get install -y jq`) did not help"},
	}
}

func checkMentorRule(t *testing.T, tt mentorRule, tutPath, work string) {
	t.Helper()
	f := tt.finding
	f.Asked = true
	if f.Quote == "" {
		f.Quote = f.Command
	}
	task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath, MentorNotes: tt.notes,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: f.Line,
			Findings: []status.Finding{{Category: status.CategoryMissingImage, Line: 1}, f}}}
	path := tt.path
	if path == nil {
		path = onPath("apt-get")
	}
	env := provider.Env{WorkDir: work, Log: logr.Discard()}
	res, err := Provider{LookPath: path, Probe: answers(nil)}.Mentor(context.Background(), task, env)
	if err != nil {
		t.Fatal(err)
	}
	a := res.Advice
	if a == nil || a.Resolution != tt.want || a.Line != f.Line || a.Category != f.Category {
		t.Fatalf("advice = %+v, want %s at line %d\n%s", a, tt.want, f.Line, res.MentorOutput)
	}
	if !strings.Contains(a.Workaround, tt.workaround) || (tt.workaround == "") != (a.Workaround == "") {
		t.Errorf("workaround = %q, want %q", a.Workaround, tt.workaround)
	}
	if !strings.Contains(a.SuggestedFix, tt.fix) || a.SuggestedFix == "" {
		t.Errorf("suggested fix = %q, want it to contain %q", a.SuggestedFix, tt.fix)
	}
	if !strings.Contains(res.MentorOutput, tt.text) {
		t.Errorf("mentor output lacks %q:\n%s", tt.text, res.MentorOutput)
	}
	if a.Workaround != "" && !strings.Contains(res.MentorOutput, "Workaround, run before line "+strconv.Itoa(f.Line)+":\n```sh\n"+a.Workaround+"\n```\n") {
		t.Errorf("mentor output lacks the fenced workaround:\n%s", res.MentorOutput)
	}
	if !strings.HasPrefix(res.MentorOutput, "Line "+strconv.Itoa(f.Line)) || !strings.Contains(res.MentorOutput, "Suggested fix for the tutorial: ") {
		t.Errorf("mentor output does not stand on its own:\n%s", res.MentorOutput)
	}
}

// A finding with nothing to quote (no error line, no output, no quote) gets
// no empty backticks in parentheses in the Mentor's answer or its suggested fix.
func TestMentorQuotesNothingEmpty(t *testing.T) {
	tutPath, work := mentorFolder(t)
	for _, f := range []status.Finding{
		{Category: status.CategoryCommandFailure, Line: 12, Command: "make", ExitCode: 2},
		{Category: status.CategoryOutputMismatch, Line: 12, Command: "cat config.yaml", Quote: " "},
	} {
		f.Asked = true
		task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath,
			StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: f.Line, Findings: []status.Finding{f}}}
		res, err := Provider{LookPath: onPath("apt-get"), Probe: answers(nil)}.Mentor(context.Background(), task, provider.Env{WorkDir: work, Log: logr.Discard()})
		if err != nil {
			t.Fatal(err)
		}
		if a := res.Advice; a == nil || strings.Contains(a.SuggestedFix, "``") || strings.Contains(res.MentorOutput, "``") {
			t.Errorf("%s: an empty quote in the answer:\nfix: %+v\n%s", f.Category, a, res.MentorOutput)
		}
	}
}

func TestMentorWithoutFinding(t *testing.T) {
	task := &wire.Task{Role: status.RoleMentor, Tutorial: "/nonexistent/tutorial.md",
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, QuestionForMentor: "help?"}}
	res, err := Provider{LookPath: onPath()}.Mentor(context.Background(), task, provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Advice.Resolution != status.ResolutionUnresolvable || !strings.Contains(res.MentorOutput, "no finding") {
		t.Errorf("got %+v\n%s", res.Advice, res.MentorOutput)
	}
}

// An ambiguous_instruction with evidence: the Student blamed the block it
// could not place (CauseLine) for the file a later step needed. The Mentor
// saves that block as the file, before the failing step.
func TestMentorSavesTheUnplacedBlock(t *testing.T) {
	dir := t.TempDir()
	tutPath := filepath.Join(dir, "tutorial.md")
	tut := "# Greet\n\nHere is the program:\n\n```python\nprint('hi')\n```\n\nRun it:\n\n```bash\npython3 greet.py\n```\n"
	if err := os.WriteFile(tutPath, []byte(tut), 0o644); err != nil {
		t.Fatal(err)
	}
	f := status.Finding{Category: status.CategoryAmbiguousInstruction, Line: 12, Command: "python3 greet.py", Asked: true, CauseLine: 5,
		Problem: "`greet.py` does not exist: the python block at line 5 is probably that file, but the tutorial does not say to save it as `greet.py`"}
	task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: 12, Findings: []status.Finding{f}}}
	res, err := Provider{LookPath: onPath()}.Mentor(context.Background(), task, provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Advice
	if a.Resolution != status.ResolutionWorkaround || a.Line != 12 || a.Workaround != "cat > greet.py <<'SMILE_EOF'\nprint('hi')\nSMILE_EOF" {
		t.Errorf("advice %+v, want the block at line 5 saved as greet.py before line 12", a)
	}
	if !strings.Contains(res.MentorOutput, "block at line 5 is probably that file") {
		t.Errorf("notes:\n%s", res.MentorOutput)
	}
}
