package literal

import "testing"

// A status that is the command's answer, not an error: an arithmetic test
// whose value is 0, a setting that is not set.
func TestStatusAnswers(t *testing.T) {
	for _, c := range []struct {
		command          string
		arithmetic, read bool
	}{
		{"(( i++ )) # post increment", true, false},
		{"(( count > 10 ))", true, false},
		{"(( i++ )); echo $i", false, false},
		{"git config core.editor  # which editor is set", false, true},
		{"git config --global --get user.email", false, true},
		{"git config --global user.name Ana", false, false}, // sets it
		{"git config --list", false, false},
		{"git status", false, false},
	} {
		if got := arithmeticOnly(c.command); got != c.arithmetic {
			t.Errorf("arithmeticOnly(%q) = %v, want %v", c.command, got, c.arithmetic)
		}
		if got := settingQuery(c.command); got != c.read {
			t.Errorf("settingQuery(%q) = %v, want %v", c.command, got, c.read)
		}
	}
}

// crontab answers "no crontab for USER", exit 1, when the reader has none
// yet: for -l and -r that is the answer; other errors are not.
func TestNothingThere(t *testing.T) {
	for _, c := range []struct {
		command, output string
		want            bool
	}{
		{"crontab -l", "no crontab for root\n", true},
		{"crontab -r", "no crontab for kim\n", true},
		{"crontab -l", "crontab: your UID isn't in the passwd file.\n", false},
		{"crontab -e", "no crontab for root\n", false},
		{"crontab -l | grep backup", "no crontab for root\n", false},
	} {
		if got := nothingThere(c.command, c.output); got != c.want {
			t.Errorf("nothingThere(%q, %q) = %v, want %v", c.command, c.output, got, c.want)
		}
	}
}

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
