package depend

import (
	"slices"
	"strings"
	"testing"
)

func run(line int, text string) Step { return Step{Kind: Run, Line: line, Command: text} }

// needs lists the lines step i depends on.
func needs(p Plan, steps []Step, i int) []int {
	var out []int
	for _, d := range p.Deps[i] {
		out = append(out, steps[d.Step].Line)
	}
	slices.Sort(out)
	return out
}

func TestDerive(t *testing.T) {
	tests := []struct {
		name  string
		steps []Step
		want  map[int][]int // step index → lines it needs
	}{{
		name: "a command that reads a file needs the step that wrote it",
		steps: []Step{
			{Kind: Write, Line: 3, Path: "notes.txt"},
			run(8, "cat notes.txt"),
			run(10, "cat note.txt"),
			run(12, "wc -l notes.txt"),
		},
		want: map[int][]int{1: {3}, 2: nil, 3: {3}},
	}, {
		name: "a command that runs a file needs its writer and whatever changed it since",
		steps: []Step{
			{Kind: Write, Line: 5, Path: "run.sh"},
			run(9, "chmod +x run.sh"),
			run(11, "./run.sh"),
			run(13, "bash run.sh"),
		},
		want: map[int][]int{1: {5}, 2: {9}, 3: {9}},
	}, {
		name: "a program a compiler made needs the compile, whether -o names it or the compiler's default does",
		steps: []Step{
			{Kind: Write, Line: 3, Path: "hello.c"},
			run(7, "gcc hello.c"),
			run(9, "./a.out"),
			{Kind: Write, Line: 12, Path: "main.rs"},
			run(16, "rustc main.rs"),
			run(18, "./main"),
			run(20, "cc -Wall -o greet hello.c"),
			run(22, "./greet"),
			run(24, "gcc -c hello.c"),
			run(26, "./hello.o"),
		},
		want: map[int][]int{1: {3}, 2: {7}, 4: {12}, 5: {16}, 6: {3}, 7: {20}, 8: {3}, 9: nil},
	}, {
		name: "a download makes the file its URL names, and an archive unpacks to the folder its name says",
		steps: []Step{
			run(3, "curl -R -O http://www.example.org/ftp/tool-1.2.tar.gz"),
			run(4, "wget https://example.org/data/birds.csv"),
			run(5, "wc -l birds.csv"),
			run(6, "curl -sS https://example.org/api"),
			run(7, "tar zxf tool-1.2.tar.gz"),
			run(8, "cd tool-1.2"),
		},
		want: map[int][]int{2: {4}, 3: nil, 4: {3}, 5: {7}},
	}, {
		name: "go build makes the program named after its source",
		steps: []Step{
			{Kind: Write, Line: 12, Path: "hello.go"},
			run(14, "go build hello.go"),
			run(15, "./hello"),
		},
		want: map[int][]int{1: {12}, 2: {14}},
	}, {
		name: "a step after a cd needs the cd, and the cd the step that made the folder",
		steps: []Step{
			run(3, "mkdir -p app/src"),
			run(4, "cd app"),
			{Kind: Write, Line: 8, Path: "src/main.c"},
			run(12, "ls"),
			run(14, "cd /tmp"),
			run(15, "ls"),
		},
		want: map[int][]int{1: {3}, 2: {3, 4}, 3: {4}, 4: nil, 5: {14}},
	}, {
		name: "a name no step writes: its later uses need the first step that used it",
		steps: []Step{
			run(4, "ls data"),
			run(6, "head -n 3 data/birds.csv"),
			run(8, "cd data"),
			run(9, "echo unrelated"),
		},
		want: map[int][]int{1: {4}, 2: {4}, 3: {8}},
	}, {
		name: "an output block needs the command whose output it shows",
		steps: []Step{
			run(3, "echo hello"),
			{Kind: Compare, Line: 7},
			{Kind: Other, Line: 10},
			{Kind: Compare, Line: 12},
		},
		want: map[int][]int{1: {3}, 2: nil, 3: {3}},
	}, {
		name: "a command using a variable needs the step that set it",
		steps: []Step{
			run(3, "export GREETING=hi"),
			run(5, `NAME=world; COUNT=$(ls | wc -l)`),
			run(7, `echo "$GREETING $NAME"`),
			run(9, `echo '$COUNT'`),
			run(11, `LANG=C sort list.txt`),
			run(13, `echo $LANG`),
		},
		want: map[int][]int{2: {3, 5}, 3: nil, 5: nil},
	}, {
		name: "calls of functions and aliases need their definition; programs their install",
		steps: []Step{
			run(3, "greet() { echo hi; }"),
			run(5, "alias ll='ls -l'"),
			run(7, "greet"),
			run(8, "ll"),
			run(10, "sudo apt-get install -y tree jq"),
			run(12, "tree"),
			run(13, "pip install --user httpie==3.2"),
			run(14, "httpie --version"),
		},
		want: map[int][]int{2: {3}, 3: {5}, 5: {10}, 7: {13}},
	}, {
		name: "a request to a local server needs the step that started it",
		steps: []Step{
			{Kind: Run, Line: 3, Command: "python3 -m http.server 8000", Background: true},
			run(6, "curl -s http://localhost:8000/"),
			run(8, "curl -s https://example.org/"),
		},
		want: map[int][]int{1: {3}, 2: nil},
	}, {
		name: "a sourced file changes the session for every later step",
		steps: []Step{
			run(3, "python3 -m venv .venv"),
			run(4, "source .venv/bin/activate"),
			run(6, "pip install requests"),
		},
		want: map[int][]int{1: {3}, 2: {4}},
	}, {
		name: "files made by redirections, copies and clones",
		steps: []Step{
			run(3, "echo 'a: 1' > config.yaml"),
			run(4, "cp config.yaml backup.yaml"),
			run(5, "cat backup.yaml >> log.txt"),
			run(6, "sort < log.txt"),
			run(7, `curl -sSLo prices.csv "$URL"`),
			run(8, "head -n 3 prices.csv"),
			run(9, "git clone https://example.org/demo.git"),
			run(10, "cd demo && make"),
			run(11, "wc -l ../log.txt"),
		},
		want: map[int][]int{1: {3}, 2: {4}, 3: {5}, 5: {7}, 7: {9}, 8: {5, 10}},
	}, {
		name: "a folder changed in a subshell or a pipe's part does not last",
		steps: []Step{
			run(3, "mkdir -p build"),
			run(4, "(cd build && touch out.o)"),
			run(5, "ls"),
			run(6, "ls build/out.o"),
		},
		want: map[int][]int{1: {3}, 2: nil, 3: {4}},
	}, {
		name: "mkdir makes the folders on the way; a word of a folder entered needs no first use",
		steps: []Step{
			run(3, "mkdir -p site/static/css"),
			run(4, "cd site"),
			run(5, "ls static"),
			run(6, "cd static/css && echo site"),
		},
		want: map[int][]int{1: {3}, 2: {3, 4}, 3: {3, 4}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := Derive(tc.steps)
			for i := range tc.steps {
				if got := needs(p, tc.steps, i); !slices.Equal(got, tc.want[i]) {
					t.Errorf("line %d needs lines %v, want %v (%+v)", tc.steps[i].Line, got, tc.want[i], p.Deps[i])
				}
			}
		})
	}
}

func TestDeriveSaysWhy(t *testing.T) {
	steps := []Step{{Kind: Write, Line: 3, Path: "notes.txt"}, run(8, "cd project"), run(9, "cat ../notes.txt")}
	p := Derive(steps)
	var whys []string
	for _, d := range p.Deps[2] {
		whys = append(whys, d.Why)
	}
	got := strings.Join(whys, "; ")
	for _, want := range []string{"runs in the folder line 8 changes into", "uses `../notes.txt`, which line 3 writes"} {
		if !strings.Contains(got, want) {
			t.Errorf("why = %q, want it to say %q", got, want)
		}
	}
}

func TestTracker(t *testing.T) {
	steps := []Step{
		{Kind: Write, Line: 3, Path: "notes.txt"}, // 0
		run(6, "cd project"),                      // 1 fails
		run(8, "ls"),                              // 2 needs 1: not reached
		run(10, "cd ~"),                           // 3 independent
		run(11, "jq --version"),                   // 4 fails: jq missing
		run(13, "jq .name data.json"),             // 5 starts jq: not reached
		{Kind: Compare, Line: 15},                 // 6 shows 5's output: not reached
		run(18, "cat ~/notes.txt"),                // 7 independent
		run(20, `cp notes.txt "$DEST"`),           // 8 fails: DEST is never set
		run(21, `ls "$DEST"`),                     // 9 needs $DEST: not reached
	}
	tr := NewTracker(Derive(steps))
	want := map[int]int{2: 1, 5: 4, 6: 4, 9: 8} // blocked step → failed step
	for i := range steps {
		if b, ok := tr.Blocked(i); ok {
			if want[i] != b.Failed || b.Dep.Why == "" {
				t.Errorf("line %d blocked by %+v, want by step %d", steps[i].Line, b, want[i])
			}
		} else if _, w := want[i]; w {
			t.Errorf("line %d is not blocked, want it blocked by line %d", steps[i].Line, steps[want[i]].Line)
		}
		switch i {
		case 1:
			tr.Fail(i, "")
		case 4:
			tr.Fail(i, Program("jq"))
		case 8:
			tr.Fail(i, Variable("DEST"))
		}
	}
	if !tr.Failed() {
		t.Error("Failed() = false after two failures")
	}
}

func TestInstalls(t *testing.T) {
	for cmd, want := range map[string][]string{
		"apt-get update && apt-get install -y lua5.4 jq": {"lua5.4", "jq"},
		"sudo apt install -y python3-venv":               {"python3-venv"},
		"pip install flask==3.0":                         {"flask"},
		"which lua":                                      nil,
	} {
		if got := Installs(cmd); !slices.Equal(got, want) {
			t.Errorf("Installs(%q) = %q, want %q", cmd, got, want)
		}
	}
}

// TestRepositoryState: git keeps its state in the repository, which no
// command names; a git command depends on the latest one that changed the
// repository the page made, so a failed commit stops the branch and log
// that follow, and nothing else.
func TestRepositoryState(t *testing.T) {
	steps := []Step{
		run(3, "mkdir shop && cd shop"),
		run(5, "git init"),
		{Kind: Write, Line: 7, Path: "README.md"},
		run(10, "git add README.md"),
		run(12, "git commit -m 'first'"),
		run(14, "git status"),
		run(16, "git branch"),
		run(18, "git branch feature"),
		run(20, "git log --oneline"),
		run(22, "ls -la"),
		run(24, "git config --global user.name Ada"),
		run(26, "git --version"),
	}
	p := Derive(steps)
	want := map[int][]int{
		1:  {3},       // git init: in the folder line 3 entered
		3:  {3, 5, 7}, // git add: the repository, and the file it adds
		4:  {3, 10},   // the commit: what the add staged
		5:  {3, 12},   // status reads the commit's repository
		6:  {3, 12},   // a bare `git branch` lists, changing nothing
		7:  {3, 12},   // `git branch feature` needs the commit
		8:  {3, 18},   // the log: after the branch was made
		9:  {3},       // ls: no repository state
		10: {3},       // a global setting: no repository
		11: {3},       // the version: no repository
	}
	for i, w := range want {
		if got := needs(p, steps, i); !slices.Equal(got, w) {
			t.Errorf("line %d needs %v, want %v (%v)", steps[i].Line, got, w, p.Deps[i])
		}
	}
	// A repository the page did not make (one the reader already has) is
	// nothing the derivation can follow.
	other := []Step{run(3, "git commit -am 'x'"), run(5, "git log")}
	if got := needs(Derive(other), other, 1); got != nil {
		t.Errorf("git log in a repository the page never made needs %v, want nothing", got)
	}
	// A clone makes the repository the next commands enter.
	cloned := []Step{run(3, "git clone https://example.org/r/tool.git"), run(5, "cd tool"), run(7, "git checkout -b fix"), run(9, "git log")}
	pc := Derive(cloned)
	if got := needs(pc, cloned, 2); !slices.Equal(got, []int{3, 5}) {
		t.Errorf("checkout in the clone needs %v, want [3 5]", got)
	}
	if got := needs(pc, cloned, 3); !slices.Equal(got, []int{5, 7}) {
		t.Errorf("log after the checkout needs %v, want [5 7]", got)
	}
}
