package shownfiles

import (
	"reflect"
	"strings"
	"testing"

	"github.com/smile-loop/smile/spec/spectest"
)

func TestOf(t *testing.T) {
	tut := spectest.Tutorial(t, md(
		"```bash", // 1
		"$ cat rows.txt",
		"red 1",
		"blue 2",
		"",
		"# the second column",
		"$ awk '{print $2}' rows.txt",
		"1",
		"2",
		"```", // 10
		"",
		"Make your own list:",
		"",
		"```bash",
		"printf 'x\\n' > mine.txt",
		"$ cat mine.txt",
		"```",
		"",
		"```bash",
		"cat words.txt", // 20
		"```",
		"",
		"```output",
		"alpha",
		"beta",
		"```",
	))
	want := []File{
		{Name: "rows.txt", Line: 2, Content: "red 1\nblue 2\n"},
		{Name: "words.txt", Line: 20, Content: "alpha\nbeta\n"},
	}
	if got := Of(tut); !reflect.DeepEqual(got, want) {
		t.Errorf("Of =\n%#v\nwant\n%#v", got, want)
	}
}

func md(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
