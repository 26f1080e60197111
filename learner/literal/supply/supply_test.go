package supply

import (
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

func md(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestBefore(t *testing.T) {
	tests := []struct {
		name string
		md   string
		line int // where the file is needed
		want int // the sentence's line, 0 for none
	}{
		{"a book's folder of example files", md("# Fields", "", "The `samples` folder in the book's repository has all the files used in the examples.", "", "```bash", "$ cat rows.txt", "```"), 6, 3},
		{"data downloaded at the setup", md("Your home holds the `course-data` folder you downloaded during setup.", "", "```bash", "$ ls course-data", "```"), 4, 1},
		{"a folder an earlier lesson left the reader in", md("We should still be in the `course-data` directory.", "", "```bash", "$ cd parts", "```"), 4, 1},
		{"a named folder that holds files", md("We work in the directory `course-data/parts` that contains four small files.", "", "```bash", "$ ls", "```"), 4, 1},
		{"a path before directory, then what it holds", md("Here we use the `lesson/birds` directory which only has three sample files.", "", "```bash", "$ ls", "```"), 4, 1},
		{"a bare path before folder that contains files", md("Take the data/birds folder, that contains 12 files.", "", "```bash", "$ ls", "```"), 4, 1},
		{"a folder the reader makes is not supplied", md("Create a `lesson/birds` directory that holds the three files below.", "", "```bash", "$ ls", "```"), 4, 0},
		{"a folder that holds nothing is not supplied", md("Use the `lesson/out` directory which has no files yet.", "", "```bash", "$ ls", "```"), 4, 0},
		{"a folder that will hold files is not supplied", md("Use the `lesson/out` directory which will hold the results.", "", "```bash", "$ ls", "```"), 4, 0},
		{"a plain word before directory is not a path", md("The home directory which has the files is yours.", "", "```bash", "$ ls", "```"), 4, 0},
		{"download the example files", md("First download the example files from the book's site.", "", "```bash", "$ wc -l rows.txt", "```"), 4, 1},
		{"after the command: does not count", md("```bash", "$ cat rows.txt", "```", "", "You downloaded these at the setup."), 2, 0},
		{"a missing step has no such sentence", md("Print the length of the longest line of the notes file:", "", "```bash", "awk '{print length}' notes.txt", "```"), 4, 0},
		{"moving into a folder is not a supply", md("Move the reports into the archive folder:", "", "```bash", "mv a.txt archive/", "```"), 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, ok := Before(spectest.Tutorial(t, tc.md), tc.line)
			if got := map[bool]int{true: s.Line}[ok]; got != tc.want {
				t.Errorf("Before = %d (%q), want %d", got, s.Sentence, tc.want)
			}
		})
	}
}
