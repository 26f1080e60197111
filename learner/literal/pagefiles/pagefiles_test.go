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
