package stdin

import (
	"fmt"
	"testing"

	"github.com/smile-loop/smile/learner/literal/expect"
)

func TestReads(t *testing.T) {
	for _, c := range []struct {
		file, text string
		want       int
	}{
		{"score.rb", "score = gets.to_i\nputs score > 80 ? 'good' : 'soso'\n", 1},
		{"ask.py", "name = input('Name: ')\nage = input('Age: ')\nprint(name, age)\n", 2},
		{"sum.c", "#include <stdio.h>\nint main(void){int a,b; scanf(\"%d %d\", &a, &b); printf(\"%d\\n\", a+b);}\n", 1},
		{"hello.rb", "puts 'hello'\n", 0},
		{"notes.txt", "gets\n", 0},
	} {
		if got := Reads(c.file, c.text); got != c.want {
			t.Errorf("Reads(%q) = %d, want %d", c.file, got, c.want)
		}
	}
}

// A transcript shows the program's question, then the value typed, then
// what it printed: the values are typed, the rest is output.
func TestTyped(t *testing.T) {
	lines := func(texts ...string) []expect.Line {
		var out []expect.Line
		for i, s := range texts {
			out = append(out, expect.Line{Line: 10 + i, Text: s})
		}
		return out
	}
	text := func(ls []expect.Line) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Text)
		}
		return out
	}
	for _, c := range []struct {
		shown        []string
		n            int
		typed, other []string
		ok           bool
	}{
		{[]string{"21", "42"}, 1, []string{"21"}, []string{"42"}, true},
		{[]string{"Your age:", "19", "welcome"}, 1, []string{"19"}, []string{"Your age:", "welcome"}, true},
		{[]string{"Name?", "Ana", "Age?", "7", "Ana is 7"}, 2, []string{"Ana", "7"}, []string{"Name?", "Age?", "Ana is 7"}, true},
		{[]string{"Total: 3", "done"}, 1, nil, nil, false}, // output, not a value
		{[]string{"Your age:"}, 1, nil, nil, false},
	} {
		typed, other, ok := Typed(lines(c.shown...), c.n)
		if ok != c.ok || fmt.Sprint(text(typed)) != fmt.Sprint(c.typed) || fmt.Sprint(text(other)) != fmt.Sprint(c.other) {
			t.Errorf("Typed(%q, %d) = %q, %q, %v; want %q, %q, %v", c.shown, c.n, text(typed), text(other), ok, c.typed, c.other, c.ok)
		}
	}
}
