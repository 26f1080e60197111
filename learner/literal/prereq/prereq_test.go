package prereq

import (
	"slices"
	"testing"

	"github.com/smile-loop/smile/spec/markdown"
	"github.com/smile-loop/smile/spec/spectest"

	"github.com/smile-loop/smile/spec"
)

func tutorialFrom(t *testing.T, md string) *spec.Tutorial {
	t.Helper()
	doc := markdown.ParseMarkdown([]byte(md))
	return &spec.Tutorial{Content: md, Blocks: doc.Blocks}
}

func TestPrerequisites(t *testing.T) {
	tests := []struct {
		name string
		md   string
		// want: tool -> line; absent lists tools that must not be found.
		want   map[string]int
		absent []string
	}{
		{name: "prerequisites heading with a list",
			md:     "# App\n\n## Prerequisites\n\n- Python 3.11 or later\n- Node.js 20\n- A C compiler\n\n## Steps\n\nRun it with Go 1.22 later.\n",
			want:   map[string]int{"python3": 5, "node": 6, "npm": 6, "gcc": 7},
			absent: []string{"go", "python"}},
		{name: "an install command inline in the prose",
			md:     "# T\n\nBuild it with the Makefile.\n\n(if the build tool is missing, type ```sudo apt-get install build-essential``` in a terminal)\n",
			want:   map[string]int{"build-essential": 5, "make": 5},
			absent: []string{"docker"}},
		{name: "a bare Python may be either name",
			md:   "# T\n\nYou need Python installed.\n",
			want: map[string]int{"python3": 3, "python": 3}},
		{name: "before you begin section ends at the next heading",
			md:     "# T\n\n## Before you begin\n\nYou should know Git.\nInstall `jq`.\n\n## Build\n\nUse Docker here.\n",
			want:   map[string]int{"git": 5, "jq": 6},
			absent: []string{"docker"}},
		{name: "requirement sentence without a heading",
			md:     "# T\n\nThis tutorial assumes you have Rust installed. Then use make.\n\nMake sure you have Java and Maven.\n",
			want:   map[string]int{"cargo": 3, "rustc": 3, "java": 5, "javac": 5, "mvn": 5},
			absent: []string{"make"}},
		{name: "you need ... installed",
			md:   "# T\n\nYou need GCC and Git installed.\n",
			want: map[string]int{"gcc": 3, "git": 3}},
		{name: "install link",
			md:   "# T\n\nFirst, [Install Go](https://go.dev/doc/install).\n\nSee [the Docker docs](https://docs.docker.com/engine/install/).\n",
			want: map[string]int{"go": 3, "docker": 5}},
		{name: "a one-word install link names the tool",
			md:   "# T\n\nBefore you begin, install [pandoc](https://pandoc.org/installing.html) for your\nsystem. Also [Hugo](https://gohugo.io/installation/).\n",
			want: map[string]int{"pandoc": 3, "hugo": 4}},
		// A tool only implied has no line to cite: the title and the first
		// command do not say to have it.
		{name: "the tool the title names",
			md:   "# First steps with Cargo\n\nMake a package.\n\n# Hugo quick start\n",
			want: map[string]int{"cargo": 0, "rustc": 0}},
		{name: "a Makefile tutorial needs make",
			md:   "# A Makefile tutorial\n\nText.\n",
			want: map[string]int{"make": 0}},
		{name: "the tool most commands run",
			md:     "# Basic usage\n\n```bash\npoetry new demo\ncd demo\npoetry add x\npoetry install\npoetry run y\n```\n",
			want:   map[string]int{"poetry": 0},
			absent: []string{"cd"}},
		{name: "a line that says so beats the title",
			md:   "# First steps with Cargo\n\nMake a package. If you have not yet installed Cargo, see the install\npage.\n",
			want: map[string]int{"cargo": 3}},
		{name: "three of half the commands",
			md:   "# T\n\n```console\n$ meson setup b\n$ cd b\n$ ninja\n$ meson compile\n$ ./app\n$ meson compile\n```\n",
			want: map[string]int{"meson": 0}},
		{name: "a typographic apostrophe",
			md:   "# T\n\nNow that you’ve installed Rust, write a program. Rust requires braces.\n",
			want: map[string]int{"rustc": 3}},
		{name: "a requirement sentence over two lines is cited where it starts",
			md:   "# T\n\nMost projects use it. The rest of this book\nassumes that you use Cargo too.\n",
			want: map[string]int{"cargo": 3}},
		{name: "a step that adds dependencies is not a prerequisites section",
			md:     "# T\n\nAdding dependencies\n-----\n\nYou do not run `meson` again; run `ninja`.\n",
			absent: []string{"meson", "ninja"}},
		{name: "a few uses make no main tool",
			md:     "# T\n\n```bash\nmake\nmake clean\nls\n```\n",
			absent: []string{"make"}},
		{name: "a sentence that says to install it",
			md:   "# Getting started with pandoc\n\nFirst, install pandoc, following the instructions.\n",
			want: map[string]int{"pandoc": 3}},
		{name: "once it is configured",
			md:   "# T\n\nOnce Git is configured, we can start using it.\n",
			want: map[string]int{"git": 3}},
		{name: "install step in a code block",
			md:   "# T\n\n```sh\nsudo apt-get install -y golang-go tree\n```\n",
			want: map[string]int{"golang-go": 4, "go": 4, "gofmt": 4, "tree": 4}},
		{name: "prose that names tools but requires nothing",
			md:     "# T\n\nWe will write a small Python script and call it from Go.\n\nGo to the next step.\n",
			absent: []string{"python3", "go"}},
		{name: "requirements heading nested under another",
			md:   "# T\n\n### Requirements\n\n* Docker\n* GNU Make\n\n## Next\n\nRuby.\n",
			want: map[string]int{"docker": 5, "make": 6}, absent: []string{"ruby"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Prerequisites(tutorialFrom(t, tt.md))
			checkTools(t, got, tt.want, tt.absent)
		})
	}
}

// checkTools checks that got holds each wanted tool at its line and none of
// the absent ones.
func checkTools(t *testing.T, got []Prerequisite, want map[string]int, absent []string) {
	t.Helper()
	for tool, line := range want {
		i := slices.IndexFunc(got, func(p Prerequisite) bool { return p.Tool == tool })
		if i < 0 {
			t.Errorf("%s not found in %+v", tool, got)
			continue
		}
		if got[i].Line != line {
			t.Errorf("%s at line %d, want %d", tool, got[i].Line, line)
		}
	}
	for _, tool := range absent {
		if slices.ContainsFunc(got, func(p Prerequisite) bool { return p.Tool == tool }) {
			t.Errorf("%s found, but the tutorial does not require it: %+v", tool, got)
		}
	}
}

// A page whose code is mostly in one language implies that language's
// toolchain: a Go book's reader has go.
func TestCodeImpliesToolchain(t *testing.T) {
	tut := spectest.Tutorial(t, "# Paquetes\n\n```go\npackage main\n```\n\n```go\nfunc main() {}\n```\n\n```bash\ngo build\n```\n")
	found := false
	for _, p := range Prerequisites(tut) {
		if p.Tool == "go" && p.Implied == ImpliedByCode {
			found = true
		}
	}
	if !found {
		t.Errorf("prerequisites %+v lack go, implied by the page's Go code", Prerequisites(tut))
	}
	one := spectest.Tutorial(t, "# Notes\n\n```python\nprint(1)\n```\n")
	for _, p := range Prerequisites(one) {
		if p.Implied == ImpliedByCode {
			t.Errorf("one block of a language implies nothing: %+v", p)
		}
	}
}
