package stdin

import "testing"

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
