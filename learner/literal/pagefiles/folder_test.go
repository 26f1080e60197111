package pagefiles

import (
	"slices"
	"testing"

	"github.com/smile-loop/smile/learner/literal/reading"
	"github.com/smile-loop/smile/spec/spectest"
)

// TestFolder: the files a README at the top builds by bare name live in one
// subfolder; its reader works there, and that folder's files are copied to
// where the commands run, with the top's files the page names.
func TestFolder(t *testing.T) {
	page := "# Lab\n\nIn the folder with the sources, build both and read `notes.txt`:\n\n```bash\ngcc -o forks forks.c\ngcc -o wait wait.c\ncat notes.txt\n```\n"
	entries := []string{"tutorial.md", "notes.txt", "src/", "src/forks.c", "src/wait.c", "src/images/", "src/images/run.png", "old/", "old/unused.c"}
	tut := spectest.Tutorial(t, page)
	if got := Folder(tut, entries, nil); got != "src" {
		t.Errorf("Folder = %q, want src", got)
	}
	cmd, what := Copy(tut, entries, nil, "/workspace/tutorial")
	if cmd != "cp -R -n -- '/workspace/tutorial/notes.txt' ./ && cp -R -n -- '/workspace/tutorial/src'/. ./" || !slices.Contains(what, "notes.txt") {
		t.Errorf("Copy = %q, %v", cmd, what)
	}
	for name, c := range map[string]struct {
		entries []string
		planned []reading.Step
	}{
		"the names in two folders":  {[]string{"a/forks.c", "b/wait.c"}, nil},
		"one name in two folders":   {[]string{"a/forks.c", "a/wait.c", "b/wait.c"}, nil},
		"already at the top":        {[]string{"forks.c", "wait.c", "src/forks.c"}, nil},
		"the page writes the files": {[]string{"src/forks.c", "src/wait.c"}, []reading.Step{{Kind: reading.StepWrite, File: reading.Destination{Path: "forks.c"}}, {Kind: reading.StepWrite, File: reading.Destination{Path: "wait.c"}}}},
	} {
		if got := Folder(tut, c.entries, c.planned); got != "" {
			t.Errorf("%s: Folder = %q, want none", name, got)
		}
	}
	// A path written with its folder is no bare name.
	withDir := spectest.Tutorial(t, "# Lab\n\n```bash\ngcc -o forks src/forks.c\n```\n")
	if got := Folder(withDir, []string{"src/", "src/forks.c"}, nil); got != "" {
		t.Errorf("a path with its folder: Folder = %q, want none", got)
	}
}
