package makerule

import (
	"fmt"
	"testing"
)

func TestPrerequisites(t *testing.T) {
	text := "CC := gcc\nhello:hello.c util.h ; @echo\n\tgcc hello.c -o hello\n\n%.o: %.c\n\t$(CC) -c $<\n.PHONY: clean\nclean:\n\trm hello\n"
	got := Prerequisites(text)
	want := []string{"hello.c", "util.h", "clean"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Prerequisites = %v, want %v", got, want)
	}
	if !IsMakefile("build/Makefile") || IsMakefile("Makefile.am") {
		t.Error("IsMakefile")
	}
}

func TestDefines(t *testing.T) {
	for _, tc := range []struct {
		text    string
		targets []string
		want    bool
	}{
		{"hello:\n", []string{"hello"}, true},
		{"hello:\n\techo hi\n", nil, true},
		{"hello:\n", nil, false}, // no recipe: not yet a Makefile plain make runs
		{"hello:\n\techo hi\nclean:\n\trm hello\n", []string{"clean"}, true},
		{"hello:\n\techo hi\n", []string{"clean"}, false},
		{"make: *** No rule to make target 'x'.  Stop.\n", []string{"x"}, false},
		{"make: *** No targets.  Stop.\n", nil, false},
		{"CC := gcc\n", nil, false},
		{"$ make hello\necho hello\n", []string{"hello"}, false},
	} {
		if got := Defines(tc.text, tc.targets); got != tc.want {
			t.Errorf("Defines(%q, %q) = %v, want %v", tc.text, tc.targets, got, tc.want)
		}
	}
}
