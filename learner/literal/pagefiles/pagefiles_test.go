package pagefiles

import (
	"fmt"
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec/spectest"
)

func TestUsed(t *testing.T) {
	page := "# Lab\n\nThe folder holds `count.sh`, words.txt and the `data` folder.\n" +
		"We talk about tests and src in prose only.\n\n```bash\nbash count.sh words.txt\nls data\nmkdir out\nruby notes.md\n```\n"
	entries := []string{"tutorial.md", "count.sh", "words.txt", "recount.sh", "data/", "tests/", "src/", "out/", "README.md", "smile.json", ".git/", "logo.png", "solution.txt", "notes.md"}
	planned := []reading.Step{
		{Kind: reading.StepRun, Command: reading.Command{Text: "mkdir out"}},
		{Kind: reading.StepWrite, File: reading.Destination{Path: "solution.txt"}},
		{Kind: reading.StepRun, Command: reading.Command{Text: "ruby notes.md"}},
	}
	page += "Then write solution.txt.\n"
	got := Used(spectest.Tutorial(t, page), entries, planned)
	want := []string{"count.sh", "data", "notes.md", "words.txt"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Used = %v, want %v (folders named only in prose, names the page makes, the page itself and its images are left)", got, want)
	}
}

// TestReadByItself: a program that reads a file of its folder by itself
// (make its Makefile, npm its package.json) uses that file though the page
// never names it; given another file, or not run that way, it does not.
func TestReadByItself(t *testing.T) {
	page := "# Lab\n\nBuild the first exercise:\n\n```\n$ make sum\n```\n"
	entries := []string{"tutorial.md", "Makefile", "package.json", "Cargo.toml", "CMakeLists.txt", "sum.c"}
	run := func(cmds ...string) []reading.Step {
		var out []reading.Step
		for _, c := range cmds {
			out = append(out, reading.Step{Kind: reading.StepRun, Command: reading.Command{Text: c}})
		}
		return out
	}
	for _, tc := range []struct {
		planned []reading.Step
		want    string
	}{
		{run("make sum"), "[Makefile]"},
		{run("make -f other.mk sum"), "[]"},
		{run("npm install", "cmake ."), "[CMakeLists.txt package.json]"},
		{run("npm --version", "cmake ../src"), "[]"},
		{run("cd lab && cargo build"), "[Cargo.toml]"},
		{append(run("make"), reading.Step{Kind: reading.StepWrite, File: reading.Destination{Path: "Makefile"}}), "[]"},
	} {
		if got := fmt.Sprint(Used(spectest.Tutorial(t, page), entries, tc.planned)); got != tc.want {
			t.Errorf("%v: Used = %s, want %s", tc.planned, got, tc.want)
		}
	}
}
