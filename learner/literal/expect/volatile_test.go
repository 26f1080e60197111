package expect

import "testing"

func TestMatchOutputIgnoresVolatileTokens(t *testing.T) {
	tests := []struct {
		name     string
		expected []Line
		actual   string
		wantOK   bool
	}{
		{"durations", exp(1, "ok  example.com/pkg  0.01s"), "ok  example.com/pkg  0.42s\n", true},
		{"ISO timestamps", exp(1, "2023-01-02T10:00:00Z started"), "2026-11-23T22:01:13Z started\n", true},
		{"clock times", exp(1, "at 10:42:01"), "at 22:01:13\n", true},
		{"month dates", exp(1, "Date: Mon Jan 2 2023"), "Date: Mon Nov 23 2026\n", true},
		{"git hashes", exp(1, "[main 1a2b3c4] first commit"), "[main 9f8e7d6] first commit\n", true},
		{"temp paths", exp(1, "wrote /tmp/tmp.abc123/out"), "wrote /tmp/tmp.XyZ987/out\n", true},
		{"uuids", exp(1, "id 123e4567-e89b-12d3-a456-426614174000"), "id 00000000-1111-2222-3333-444444444444\n", true},
		{"pids", exp(1, "started pid 4242"), "started pid 17\n", true},
		{"an older git's words", exp(1, "Initial commit"), "No commits yet\n", true},
		{"an older git's hyphens", exp(1, "Your branch is up-to-date with 'origin/main'."), "Your branch is up to date with 'origin/main'.\n", true},
		{"memory addresses", exp(1, "file (0x7fb1521ef5a0)"), "file (0x55d0c3a1e2b0)\n", true},
		{"a short hex constant counts", exp(1, "mask 0xff"), "mask 0xfe\n", false},
		{"other words still count", exp(1, "Hello, World!"), "Hello World\n", false},
		{"version numbers count unless tolerant", exp(1, "v1.2.3"), "v1.3.0\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := MatchOutput(tt.expected, tt.actual); ok != tt.wantOK {
				t.Errorf("matchOutput(%q, %q) ok = %v, want %v", tt.expected[0].Text, tt.actual, ok, tt.wantOK)
			}
		})
	}
}

func TestMatchTolerant(t *testing.T) {
	tests := []struct {
		name     string
		expected []Line
		actual   string
		wantOK   bool
	}{
		{"version numbers", exp(1, "Python 3.11.4"), "Python 3.12.1\n", true},
		{"paths and users", exp(1, "Cloning into '/home/alice/app'..."), "Cloning into '/root/app'...\n", true},
		{"user at host", exp(1, "ssh alice@laptop ok"), "ssh root@c0ffee ok\n", true},
		{"ports and ids", exp(1, "listening on :8080 as worker 12"), "listening on :9090 as worker 3\n", true},
		{"order of lines", exp(1, "b.txt", "a.txt"), "a.txt\nb.txt\n", true},
		{"ls -l rows against names", exp(1, "-rw-r--r-- 1 alice staff 12 Jan 1 10:00 notes.txt"), "notes.txt\n", true},
		{"names against ls -l rows", exp(1, "notes.txt"), "-rw-r--r-- 1 root root 12 Nov 23 22:00 notes.txt\n", true},
		{"ls -l rows of one file, another owner", exp(1, "-rwxr-x--- 1 sam staff 8 Jan  5 09:12 hi.sh"), "-rwxr-x--- 1 root root 8 Nov 23 22:51 hi.sh\n", true},
		{"ls -l rows with other permissions", exp(1, "-rwxr-x--- 1 sam staff 8 Jan  5 09:12 hi.sh"), "-rw-r--r-- 1 root root 8 Nov 23 22:51 hi.sh\n", false},
		{"words still count", exp(1, "Build succeeded"), "Build failed\n", false},
		{"a missing line still counts", exp(1, "a.txt", "c.txt"), "a.txt\nb.txt\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, ok := MatchTolerant(tt.expected, tt.actual); ok != tt.wantOK {
				t.Errorf("matchTolerant(%v, %q) ok = %v, want %v", tt.expected, tt.actual, ok, tt.wantOK)
			}
		})
	}
}

func TestSameListing(t *testing.T) {
	tests := []struct {
		name, command string
		expected      []Line
		actual        string
		want          bool
	}{
		{"columns against one per line", "ls", exp(1, "main  main.rs"), "main\nmain.rs\n", true},
		{"tabs against one per line", "ls -a", exp(1, ".\t..\t.git"), ".\n..\n.git\n", true},
		{"columns one space apart", "ls -a", exp(1, ". ..  .git"), ".\n..\n.git\n", true},
		{"a name missing", "ls -F", exp(1, "data/  results/"), "data/\n", false},
		{"not ls", "cat list", exp(1, "a  b"), "a\nb\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SameListing(tt.command, tt.expected, tt.actual); got != tt.want {
				t.Errorf("sameListing = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestReaderSpecificCommand(t *testing.T) {
	for _, c := range []string{"pwd", "whoami", "echo $HOME", "date +%F"} {
		if !ReaderSpecificCommand.MatchString(c) {
			t.Errorf("%s prints the reader's own, not the page's", c)
		}
	}
	if ReaderSpecificCommand.MatchString("pwdx 1") {
		t.Error("pwdx is another command")
	}
}

func TestSameFolderListed(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"ls", "ls -F", true},
		{"ls -a docs", "ls -F docs", true},
		{"ls docs", "ls", false},
		{"ls", "cat notes.txt", false},
	} {
		if got := SameFolderListed(tc.a, tc.b); got != tc.want {
			t.Errorf("SameFolderListed(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// Another version's help text: it starts the same and holds most lines.
func TestSameHelp(t *testing.T) {
	shown := exp(1, "Usage: tally [OPTION]... [FILE]...", "Count the lines of each FILE.", "Sort by name unless neither -n nor -s is given.", "", "  -n   by number")
	for _, tc := range []struct {
		name, command, actual string
		want                  bool
	}{
		{"reworded line", "tally --help", "Usage: tally [OPTION]... [FILE]...\nCount the lines of each FILE.\nSort by name unless none of -n -s is given.\n\n  -n   by number\n", true},
		{"not a help command", "tally", "Usage: tally [OPTION]... [FILE]...\nCount the lines of each FILE.\n  -n   by number\n", false},
		{"another program's help", "tally --help", "Usage: other [FILE]\nCount the lines of each FILE.\n  -n   by number\n", false},
		{"most lines missing", "tally --help", "Usage: tally [OPTION]... [FILE]...\n", false},
	} {
		if got := SameHelp(tc.command, shown, tc.actual); got != tc.want {
			t.Errorf("%s: SameHelp = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestForeignListing(t *testing.T) {
	home := exp(1, "Documenti  echo_test  Immagini  Modelli  Musica  prova")
	long := []Line{{Line: 1, Text: "totale 12K"}, {Line: 2, Text: "drwxr-xr-x 2 so so 4,0K ott  7 13:37 Documenti"},
		{Line: 3, Text: "drwxr-xr-x 2 so so 4,0K ott  7 13:37 Musica"}, {Line: 4, Text: "drwxr-xr-x 2 so so 4,0K ott  7 13:37 Video"},
		{Line: 5, Text: "-rw-r--r-- 1 so so 24 ott  7 13:34 note"}}
	for _, tc := range []struct {
		name, command string
		expected      []Line
		actual        string
		want          bool
	}{
		{"the author's home", "ls", home, "notes.txt\n", true},
		{"the author's home, long", "ls -lah", long, "total 4\n-rw-r--r-- 1 root root 3 Nov 27 10:00 notes.txt\n", true},
		{"one name in common is compared", "ls", home, "prova\n", false},
		{"a listing of a named folder is compared", "ls data", home, "x\n", false},
		{"a short listing is compared", "ls", exp(1, "a.txt  b.txt"), "", false},
	} {
		if got := ForeignListing(tc.command, tc.expected, tc.actual); got != tc.want {
			t.Errorf("%s: ForeignListing = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestWithoutBanners(t *testing.T) {
	shown := []Line{
		{Line: 1, Text: "Welcome to Node.js v18.20.4."},
		{Line: 2, Text: `Type ".help" for more information.`},
		{Line: 3, Text: "Python 3.11.2 (main, Mar 13 2023, 12:18:29) [GCC 12.2.0] on linux"},
		{Line: 4, Text: "Python 3.11.2"},
		{Line: 5, Text: "42"},
		{Line: 6, Text: "[GCC 7.2.1 20170915 (Red Hat 7.2.1-2)] on linux"}, // the banner's second line, on a line of its own
	}
	got := WithoutBanners(shown)
	if len(got) != 2 || got[0].Text != "Python 3.11.2" || got[1].Text != "42" {
		t.Errorf("WithoutBanners = %+v, want the version line and 42 kept", got)
	}
}
