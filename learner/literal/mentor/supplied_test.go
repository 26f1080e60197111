package mentor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-logr/logr"

	"github.com/smile-loop/smile/learner/provider"
	"github.com/smile-loop/smile/spec"
	"github.com/smile-loop/smile/spec/spectest"
	"github.com/smile-loop/smile/status"
	"github.com/smile-loop/smile/status/wire"
)

// askMentor writes the tutorial and asks the Mentor about one finding.
func askMentor(t *testing.T, tutorial string, f status.Finding) wire.MentorAdvice {
	t.Helper()
	tutPath := filepath.Join(t.TempDir(), "tutorial.md")
	if err := os.WriteFile(tutPath, []byte(tutorial), 0o644); err != nil {
		t.Fatal(err)
	}
	f.Asked = true
	task := &wire.Task{Role: status.RoleMentor, Tutorial: tutPath,
		StudentOutput: &status.StudentOutput{Status: status.StudentAskMentor, Line: f.Line, Findings: []status.Finding{f}}}
	res, err := Provider{LookPath: onPath()}.Mentor(context.Background(), task, provider.Env{WorkDir: t.TempDir(), Log: logr.Discard()})
	if err != nil {
		t.Fatal(err)
	}
	return *res.Advice
}

// A chapter whose example files come with the book: the missing file is the
// environment's, and the Mentor writes every file the chapter shows whole.
func TestSuppliedFilesAreTheEnvironment(t *testing.T) {
	tut := "# Columns\n" + // 1
		"\n" + // 2
		"The `samples` folder of the book's repository has all the files used in the examples.\n" + // 3
		"\n" + // 4
		"```bash\n" + // 5
		"$ cat rows.txt\n" + // 6
		"red 1\n" + // 7
		"blue 2\n" + // 8
		"\n" + // 9
		"$ awk '{print $2}' rows.txt\n" + // 10
		"1\n" + // 11
		"2\n" + // 12
		"$ cat names.txt\n" + // 13
		"ann\n" + // 14
		"$ wc -l other.txt\n" + // 15
		"3 other.txt\n" + // 16
		"```\n" // 17
	out := "cat: rows.txt: No such file or directory"
	fail := SuppliedCause(Classify("cat rows.txt", 1, out, false), spectest.Tutorial(t, tut), 6)
	if fail.Category != status.CategoryEnvironment || !strings.Contains(fail.Subject, "line 3") {
		t.Fatalf("classified %+v, want the environment citing line 3", fail)
	}
	a := askMentor(t, tut, status.Finding{Category: status.CategoryEnvironment, Line: 6, Command: "cat rows.txt", ExitCode: 1, Output: out})
	want := "cat > rows.txt <<'SMILE_EOF'\nred 1\nblue 2\nSMILE_EOF\ncat > names.txt <<'SMILE_EOF'\nann\nSMILE_EOF"
	if a.Resolution != status.ResolutionWorkaround || a.Workaround != want {
		t.Errorf("advice %+v, want the shown files written:\n%s", a, want)
	}
	// A file the chapter never shows whole: nothing can stand in for it.
	a = askMentor(t, tut, status.Finding{Category: status.CategoryEnvironment, Line: 15, Command: "wc -l other.txt", ExitCode: 1,
		Output: "wc: other.txt: No such file or directory"})
	if a.Resolution != status.ResolutionUnresolvable || !strings.Contains(a.SuggestedFix, "Nothing to fix") {
		t.Errorf("advice %+v, want unresolvable, nothing to fix in the tutorial", a)
	}
	// Without the sentence, a missing file is the tutorial's.
	if fail := SuppliedCause(Classify("cat rows.txt", 1, out, false), spectest.Tutorial(t, strings.Replace(tut, "has all the files used", "is nice", 1)), 6); fail.Category != status.CategoryMissingFile {
		t.Errorf("without a supply sentence: %+v, want missing_file", fail)
	}
}

// What `wc FILE` prints is not FILE: only `cat FILE` shows a file whole.
func TestShownContentOnlyForCat(t *testing.T) {
	tut := "# T\n\n```bash\n$ wc notes.txt\n```\n\n```output\n3 9 40 notes.txt\n```\n"
	a := askMentor(t, tut, status.Finding{Category: status.CategoryMissingFile, Line: 4, Command: "wc notes.txt", ExitCode: 1,
		Output: "wc: notes.txt: No such file or directory"})
	if a.Resolution == status.ResolutionWorkaround {
		t.Errorf("advice %+v: wrote what wc printed as the file", a)
	}
}

// A desktop's home folder is made up to the desktop folder itself, whatever
// the command reads inside it.
func TestDesktopFolderWorkaround(t *testing.T) {
	for _, tc := range []struct{ command, output, want string }{
		{"cd ~/Desktop", "bash: line 1: cd: /root/Desktop: No such file or directory", "mkdir -p /root/Desktop"},
		{"ls -F Desktop", "ls: cannot access 'Desktop': No such file or directory", "mkdir -p Desktop"},
		{"cat Desktop/notes.txt", "cat: Desktop/notes.txt: No such file or directory", "mkdir -p Desktop"},
	} {
		a := askMentor(t, "# L\n\n```bash\n"+tc.command+"\n```\n", status.Finding{Category: status.CategoryEnvironment, Line: 4, Command: tc.command, ExitCode: 1, Output: tc.output})
		if a.Resolution != status.ResolutionWorkaround || a.Workaround != tc.want {
			t.Errorf("%s: advice %+v, want %q", tc.command, a, tc.want)
		}
	}
}

// A listing that prints nothing where the page shows the lesson's files is
// the environment's when the page says where the files come from; without
// that sentence, or for another command, it is not.
func TestEmptyListingOfSuppliedFiles(t *testing.T) {
	supplied := spectest.Tutorial(t, "# Rocks\n\nWe begin in the folder `samples/rocks` that holds four files.\n\n```bash\n$ ls\n```\n\n```output\nbasalt.txt granite.txt\n```\n")
	plain := spectest.Tutorial(t, "# Rocks\n\nLet us see what is here.\n\n```bash\n$ ls\n```\n\n```output\nbasalt.txt granite.txt\n```\n")
	for _, tc := range []struct {
		name    string
		tut     *spec.Tutorial
		command string
		printed string
		want    bool
	}{
		{"empty ls, files supplied", supplied, "ls", "", true},
		{"empty ls -F of a folder", supplied, "ls -F rocks", "\n", true},
		{"ls printed something else", supplied, "ls", "notes.txt\n", false},
		{"not a listing", supplied, "cat basalt.txt", "", false},
		{"no sentence about the files", plain, "ls", "", false},
	} {
		f, ok := EmptyListing(tc.command, tc.printed, tc.tut, 10)
		if ok != tc.want {
			t.Errorf("%s: ok = %v, want %v", tc.name, ok, tc.want)
		}
		if ok && (f.Category != status.CategoryEnvironment || !IsSupplied(f.Subject) || !strings.Contains(f.Subject, "line 3")) {
			t.Errorf("%s: failure %+v", tc.name, f)
		}
	}
}
