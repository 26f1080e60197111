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
