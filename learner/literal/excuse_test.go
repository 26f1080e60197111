package literal

import "testing"

// `ls *.txt` lists the reader's own files: when the page made none that
// match, "cannot access '*.txt'" is no gap; when it made one, it is.
func TestGlobMatchedNothing(t *testing.T) {
	s := &student{}
	s.out.FilesCreated = []string{"/workspace/work/notes.md"}
	noTxt := "ls: cannot access '*.txt': No such file or directory\n"
	for _, c := range []struct {
		command, output string
		want            bool
	}{
		{"ls *.txt", noTxt, true},
		{"ls -l *.txt", noTxt, true},
		{"ls *.md", "ls: cannot access '*.md': No such file or directory\n", false},
		{"ls notes.txt", "ls: cannot access 'notes.txt': No such file or directory\n", false},
		{"ls *.txt | wc -l", noTxt, false},
		{`grep -n "error" *.log`, "grep: *.log: No such file or directory\n", true},
		{`grep -n "error" *`, "grep: *: No such file or directory\n", false}, // notes.md would match: it is elsewhere
		{"cat notes.txt", "cat: notes.txt: No such file or directory\n", false},
	} {
		if got := s.globMatchedNothing(c.command, c.output); got != c.want {
			t.Errorf("globMatchedNothing(%q) = %v, want %v", c.command, got, c.want)
		}
	}
}

// A reference list's line that runs a file the page made works on the
// page's own file: its failure is not a sample name's.
func TestOnPagesFile(t *testing.T) {
	s := &student{}
	s.out.FilesCreated = []string{"/workspace/work/skript.pl"}
	for cmd, want := range map[string]bool{"./skript.pl": true, "perl skript.pl --help": true, "chmod +x datei.txt": false} {
		if got := s.onPagesFile(cmd); got != want {
			t.Errorf("onPagesFile(%q) = %v, want %v", cmd, got, want)
		}
	}
}
